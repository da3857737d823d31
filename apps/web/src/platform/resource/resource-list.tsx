import './kit.css';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, TagOutlined, UploadOutlined } from '@ant-design/icons';
import { type FieldDef, labelTypeOfResource, type ResourceDef, transitionAction } from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tooltip } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useRecordAction, useRecordPermission } from '../auth/permission.tsx';
import { confirm, toast } from '../feedback.ts';
import { formatTime } from '../lib/time.ts';
import { PageCard } from '../ui/page-card.tsx';
import { fitColumns, useNarrow } from '../ui/responsive.ts';
import { TableToolbar } from '../ui/search-form.tsx';
import { useServerTable } from '../ui/server-table.ts';
import { type ColumnChoice, ColumnSettings, useHiddenColumns } from './column-settings.tsx';
import { ImportDialog, ResourceDetailDialog, ResourceFormDialog } from './dialogs.tsx';
import { ExportButton } from './export-button.tsx';
import {
  codeFieldOf,
  isImportable,
  isNumeric,
  isSortable,
  labelFieldOf,
  listFields,
  recordTitle,
} from './fields.ts';
import { FieldValue, linkText } from './format.tsx';
import { isEditable, LifecycleActions } from './lifecycle-actions.tsx';
import { type ListView, useListViews, ViewPicker, type ViewState } from './list-views.tsx';
import { openResourcePage } from './nav.ts';
import { type ResourceRow, resourceApi, resourceKeys } from './resource-api.ts';
import type { FieldOverrides } from './resource-form.tsx';
import { type ResourceRoutes, resourceRoutes } from './routes.ts';
import { type Filters, ResourceSearchBar } from './search-bar.tsx';
import { filtersFromUrl } from './url-filters.ts';

/** The selection bar of bulk actions, loaded when rows are first selected. */
const BulkActions = lazy(() => import('./bulk-actions.tsx').then((m) => ({ default: m.BulkActions })));
/** The label printout of the selected rows, loaded when first opened. */
const TemplatePrint = lazy(() =>
  import('../print/template-print.tsx').then((m) => ({ default: m.TemplatePrint })),
);

import { invalidateResource } from './use-options.ts';

/** Column width by kind; wide text and material references get more room. */
function columnWidth(def: ResourceDef, f: FieldDef): number {
  if (f.name === codeFieldOf(def)) return 150;
  if (f.name === labelFieldOf(def)) return 180;
  switch (f.kind) {
    case 'enum':
      return 90;
    case 'boolean':
      return 86;
    case 'ref':
      return f.ref === 'material-info' ? 200 : 120;
    case 'refs':
      return 180;
    case 'date':
      return 116;
    case 'datetime':
      return 170;
    default:
      if (isNumeric(f)) return 120;
      return (f.max ?? 100) > 100 ? 200 : 130;
  }
}

/** Everything a list row action needs. */
export interface RowActionContext {
  refresh: () => void;
  def: ResourceDef;
}

