import './warehouse.css';
import { ReloadOutlined } from '@ant-design/icons';
import type { EnumOption, ResourceDef } from '@ringmes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Form,
  Grid,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableProps,
  Tooltip,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useRecordPermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import { ExportButton } from '../../platform/resource/export-button.tsx';
import { LifecycleActions } from '../../platform/resource/lifecycle-actions.tsx';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { fitColumns, useNarrow } from '../../platform/ui/responsive.ts';
import { SearchForm, TableToolbar } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { Dash, STATUS_OPTIONS, StatusTag, useRefreshDocs } from './shared.tsx';
import { docApi, type Row } from './warehouse.api.ts';

export interface DocListConfig {
  def: ResourceDef;
  /** A per-type page: the list shows this type only. */
  fixedType?: string;
  types?: EnumOption[];
  /** Warehouse filters (仓库, or 调出仓库 / 调入仓库). */
  warehouses: { name: string; label: string }[];
  /** Columns between 状态 and 备注 (the list fits 1,440 px: keep them narrow). */
  columns: NonNullable<TableProps<Row>['columns']>;
  pathsOf: (row: Row) => { edit?: string; detail: string };
  addButton?: ReactNode;
  /** Extra filter fields of the search bar. */
  extraFilters?: ReactNode;
}

interface Filters {
  docNo?: string;
  type?: string;
  status?: string;
  materialId?: number;
  dates?: [Dayjs, Dayjs];
  [warehouse: string]: unknown;
}

const warehouseField = (name: string, label: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: 'warehouse-management',
});
const materialField = { name: 'materialId', label: '物料', kind: 'ref' as const, ref: 'material-info' };

function toQuery(values: Filters): Record<string, unknown> {
  const { dates, ...rest } = values;
  return {
    ...rest,
    bizDateFrom: dates?.[0]?.format('YYYY-MM-DD'),
    bizDateTo: dates?.[1]?.format('YYYY-MM-DD'),
  };
}

/**
 * A list of stock documents: filters 单据编号 / 类型 / 状态 / 仓库 / 业务日期 / 物料, status tags and
 * the row actions 查看 / 编辑 / 删除 (drafts) / 过账 / 冲销 by permission.
 * 物料 lists the documents having a line of that material, drafts included.
 */
