import './kit.css';
import { EditOutlined } from '@ant-design/icons';
import type { FieldDef, LineDef, ResourceDef } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Skeleton, Table, type TableColumnsType, Tooltip } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useRecordAction } from '../auth/permission.tsx';
import { formatTime } from '../lib/time.ts';
import { isNumeric, recordTitle } from './fields.ts';
import { FieldValue } from './format.tsx';
import { isEditable } from './lifecycle-actions.tsx';
import { cellWidth } from './line-table.tsx';
import { type ResourceRow, resourceApi, resourceKeys } from './resource-api.ts';

const RecordTimeline = lazy(() =>
  import('../timeline/record-timeline.tsx').then((m) => ({ default: m.RecordTimeline })),
);

const wideField = (f: FieldDef) => f.wide || f.kind === 'textarea' || f.kind === 'json';

function Label({ field }: { field: FieldDef }) {
  return field.help ? (
    <Tooltip title={field.help} placement="topLeft">
      <span className="rk-desc-label">{field.label}</span>
    </Tooltip>
  ) : (
    field.label
  );
}

/** A line table read-only, values formatted as in lists; `actions`, a last column of buttons (追溯). */
export function LineTableView({
  line,
  rows,
  actions,
}: {
  line: LineDef;
  rows: ResourceRow[];
  actions?: (line: ResourceRow) => ReactNode;
}) {
  const columns: TableColumnsType<ResourceRow> = [
    { title: '序号', key: '#', width: 56, align: 'center', render: (_, __, i) => i + 1 },
    ...line.fields
      .filter((f) => !f.hidden)
      .map((f) => ({
        title: f.label,
        key: f.name,
        width: cellWidth(f),
        align: (isNumeric(f) ? 'right' : f.kind === 'boolean' ? 'center' : 'left') as
          | 'right'
          | 'center'
          | 'left',
        render: (_: unknown, row: ResourceRow) => <FieldValue field={f} row={row} />,
      })),
    ...(actions
      ? [{ title: '操作', key: 'actions', width: 90, render: (_: unknown, row: ResourceRow) => actions(row) }]
      : []),
  ];
  return (
    <Table<ResourceRow>
      className="rk-line-view"
      rowKey={(r) => r.id ?? r.lineNo}
      size="small"
      bordered
      columns={columns}
      dataSource={rows}
      pagination={rows.length > 50 ? { pageSize: 50, size: 'small' } : false}
      scroll={{ x: columns.reduce((s, c) => s + Number(c.width ?? 120), 0) }}
      locale={{ emptyText: <span className="rk-empty-line">暂无{line.label}</span> }}
    />
  );
}

/** Every field of a record with its label, the line tables, and the audit columns. */
export function ResourceDetailView({
  def,
  record,
  column = 3,
  extra,
  shows,
  display = {},
  lineActions,
}: {
  def: ResourceDef;
  record: ResourceRow;
  column?: number;
  /** Sections a module adds after the lines (the exploded BOM…). */
  extra?: ReactNode;
  /** Fields that apply to this record (a 采购入库's 采购订单); the others are left out. */
  shows?: (field: FieldDef, record: ResourceRow) => boolean;
  /** A module's own rendering of some fields' values (the order a document was made against, as a link). */
  display?: Record<string, (record: ResourceRow) => ReactNode>;
  /** Buttons on each line of the record (追溯 of a posted 销售出库's line). */
  lineActions?: (line: ResourceRow, record: ResourceRow) => ReactNode;
}) {
  return (
    <div className="rk-detail" data-testid={`detail-${def.name}`}>
      <div className="rk-form-section-title">基本信息</div>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2, lg: Math.min(column, 2), xl: column, xxl: column }}
        className="rk-descriptions"
        items={def.fields
          .filter((f) => !shows || shows(f, record))
          .map((f) => ({
            key: f.name,
            label: <Label field={f} />,
            children: display[f.name]?.(record) ?? <FieldValue field={f} row={record} />,
            span: wideField(f) ? 'filled' : undefined,
          }))}
      />
      {(def.lines ?? []).map((line) => (
        <div key={line.name} className="rk-form-section">
          <div className="rk-form-section-title">
            {line.label}
            <span className="rk-count">{(record[line.name] ?? []).length}</span>
          </div>
          <LineTableView
            line={line}
            rows={record[line.name] ?? []}
            actions={lineActions && ((l) => lineActions(l, record))}
          />
        </div>
      ))}
      {extra}
      <div className="rk-form-section">
        <div className="rk-form-section-title">审计信息</div>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 3 }}
          className="rk-audit"
          items={[
            { key: 'createdAt', label: '创建时间', children: formatTime(record.createdAt) || '-' },
            { key: 'updatedAt', label: '更新时间', children: formatTime(record.updatedAt) || '-' },
            { key: 'version', label: '版本', children: record.version ?? '-' },
          ]}
        />
      </div>
      {/* 动态: history, comments with @mentions and files of every record the kit shows (issue 41 §1). */}
      <Suspense fallback={null}>
        <RecordTimeline resource={def.name} id={Number(record.id)} />
      </Suspense>
    </div>
  );
}

/** A record's details loaded by id (`GET …/info/:id`). */
export function useRecord(def: ResourceDef, id: number | undefined, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.info(def.name, id),
    queryFn: () => resourceApi(def).info(id as number),
    enabled: Boolean(id) && enabled,
  });
}

/** Details in a drawer, for resources without a detail page (dictionaries, suppliers, customers). */
export function ResourceDetailDrawer({
  def,
  id,
  onClose,
  onEdit,
}: {
  def: ResourceDef;
  id: number | undefined;
  onClose: () => void;
  onEdit?: (row: ResourceRow) => void;
}) {
  const mayOn = useRecordAction(def);
  const record = useRecord(def, id);
  const row = record.data;
  return (
    <Drawer
      title={row ? `${def.label}详情：${recordTitle(def, row)}` : `${def.label}详情`}
      open={Boolean(id)}
      onClose={onClose}
      size={def.lines?.length ? 960 : 720}
      destroyOnHidden
      extra={
        row && onEdit && mayOn('edit', row) && isEditable(def, row) && !def.readonlyApi ? (
          <Button type="primary" icon={<EditOutlined />} onClick={() => onEdit(row)}>
            编辑
          </Button>
        ) : undefined
      }
    >
      {row ? (
        <ResourceDetailView def={def} record={row} column={2} />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Drawer>
  );
}
