import { useQuery } from '@tanstack/react-query';
import { Alert, Modal, Spin } from 'antd';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { numberText } from '../../platform/lib/number-text.ts';
import { type PrintColumn, PrintView } from '../../platform/ui/print-view.tsx';
import { rmbUpper } from './rmb-upper.ts';
import { money, qty } from './warehouse.api.ts';

/** GET /api/v1/stock-outbound/delivery-note/{id} (modules/sales/shipping.ts on the server). */
type DeliveryNote = ApiResult<'/api/v1/stock-outbound/delivery-note/{id}'>;

/** A unit price as the order shows it: at least 元.角分, up to the price's six places. */
const price = (v: string | null) => numberText(v, { min: 2, max: 6 });

const COLUMNS: PrintColumn[] = [
  { title: '产品编码', render: (l) => l.materialCode, width: '13%' },
  { title: '产品名称', render: (l) => l.materialName, width: '22%' },
  { title: '规格型号', render: (l) => l.spec ?? '' },
  { title: '批次号', render: (l) => l.batchNo ?? '' },
  { title: '单位', render: (l) => l.unitName ?? '', width: '6%' },
  { title: '数量', render: (l) => qty(l.quantity), numeric: true },
  { title: '含税单价(元)', render: (l) => price(l.unitPrice), numeric: true },
  { title: '含税金额(元)', render: (l) => money(l.amount), numeric: true },
];

/**
 * The 送货单 of a 销售出库: what the customer receives and signs — the customer's name, address,
 * contact and phone, each line in the unit it was sold in with the order's tax-inclusive price
 * and amount (never the stock cost), the quantity total per unit and the amount in words.
 */
export function DeliveryNotePrint({ id, onClose }: { id: number; onClose: () => void }) {
  const note = useQuery({
    queryKey: ['warehouse', 'delivery-note', id],
    queryFn: (): Promise<DeliveryNote> =>
      api.get('/api/v1/stock-outbound/delivery-note/{id}', { path: { id } }),
  });
  const n = note.data;
  if (!n) {
    return (
      <Modal open title="送货单" footer={null} onCancel={onClose}>
        {note.error ? (
          <Alert type="error" showIcon title={(note.error as Error).message} />
        ) : (
          <span>
            <Spin /> 正在准备送货单…
          </span>
        )}
      </Modal>
    );
  }
  return (
    <PrintView
      onClose={onClose}
      doc={{
        docName: '送货单',
        docNo: n.docNo,
        fields: [
          { label: '客户', value: n.customerName },
          { label: '联系人', value: n.contact },
          { label: '联系电话', value: n.phone },
          { label: '收货地址', value: n.address },
          { label: '销售订单', value: n.saleOrderNo },
          { label: '发货日期', value: n.bizDate },
          { label: '发货仓库', value: n.warehouseName },
          { label: '业务员', value: n.salespersonName },
          { label: '税率', value: n.taxRate == null ? '' : `${Number(n.taxRate)}%（单价含税）` },
          { label: '金额合计（大写）', value: rmbUpper(n.totals.amount) },
          { label: '备注', value: n.remark },
        ],
        columns: COLUMNS,
        lines: n.lines,
        totals: {
          数量: n.totals.quantities.map((u) => `${qty(u.quantity)} ${u.unitName}`).join(' · '),
          '含税金额(元)': money(n.totals.amount),
        },
        signatures: ['发货人', '送货人', '客户签收'],
      }}
    />
  );
}