export interface ResourceListProps {
  def: ResourceDef;
  /** Query parameters set by the page, not the search bar (the material type chosen in the tree). */
  fixedFilters?: Record<string, string | number | undefined>;
  /** Declared filters the search bar leaves out (driven by the page). */
  hiddenFilters?: readonly string[];
  /** Values of a record added from this list (the workshop of a line added under it). */
  newValues?: Record<string, unknown>;
  /** Fields a record added from this list cannot change. */
  lockedOnAdd?: readonly string[];
  /** Buttons a module adds to each row (启用/停用, 按模板新建物料). */
  rowActions?: (row: ResourceRow, ctx: RowActionContext) => ReactNode;
  /** Width the extra row actions need. */
  rowActionsWidth?: number;
  /**
   * The 操作 column's width when the page knows its buttons (the estimate from the permissions and
   * the lifecycle allows for every button at once, which can push key columns out of a 1440 px screen).
   */
  actionsWidth?: number;
  /** Listed fields hidden until 列设置 shows them: secondary columns, so the key ones fit at 1440 px. */
  hiddenColumns?: readonly string[];
  /** Buttons a module adds to the toolbar. */
  toolbarExtra?: ReactNode;
  /** Opens the module's own add dialog instead of the kit's form (登记点检 fills a checklist's items). */
  onAdd?: () => void;
  /** A class for some rows (逾期的保养计划 in red). */
  rowClassName?: (row: ResourceRow) => string;
  /** Form inputs a module overrides (template attributes). */
  overrides?: FieldOverrides;
  /** Embedded (inside another page): no separate search card. */
  embedded?: boolean;
  /** Title over the table (embedded lists). */
  title?: ReactNode;
  /** Where 查看 / 编辑 / 新增 go when not the definition's own pages (a workshop's screens). */
  routes?: ResourceRoutes;
  /** Where a row's 查看 / 编辑 go when it depends on the row (a stock document opens on its type's pages). */
  routesOf?: (row: ResourceRow) => ResourceRoutes;
  /** What this page lists when not the definition's label (采购入库单 on its type's page): 新增采购入库单. */
  label?: string;
  /** The toolbar's add button instead of the kit's (a menu of the types to add). */
  addButton?: ReactNode;
  /** After a row's transition ran (beyond refreshing the list: a stock document's stock views). */
  onTransition?: () => void;
  /**
   * The name saved views of this list are kept under, when the page lists part of a resource
   * (`stock-inbound:purchase`); the resource's name by default. Embedded lists have no views.
   */
  viewKey?: string;
}

/**
 * The list of a resource, entirely from its definition: search bar from the declared filters,
 * columns from the listed fields, server-side sort and paging, row actions by permission, batch
 * delete, column settings, Excel export of the current filter and import. Add/edit open the
 * resource's pages, or a modal when it has none; 查看 opens the detail page or a drawer.
 */
