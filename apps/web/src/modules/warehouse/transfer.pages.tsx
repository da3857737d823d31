import { PlusOutlined } from '@ant-design/icons';
import { QUALITY_STATUS } from '@ringmes/domain';
import { Button, DatePicker, Form, Input } from 'antd';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { DocDetail } from './doc-detail.tsx';
import { DocFormPage, type LineColumn } from './doc-form.tsx';
import { DocList } from './doc-list.tsx';
import { LocationSelect } from './line-cells.tsx';
import { Dash } from './shared.tsx';
import { batchColumns, materialColumns, remarkColumn } from './stock-doc.pages.tsx';
import { qty, stockTransferResource, TRANSFER_PATHS } from './warehouse.api.ts';

const warehouse = (name: string, label: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: 'warehouse-management',
});

export function TransferListPage(_: PageProps) {
  return (
    <DocList
      def={stockTransferResource}
      warehouses={[
        { name: 'fromWarehouseId', label: '调出仓库' },
        { name: 'toWarehouseId', label: '调入仓库' },
      ]}
      columns={[
        { title: '调出仓库', dataIndex: 'fromWarehouseName', width: 110 },
        { title: '调入仓库', dataIndex: 'toWarehouseName', width: 110 },
        { title: '过账时间', dataIndex: 'postedAt', width: 160, render: (v?: string) => v || <Dash /> },
      ]}
      pathsOf={() => ({ edit: TRANSFER_PATHS.panel, detail: TRANSFER_PATHS.detail })}
      addButton={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openResourcePage(TRANSFER_PATHS.panel)}>
          新增调拨单
        </Button>
      }
    />
  );
}

function locationColumn(
  name: 'fromLocationId' | 'toLocationId',
  title: string,
  warehouseField: string,
): LineColumn {
  return {
    title,
    name,
    width: 170,
    render: (i, form) => (
      <Form.Item noStyle shouldUpdate={(a, b) => a[warehouseField] !== b[warehouseField]}>
        {() => (
          <Form.Item name={[i, name]}>
            <LocationSelect
              warehouseId={form.getFieldValue(warehouseField)}
              placeholder={name === 'fromLocationId' ? '不填按先进先出' : '请选择库位'}
              label={`第${i + 1}行${title}`}
            />
          </Form.Item>
        )}
      </Form.Item>
    ),
  };
}

/** 调拨单编辑 (panel): add without `?id`, edit with it. */
export function TransferFormPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  return (
    <DocFormPage
      key={id ?? 'new'}
      def={stockTransferResource}
      path={path}
      id={id}
      title={id ? '编辑调拨单' : '新增调拨单'}
      listPath={TRANSFER_PATHS.list}
      detailPath={TRANSFER_PATHS.detail}
      header={() => (
        <>
          <Form.Item
            name="fromWarehouseId"
            label="调出仓库"
            rules={[{ required: true, message: '请选择调出仓库' }]}
          >
            <RefSelect field={warehouse('fromWarehouseId', '调出仓库')} />
          </Form.Item>
          <Form.Item
            name="toWarehouseId"
            label="调入仓库"
            rules={[{ required: true, message: '请选择调入仓库' }]}
          >
            <RefSelect field={warehouse('toWarehouseId', '调入仓库')} />
          </Form.Item>
          <Form.Item name="bizDate" label="业务日期" tooltip="不填则为今天">
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="remark"
            label="备注"
            className="rk-span-all"
            rules={[{ max: 500, message: '不超过 500 个字符' }]}
          >
            <Input.TextArea rows={2} />
          </Form.Item>
        </>
      )}
      lineColumns={[
        ...materialColumns(),
        locationColumn('fromLocationId', '调出库位', 'fromWarehouseId'),
        locationColumn('toLocationId', '调入库位', 'toWarehouseId'),
        ...batchColumns,
        remarkColumn,
      ]}
      newLine={() => ({ qualityStatus: 'qualified' })}
    />
  );
}

export function TransferDetailPage({ path }: PageProps) {
  const [search] = useSearchParams();
  return (
    <DocDetail
      def={stockTransferResource}
      path={path}
      id={idFromSearch(search)}
      listPath={TRANSFER_PATHS.list}
      editPath={TRANSFER_PATHS.panel}
      docName={() => '调拨单'}
      fields={(row) => [
        { label: '单据编号', value: row.docNo },
        { label: '调出仓库', value: row.fromWarehouseName },
        { label: '调入仓库', value: row.toWarehouseName },
        { label: '业务日期', value: row.bizDate },
        { label: '过账时间', value: row.postedAt },
        { label: '过账人', value: row.postedByName },
        ...(row.reversedAt ? [{ label: '冲销时间', value: row.reversedAt }] : []),
        { label: '备注', value: row.remark },
      ]}
      lineColumns={[
        { title: '物料', render: (l) => l.materialName, width: '24%' },
        { title: '数量', render: (l) => qty(l.quantity), numeric: true },
        { title: '单位', render: (l) => l.unitName ?? '基本单位' },
        { title: '基本单位数量', render: (l) => qty(l.baseQuantity), numeric: true },
        { title: '调出库位', render: (l) => l.fromLocationName ?? '' },
        { title: '调入库位', render: (l) => l.toLocationName ?? '' },
        { title: '批次号', render: (l) => l.batchNo ?? '' },
        {
          title: '质量状态',
          render: (l) => QUALITY_STATUS.find((q) => q.value === l.qualityStatus)?.label ?? '',
        },
      ]}
    />
  );
}