export function DocList(config: DocListConfig) {
  const { def, fixedType } = config;
  const may = useRecordPermission(def);
  const refresh = useRefreshDocs(def);
  const api = docApi(def);
  const [form] = Form.useForm<Filters>();
  // `?status=draft` (首页 待过账) opens the list filtered.
  const [address] = useSearchParams();
  const statusInUrl = address.get('status') || undefined;
  const [filters, setFilters] = useState<Filters>(statusInUrl ? { status: statusInUrl } : {});
  const paged = useServerTable({ defaultSort: { sortField: 'docNo', sortOrder: 'desc' } });
  useEffect(() => {
    if (!statusInUrl) return;
    form.setFieldsValue({ status: statusInUrl });
    setFilters((f) => (f.status === statusInUrl ? f : { ...f, status: statusInUrl }));
  }, [statusInUrl, form]);
  const narrow = useNarrow();
  const phone = Grid.useBreakpoint().sm === false;

  const query = { ...toQuery(filters), ...(fixedType ? { type: fixedType } : {}) };
  const list = useQuery({
    queryKey: ['resource', def.name, 'wh-page', query, paged.query],
    queryFn: () => api.page({ ...query, ...paged.query }),
    placeholderData: keepPreviousData,
  });
  const data = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  const remove = async (row: Row) => {
    try {
      await api.remove(row.id);
      toast.success('删除成功');
      refresh();
    } catch {
      // shown by the client
    }
  };

  const wide: NonNullable<TableProps<Row>['columns']> = [
    {
      title: '单据编号',
      dataIndex: 'docNo',
      width: 150,
      fixed: 'left',
      sorter: true,
      sortOrder: paged.sortOrderOf('docNo'),
      render: (v: string, row) => (
        <Button
          type="link"
          size="small"
          className="rm-link-cell"
          onClick={() => openResourcePage(config.pathsOf(row).detail, row.id)}
        >
          {v}
        </Button>
      ),
    },
    // The date and status next to the number: never clipped, never behind 操作.
    {
      title: '业务日期',
      dataIndex: 'bizDate',
      width: 108,
      sorter: true,
      sortOrder: paged.sortOrderOf('bizDate'),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 84,
      sorter: true,
      sortOrder: paged.sortOrderOf('status'),
      render: (v, row) => (
        <span title={row.postedAt ? `过账 ${row.postedAt}` : `创建 ${formatTime(row.createdAt)}`}>
          <StatusTag value={v} />
        </span>
      ),
    },
    ...config.columns,
    {
      title: '备注',
      dataIndex: 'remark',
      width: 110,
      ellipsis: true,
      render: (v?: string) => v || <Dash />,
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 192,
      render: (_, row) => {
        const paths = config.pathsOf(row);
        const draft = row.status === 'draft';
        return (
          <Space size={0} className="rm-row-actions">
            <Button type="link" size="small" onClick={() => openResourcePage(paths.detail, row.id)}>
              查看
            </Button>
            {draft && paths.edit && may('edit', row.type) && (
              <Button type="link" size="small" onClick={() => openResourcePage(paths.edit as string, row.id)}>
                编辑
              </Button>
            )}
            {draft && may('delete', row.type) && (
              <Popconfirm
                title={`删除${def.label}`}
                description={`确定删除草稿「${row.docNo}」吗？`}
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove(row)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )}
            <LifecycleActions def={def} record={row} link onDone={refresh} />
          </Space>
        );
      },
    },
  ];

  // Below 992 px: number, date (not on a phone), status and 操作.
  const columns = fitColumns(wide, narrow, ['docNo', ...(phone ? [] : ['bizDate']), 'status', 'actions']);
  const scrollX = wide.reduce((sum, c) => sum + Number(c.width ?? 120), 0);

  return (
    <>
      <PageCard>
        <SearchForm<Filters>
          name={`wh-${def.name}-${fixedType ?? 'all'}`}
          form={form}
          onSearch={(v) => {
            setFilters(v);
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            paged.firstPage();
          }}
        >
          <Form.Item name="docNo" label="单据编号">
            <Input
              placeholder="请输入单据编号"
              allowClear
              data-testid="search-docNo"
              style={{ width: 180 }}
            />
          </Form.Item>
          {config.types && !fixedType && (
            <Form.Item name="type" label="类型">
              <Select placeholder="全部" allowClear options={config.types} style={{ width: 150 }} />
            </Form.Item>
          )}
          <Form.Item name="status" label="状态">
            <Select placeholder="全部" allowClear options={STATUS_OPTIONS} style={{ width: 110 }} />
          </Form.Item>
          {config.warehouses.map((w) => (
            <Form.Item key={w.name} name={w.name} label={w.label}>
              <RefSelect field={warehouseField(w.name, w.label)} placeholder="全部" style={{ width: 150 }} />
            </Form.Item>
          ))}
          <Form.Item name="dates" label="业务日期">
            <DatePicker.RangePicker style={{ width: 240 }} />
          </Form.Item>
          <Form.Item name="materialId" label="物料">
            <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
          {config.extraFilters}
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <Space>
              {may('add', fixedType) && config.addButton}
              {may('export', fixedType) && (
                <ExportButton url={`/api/v1/${def.name}/export`} params={() => query} />
              )}
            </Space>
          }
          right={
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label="刷新" />
            </Tooltip>
          }
        />
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data}
          loading={list.isFetching}
          scroll={narrow ? undefined : { x: scrollX }}
          pagination={paged.pagination(total)}
          onChange={paged.onChange}
        />
      </PageCard>
    </>
  );
}