export function ResourceList({
  def,
  fixedFilters,
  hiddenFilters,
  newValues,
  lockedOnAdd,
  rowActions,
  rowActionsWidth = 0,
  actionsWidth: givenActionsWidth,
  hiddenColumns = [],
  toolbarExtra,
  rowClassName,
  onAdd,
  overrides,
  embedded,
  title,
  routes: givenRoutes,
  routesOf,
  label = def.label,
  addButton,
  onTransition,
  viewKey = def.name,
}: ResourceListProps) {
  const may = useRecordPermission(def);
  const mayOn = useRecordAction(def);
  const client = useQueryClient();
  const api = useMemo(() => resourceApi(def), [def]);
  const routes: ResourceRoutes | undefined = givenRoutes ?? (def.route ? resourceRoutes(def) : undefined);
  // A page fixed to one kind of a scoped resource (a workshop) answers for that kind's permissions.
  const scopeField = def.scopedPermissions?.field;
  const perm = (action: string) => may(action, scopeField ? fixedFilters?.[scopeField] : undefined);
  const writable = !def.readonlyApi;

  // A page list starts from the filters in its address (links from 首页 and messages).
  const [address] = useSearchParams();
  const fromUrl = useMemo(
    () => (embedded ? undefined : filtersFromUrl(def, address, hiddenFilters)),
    [embedded, def, address, hiddenFilters],
  );
  const [filters, setFilters] = useState<Filters>(fromUrl?.filters ?? {});
  const paged = useServerTable();
  const [urlKey, setUrlKey] = useState(fromUrl?.key);
  if (fromUrl && fromUrl.key !== urlKey) {
    setUrlKey(fromUrl.key);
    setFilters(fromUrl.filters);
    paged.firstPage();
  }
  const [selected, setSelected] = useState<number[]>([]);
  const [labels, setLabels] = useState(false);
  // A saved view chosen (or the default one applied when the list opened), and the search bar's
  // values showing its filters.
  const [activeView, setActiveView] = useState<number>();
  const [viewValues, setViewValues] = useState<{ key: string; values: Record<string, unknown> }>();
  const [modal, setModal] = useState<{ open: boolean; id?: number }>({ open: false });
  const [viewing, setViewing] = useState<number | undefined>();
  const [importing, setImporting] = useState(false);

  // A new page-driven filter starts again from page 1.
  const fixedKey = JSON.stringify(fixedFilters ?? {});
  const [lastFixed, setLastFixed] = useState(fixedKey);
  if (lastFixed !== fixedKey) {
    setLastFixed(fixedKey);
    paged.firstPage();
    setSelected([]);
  }

  const query = { ...filters, ...fixedFilters, ...paged.query };
  const list = useQuery({
    queryKey: resourceKeys.page(def.name, query),
    queryFn: () => api.page(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => invalidateResource(client, def.name);

  const remove = useMutation({
    mutationFn: (ids: number[]) => api.remove(ids),
    onSuccess: (_, ids) => {
      toast.success(ids.length > 1 ? `已删除 ${ids.length} 条${def.label}` : '删除成功');
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      refresh();
    },
  });

  const view = (row: ResourceRow) => {
    const pages = routesOf?.(row) ?? routes;
    if (pages?.detail) openResourcePage(pages.detail, row.id);
    else setViewing(row.id);
  };
  const edit = (row: ResourceRow) => {
    const pages = routesOf?.(row) ?? routes;
    if (pages?.formOnPage && pages.edit) openResourcePage(pages.edit, row.id);
    else setModal({ open: true, id: row.id });
  };
  const add = () => {
    if (routes?.formOnPage && routes.add) openResourcePage(routes.add);
    else setModal({ open: true });
  };

  const fields = listFields(def);
  const linkField = fields.find((f) => f.name === codeFieldOf(def)) ?? fields[0];

  const fieldColumns: TableColumnsType<ResourceRow> = [
    ...fields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: f.label,
      width: columnWidth(def, f),
      ellipsis: f.kind === 'text' || f.kind === 'ref' ? { showTitle: true } : undefined,
      fixed: f === linkField ? ('left' as const) : undefined,
      align: (isNumeric(f) ? 'right' : f.kind === 'boolean' ? 'center' : 'left') as
        | 'right'
        | 'center'
        | 'left',
      sorter: isSortable(def, f.name),
      sortOrder: paged.sortOrderOf(f.name),
      render: (_: unknown, row: ResourceRow) =>
        f === linkField ? (
          <button
            type="button"
            className="rk-link"
            onClick={() => view(row)}
            title={`查看${recordTitle(def, row)}`}
          >
            {linkText(f, row)}
          </button>
        ) : (
          <FieldValue field={f} row={row} />
        ),
    })),
    {
      key: 'createdAt',
      dataIndex: 'createdAt',
      title: '创建时间',
      width: 170,
      sorter: true,
      sortOrder: paged.sortOrderOf('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      key: 'updatedAt',
      dataIndex: 'updatedAt',
      title: '更新时间',
      width: 170,
      sorter: true,
      sortOrder: paged.sortOrderOf('updatedAt'),
      render: (v: string) => formatTime(v),
    },
  ];
  const choices: ColumnChoice[] = fieldColumns.map((c) => ({ key: String(c.key), title: String(c.title) }));
  const [hidden, setHidden] = useHiddenColumns(def.name, ['createdAt', 'updatedAt', ...hiddenColumns]);

  const applyView = (view: ListView | undefined) => {
    setActiveView(view?.id);
    const state: ViewState = view?.state ?? {};
    const shown = filtersFromUrl(
      def,
      new URLSearchParams(Object.entries(state.filters ?? {}).map(([k, v]) => [k, String(v)])),
      hiddenFilters,
    );
    setFilters(shown.filters);
    setViewValues({ key: `view:${view?.id ?? 'none'}:${Date.now()}`, values: shown.values });
    paged.apply({ sortField: state.sortField, sortOrder: state.sortOrder, pageSize: state.pageSize });
    setHidden(view ? (state.hidden ?? []) : null);
    setSelected([]);
  };
  const currentView = (): ViewState => ({ filters, ...paged.chosen, hidden });
  // The user's default view applies when the list opens, unless its address carries filters.
  const withViews = !embedded;
  const views = useListViews(viewKey, withViews);
  const defaultApplied = useRef(false);
  useEffect(() => {
    if (defaultApplied.current || !views.data) return;
    defaultApplied.current = true;
    if (fromUrl && Object.keys(fromUrl.filters).length) return;
    const chosen = views.data.views.find((v) => v.id === views.data?.defaultId);
    if (chosen) applyView(chosen);
  });

  const canEdit = writable && perm('edit');
  const canDelete = writable && perm('delete');
  const bulkable = (def.lifecycle?.transitions ?? []).some((t) => perm(transitionAction(t)));
  // 打印标签 of the selected rows (物料标签; issue 41 §3) needs rows to select too.
  const labelType = labelTypeOfResource(def.name);
  const selectable = canDelete || bulkable || !!labelType;
  const selectedRows = (list.data?.list ?? []).filter((r) => selected.includes(r.id));
  // A lifecycle shows at most two transitions per state (审核 + 关闭, 反审核 + 关闭).
  const lifecycleWidth = def.lifecycle ? 110 : 0;
  const actionsWidth =
    givenActionsWidth ?? 56 + (canEdit ? 48 : 0) + (canDelete ? 48 : 0) + lifecycleWidth + rowActionsWidth;
  const narrow = useNarrow();
  const wide: TableColumnsType<ResourceRow> = [
    ...fieldColumns.filter((c) => !hidden.includes(String(c.key))),
    {
      key: 'actions',
      title: '操作',
      width: actionsWidth,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} className="rm-row-actions">
          <Button type="link" size="small" onClick={() => view(row)}>
            查看
          </Button>
          {canEdit && isEditable(def, row) && mayOn('edit', row) && (
            <Button type="link" size="small" onClick={() => edit(row)}>
              编辑
            </Button>
          )}
          {rowActions?.(row, { refresh, def })}
          <LifecycleActions def={def} record={row} link onDone={onTransition} />
          {canDelete && isEditable(def, row) && mayOn('delete', row) && (
            <Popconfirm
              title={`删除${def.label}`}
              description={`确定删除「${recordTitle(def, row)}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync([row.id]).catch(() => undefined)}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  // Below 992 px: the code, the name, the status and 操作.
  const columns = fitColumns(wide, narrow, [
    linkField?.name ?? '',
    def.labelField ?? 'name',
    def.activeField?.name ?? '',
    'status',
    'actions',
  ]);
  const scrollX = columns.reduce((sum, c) => sum + Number(c.width ?? 120), selectable ? 48 : 0);

  const confirmBatchDelete = () => {
    confirm({
      title: `批量删除${def.label}`,
      content: `确定删除选中的 ${selected.length} 条${def.label}吗？删除后不可恢复；被单据引用的记录不能删除。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => remove.mutateAsync(selected).catch(() => undefined),
    });
  };

  const toolbar = (
    <TableToolbar
      left={
        <>
          {title && <span className="rk-list-title">{title}</span>}
          {writable &&
            perm('add') &&
            (addButton ?? (
              <Button type="primary" icon={<PlusOutlined />} onClick={onAdd ?? add}>
                新增{embedded ? '' : label}
              </Button>
            ))}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={confirmBatchDelete}>
              批量删除{selected.length ? `（${selected.length}）` : ''}
            </Button>
          )}
          {isImportable(def) && perm('add') && (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              导入
            </Button>
          )}
          {perm('export') && (
            <ExportButton
              url={`/api/v1/${def.name}/export`}
              params={() => ({ ...filters, ...fixedFilters, ...paged.sort })}
            />
          )}
          {labelType && (
            <Button icon={<TagOutlined />} disabled={!selected.length} onClick={() => setLabels(true)}>
              打印标签{selected.length ? `（${selected.length}）` : ''}
            </Button>
          )}
          {labels && labelType && (
            <Suspense fallback={null}>
              <TemplatePrint
                docType={labelType}
                records={{ ids: selected }}
                onClose={() => setLabels(false)}
              />
            </Suspense>
          )}
          {toolbarExtra}
        </>
      }
      right={
        <>
          {withViews && (
            <ViewPicker listKey={viewKey} current={currentView} activeId={activeView} onApply={applyView} />
          )}
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新列表" />
          </Tooltip>
          <ColumnSettings columns={choices} hidden={hidden} onChange={setHidden} />
        </>
      }
    />
  );

  const table = (
    <Table<ResourceRow>
      rowKey="id"
      className="rk-table"
      rowClassName={rowClassName}
      columns={columns}
      dataSource={list.data?.list ?? []}
      loading={list.isFetching}
      onChange={paged.onChange}
      scroll={narrow ? undefined : { x: scrollX }}
      size={embedded ? 'small' : undefined}
      rowSelection={
        selectable
          ? {
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys.map(Number)),
              // A row is chosen for what the user may do on it: a label, 删除, or a transition from its
              // state that its owner rule leaves him (a colleague's draft offers nothing).
              getCheckboxProps: (row) => ({
                disabled:
                  !labelType &&
                  !mayOn('delete', row) &&
                  !(def.lifecycle?.transitions ?? []).some(
                    (t) => t.from.includes(row.status) && mayOn(transitionAction(t), row),
                  ),
              }),
              columnWidth: 48,
            }
          : undefined
      }
      pagination={paged.pagination(list.data?.total ?? 0, list.data?.totalExact)}
      data-testid={`list-${def.name}`}
    />
  );

  const bulkBar = selectedRows.length > 0 && (
    <Suspense fallback={null}>
      <BulkActions
        def={def}
        rows={selectedRows}
        may={perm}
        onClear={() => setSelected([])}
        onDone={onTransition}
        extra={
          perm('export') && (
            <ExportButton
              label="导出所选"
              size="small"
              url={`/api/v1/${def.name}/export`}
              params={() => ({ ids: selectedRows.map((r) => r.id).join(','), ...paged.sort })}
            />
          )
        }
      />
    </Suspense>
  );

  const search = (
    <ResourceSearchBar
      key={viewValues?.key ?? urlKey}
      def={def}
      initialValues={viewValues?.values ?? fromUrl?.values}
      hidden={hiddenFilters}
      collapsedItems={embedded ? 2 : 3}
      onSearch={(f) => {
        setFilters(f);
        if (!Object.keys(f).length) setActiveView(undefined);
        setSelected([]);
        paged.firstPage();
      }}
    />
  );

  return (
    <>
      {embedded ? (
        <div className="rk-embedded-list">
          {search}
          {toolbar}
          {bulkBar}
          {table}
        </div>
      ) : (
        <>
          <PageCard className="rk-search-card">{search}</PageCard>
          <PageCard>
            {toolbar}
            {bulkBar}
            {table}
          </PageCard>
        </>
      )}
      <ResourceFormDialog
        def={def}
        open={modal.open}
        id={modal.id}
        onClose={() => setModal({ open: false })}
        initialValues={newValues}
        locked={modal.id ? undefined : lockedOnAdd}
        overrides={overrides}
      />
      <ResourceDetailDialog
        def={def}
        id={viewing}
        onClose={() => setViewing(undefined)}
        onEdit={(row) => {
          setViewing(undefined);
          edit(row);
        }}
      />
      {isImportable(def) && (
        <ImportDialog
          def={def}
          open={importing}
          onClose={() => setImporting(false)}
          onImported={() => refresh()}
        />
      )}
    </>
  );
}
