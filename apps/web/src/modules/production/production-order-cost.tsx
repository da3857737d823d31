import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Table, Typography } from 'antd';
import { http } from '../../platform/api/client.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { money, qty } from '../warehouse/warehouse.api.ts';

interface Part<L> {
  total: string;
  unitCost: string | null;
  lines: L[];
}
type Line = Record<string, any>;
interface OrderCost {
  finishedQuantity: string;
  material: Part<Line>;
  labour: Part<Line>;
  outsourcing: Part<Line>;
  overhead: Part<Line>;
  scrap: Part<Line>;
  total: string;
  unitCost: string | null;
  unratedWorkshops: string[];
}

const BASIS: Record<string, string> = { 'standard-minute': '元/标准分钟', hour: '元/小时' };
const unit = (v: string | null) => (v == null ? '—' : Number(v).toFixed(4));

/**
 * 成本 of a production order (GET production-order/cost/{id}): 材料, 计件工资, 委外加工费, 制造费用
 * and 废料回收, each with its source documents, the total and the unit cost over what was finished.
 */
export function OrderCostSection({ order }: { order: ResourceRow }) {
  const data = useQuery({
    queryKey: ['resource', 'production-order', 'cost', order.id, order.version],
    queryFn: () => http.get<OrderCost>(`/api/v1/production-order/cost/${order.id}`),
  });
  const c = data.data;
  if (!c) return <Table loading={data.isFetching} dataSource={[]} />;
  const part = (title: string, p: Part<Line>, columns: any[], sign = '') => (
    <div className="rk-form-section" data-testid={`cost-${title}`}>
      <div className="rk-form-section-title">
        {title}
        <span className="rk-count">
          {sign}
          {money(p.total)} 元，单位 {sign}
          {unit(p.unitCost)}
        </span>
      </div>
      {p.lines.length > 0 && (
        <Table<Line>
          rowKey={(_r, i) => String(i)}
          size="small"
          bordered
          pagination={p.lines.length > 20 ? { pageSize: 20, size: 'small' } : false}
          dataSource={p.lines}
          columns={[
            ...columns,
            { title: '金额(元)', dataIndex: 'amount', width: 110, align: 'right', render: money },
          ]}
        />
      )}
    </div>
  );
  const doc = { title: '单据', dataIndex: 'docNo', width: 170 };
  return (
    <div data-testid="production-cost">
      <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="完工数量">{qty(c.finishedQuantity)}</Descriptions.Item>
        <Descriptions.Item label="实际总成本(元)">
          <Typography.Text strong data-testid="cost-total">
            {money(c.total)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="单位成本(元)">
          <Typography.Text strong data-testid="cost-unit">
            {unit(c.unitCost)}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      {c.unratedWorkshops.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={`未设置制造费用分摊率的车间：${c.unratedWorkshops.join('、')}（系统设置 › 成本核算）`}
        />
      )}
      {part('材料', c.material, [
        { ...doc, title: '领料单' },
        { title: '物料', dataIndex: 'materialName', width: 160 },
        { title: '数量', dataIndex: 'quantity', width: 100, align: 'right', render: qty },
      ])}
      {part('计件工资', c.labour, [
        { ...doc, title: '报工单' },
        { title: '工序', dataIndex: 'processName', width: 110 },
        { title: '操作工', dataIndex: 'operatorName', width: 90 },
        { title: '数量', dataIndex: 'quantity', width: 100, align: 'right', render: qty },
      ])}
      {part('委外加工费', c.outsourcing, [
        { ...doc, title: '委外入库/退货单' },
        { title: '委外订单', dataIndex: 'orderNo', width: 170 },
        { title: '供应商', dataIndex: 'supplierName', width: 140 },
        { title: '数量', dataIndex: 'quantity', width: 100, align: 'right', render: qty },
        { title: '含税金额', dataIndex: 'grossAmount', width: 110, align: 'right', render: money },
        { title: '税额', dataIndex: 'taxAmount', width: 100, align: 'right', render: money },
      ])}
      {part('制造费用', c.overhead, [
        { title: '车间', dataIndex: 'workshopName', width: 120 },
        {
          title: '分摊率',
          dataIndex: 'rate',
          width: 150,
          render: (v: string | null, r: Line) =>
            v == null ? '未设置' : `${Number(v)} ${BASIS[r.basis] ?? ''}`,
        },
        {
          title: '标准工时(分钟)/工时(小时)',
          dataIndex: 'driver',
          width: 170,
          align: 'right',
          render: qty,
        },
        { title: '报工单', dataIndex: 'docNos', render: (v: string[]) => v.join('、') },
      ])}
      {part(
        '废料回收',
        c.scrap,
        [
          { ...doc, title: '报工单' },
          { title: '废品数', dataIndex: 'quantity', width: 100, align: 'right', render: qty },
          { title: '重量(kg)', dataIndex: 'weightKg', width: 100, align: 'right', render: qty },
        ],
        '−',
      )}
    </div>
  );
}
