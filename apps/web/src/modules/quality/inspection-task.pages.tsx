import './quality.css';
import {
  ArrowLeftOutlined,
  EditOutlined,
  ExportOutlined,
  SaveOutlined,
  ScheduleOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import {
  inspectionTaskResource as def,
  deviationText,
  type InspectionCategory,
  inspectionCategoryOfPath,
  inspectionPaths,
  LIMIT_SOURCES,
  PART_TYPES,
  patrolScheduleResource,
  sizeStageLabel,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Modal,
  Result,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
} from 'antd';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { useRecordPermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { menuModel } from '../../platform/menu/menu-model.ts';
import { navigateTo } from '../../platform/navigation.ts';
import type { PageProps } from '../../platform/page.ts';
import { LifecycleActions } from '../../platform/resource/lifecycle-actions.tsx';
import { idFromSearch, leavePage, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { useRecord } from '../../platform/resource/resource-detail.tsx';
import { ResourceFormModal } from '../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourceRoutes } from '../../platform/resource/routes.ts';
import { useUser } from '../../platform/session.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { OUTBOUND, typePaths } from '../warehouse/warehouse.api.ts';
import type { TaskSampling } from './sampling-text.ts';
import { SamplingView } from './sampling-view.tsx';

interface TaskItem {
  id: number;
  itemTitle: string;
  kind: 'measure' | 'count';
  /** The nominal the limits rest on: the step's drawing size, or the product's size. */
  nominal: string | null;
  lowerLimit: string | null;
  upperLimit: string | null;
  unit: string | null;
  /** 标准 / 客户加严 / 工序图 / 手工 (计量 items). */
  limitSource: 'standard' | 'override' | 'drawing' | 'typed' | null;
  limitNote: string | null;
  sampleSize: number;
  acceptNumber: number;
  rejectNumber: number;
  /** GB/T 2828.1 items: the table row whose plan is used (after the arrows). */
  codeLetter: string | null;
  entered: number;
  defectCount: number;
  result: 'pass' | 'fail' | null;
}
interface ResultRow {
  taskItemId: number;
  sampleNo: number;
  value: string | null;
  ok: boolean | null;
  conform: boolean;
}
/** What the task's items rest on: the part, the step's size stage and the drawing of its template. */
interface Basis {
  templateId: number | null;
  templateName: string | null;
  sizeStage: string | null;
  partType: string | null;
  drawingNo: string | null;
  document: { id: number; docNo: string; title: string; revisionNo: string | null } | null;
}
interface Judged {
  items: TaskItem[];
  results: ResultRow[];
  verdict: 'pass' | 'fail' | null;
  basis: Basis | null;
  /** The GB/T 2828.1 severity and switching state (absent from a save's answer). */
  sampling?: TaskSampling | null;
}

function categoryOf(path: string): InspectionCategory {
  const c = inspectionCategoryOfPath(path);
  if (!c) throw new Error(`no inspection category for ${path}`);
  return c;
}

/** The pages of a category; process and shipment inspections are added in a dialog over their list. */
function routesOf(c: InspectionCategory): ResourceRoutes & { entry: string } {
  const p = inspectionPaths(c);
  return {
    list: p.list,
    add: c.workshopType ? p.add : undefined,
    detail: p.detail,
    formOnPage: false,
    entry: p.entry,
  };
}

/** The 销售出库 a shipment inspection checks, opened where the user may read it. */
const OUTBOUND_DETAIL = typePaths(OUTBOUND, 'sales').detail;

function useCanVisit() {
  const user = useUser();
  return (path: string) => Boolean(user && menuModel(user).canVisit(path));
}

interface CheckedOutbound {
  docNo: string;
  status: string;
  bizDate: string;
  customerName: string | null;
  warehouseName: string;
  saleOrderNo: string | null;
  lines: {
    lineNo: number;
    materialCode: string;
    materialName: string;
    quantity: string;
    unitName: string | null;
    batchNo: string | null;
  }[];
}

/**
 * 受检出库单: the 销售出库 a shipment inspection checks — customer, store and lines with their
 * batches — read through the task, so the inspector needs no warehouse page.
 */
function CheckedOutboundView({ task }: { task: ResourceRow }) {
  const outbound = useQuery({
    queryKey: ['resource', def.name, 'outbound', task.id],
    queryFn: () => http.get<CheckedOutbound>(`/api/v1/inspection-task/outbound/${task.id}`),
    enabled: Boolean(task.stockOutboundId),
  });
  const o = outbound.data;
  if (!task.stockOutboundId || !o) return null;
  return (
    <div className="qi-outbound" data-testid="checked-outbound">
      <Descriptions size="small" column={4} title="受检销售出库单">
        <Descriptions.Item label="出库单号">{o.docNo}</Descriptions.Item>
        <Descriptions.Item label="客户">{o.customerName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="仓库">{o.warehouseName}</Descriptions.Item>
        <Descriptions.Item label="业务日期">{o.bizDate}</Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="lineNo"
        pagination={false}
        dataSource={o.lines}
        columns={[
          { title: '行', dataIndex: 'lineNo', width: 48 },
          { title: '物料', render: (_, l) => `${l.materialName}（${l.materialCode}）` },
          { title: '数量', align: 'right', render: (_, l) => `${Number(l.quantity)} ${l.unitName ?? ''}` },
          { title: '批次号', dataIndex: 'batchNo', render: (v) => v || '—' },
        ]}
      />
    </div>
  );
}

/** 来源: the source's number, a link to the 销售出库 of a shipment inspection where the user reads it. */
function SourceLink({ task }: { task: ResourceRow }) {
  const canVisit = useCanVisit();
  if (!task.sourceNo) return <>手工</>;
  if (!task.stockOutboundId || !canVisit(OUTBOUND_DETAIL)) return <>{task.sourceNo}</>;
  return (
    <a onClick={() => openResourcePage(OUTBOUND_DETAIL, task.stockOutboundId)} data-testid="source-outbound">
      {task.sourceNo}
    </a>
  );
}

const ACTIVE = ['pending', 'inspecting'];

/**
 * A category's tasks: search, paging, export; 录入结果, 认领 and 指派 on tasks still open.
 * 「我的待检」 (also `?mine=1`, where 质检员 lands) shows the open tasks assigned to the user.
 */
export function InspectionTaskListPage({ path }: PageProps) {
  const c = categoryOf(path);
  const routes = routesOf(c);
  const may = useRecordPermission(def);
  const user = useUser();
  const client = useQueryClient();
  const [search] = useSearchParams();
  const [mine, setMine] = useState(search.get('mine') === '1');
  const [assigning, setAssigning] = useState<ResourceRow | undefined>();
  const refresh = () => client.invalidateQueries({ queryKey: ['resource', def.name] });
  const planPatrols = async () => {
    const r = await http.post<{ ids: number[] }>('/api/v1/inspection-task/patrol-plan', {});
    toast.success(r.ids.length ? `已生成 ${r.ids.length} 张巡检单` : '今天的巡检单都已生成');
    refresh();
  };
  const claim = async (row: ResourceRow) => {
    await http.post(`/api/v1/inspection-task/claim/${row.id}`, {});
    toast.success(`已认领检验单 ${row.docNo}`);
    refresh();
  };
  const list = (
    <ResourceListPage
      key={mine ? 'mine' : 'all'}
      path={path}
      def={def}
      routes={routes}
      fixedFilters={{ category: c.value, ...(mine && user ? { assigneeId: user.userId } : {}) }}
      hiddenFilters={['category']}
      newValues={{ category: c.value }}
      lockedOnAdd={['category']}
      onAdd={routes.add ? () => navigateTo(routes.add as string) : undefined}
      rowActionsWidth={260}
      rowActions={(row) =>
        ACTIVE.includes(row.status) && may('inspect', c.value) ? (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => openResourcePage(routes.entry, row.id)}
            >
              录入结果
            </Button>
            {row.assigneeId == null && (
              <Button type="link" size="small" icon={<UserAddOutlined />} onClick={() => claim(row)}>
                认领
              </Button>
            )}
            <Button type="link" size="small" onClick={() => setAssigning(row)}>
              指派
            </Button>
          </Space>
        ) : null
      }
      toolbarExtra={
        <Space>
          <Button type={mine ? 'primary' : 'default'} onClick={() => setMine(!mine)}>
            {mine ? '显示全部' : '我的待检'}
          </Button>
          {c.kind === 'process' && may('add', c.value) && (
            <Button icon={<ScheduleOutlined />} onClick={planPatrols}>
              生成今日巡检
            </Button>
          )}
        </Space>
      }
    />
  );
  const assignModal = (
    <AssignModal
      task={assigning}
      onClose={() => setAssigning(undefined)}
      onDone={() => {
        setAssigning(undefined);
        refresh();
      }}
    />
  );
  if (c.kind !== 'process')
    return (
      <>
        {list}
        {assignModal}
      </>
    );
  // 过程检验: the patrol schedules on a second tab.
  const runSchedules = async () => {
    const r = await http.post<{ ids: number[] }>('/api/v1/patrol-schedule/run', {});
    toast.success(r.ids.length ? `已按计划生成 ${r.ids.length} 张巡检单` : '本时段的巡检单都已生成');
    refresh();
  };
  return (
    <>
      <Tabs
        className="rk-list-page"
        items={[
          { key: 'tasks', label: '过程检验', children: list },
          {
            key: 'schedules',
            label: '巡检计划',
            children: (
              <ResourceListPage
                path={path}
                def={patrolScheduleResource}
                routes={{ list: path, formOnPage: false }}
                toolbarExtra={
                  may('add', c.value) ? (
                    <Button icon={<ScheduleOutlined />} onClick={runSchedules}>
                      按计划生成巡检
                    </Button>
                  ) : undefined
                }
              />
            ),
          },
        ]}
      />
      {assignModal}
    </>
  );
}

/** 指派: gives an open task to an inspector (empty: back to the pool). */
function AssignModal({
  task,
  onClose,
  onDone,
}: {
  task: ResourceRow | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const [assigneeId, setAssigneeId] = useState<number | null>(null);
  useEffect(() => setAssigneeId(task?.assigneeId ?? null), [task]);
  const field = def.fields.find((x) => x.name === 'assigneeId');
  if (!field) return null;
  return (
    <Modal
      open={Boolean(task)}
      title={`指派检验单 ${task?.docNo ?? ''}`}
      okText="指派"
      onCancel={onClose}
      destroyOnHidden
      onOk={async () => {
        await http.post(`/api/v1/inspection-task/assign/${task?.id}`, { assigneeId });
        toast.success(assigneeId ? '已指派' : '已取消指派');
        onDone();
      }}
    >
      <RefSelect
        field={field}
        value={assigneeId ?? undefined}
        onChange={(v) => setAssigneeId((v as number | undefined) ?? null)}
        style={{ width: '100%' }}
        placeholder="选择检验员（留空为取消指派）"
      />
    </Modal>
  );
}

/** 新增检验单: the add form over the category's list. */
export function InspectionTaskAddPage({ path }: PageProps) {
  const c = categoryOf(path);
  const [open, setOpen] = useState(true);
  const back = () => leavePage(path, c.path);
  return (
    <>
      <InspectionTaskListPage path={c.path} />
      <ResourceFormModal
        def={def}
        open={open}
        initialValues={{ category: c.value }}
        locked={['category']}
        onClose={() => {
          setOpen(false);
          back();
        }}
        onSaved={(row) => {
          setOpen(false);
          leavePage(path, `${inspectionPaths(c).entry}?id=${row.id}`);
        }}
      />
    </>
  );
}

function useResults(id: number | undefined) {
  return useQuery({
    queryKey: ['resource', def.name, 'results', id],
    queryFn: () => http.get<Judged>(`/api/v1/inspection-task/results/${id}`),
    enabled: Boolean(id),
  });
}

/** A 计量 item's limits with their unit: 「19.992 ~ 20 mm」, 「≤ 8 μm」. */
function limitText(i: TaskItem): string {
  if (i.kind === 'count') return 'OK / NG';
  const n = (v: string | null) => (v == null ? null : String(Number(v)));
  const [lo, hi] = [n(i.lowerLimit), n(i.upperLimit)];
  const unit = i.unit ? ` ${i.unit}` : '';
  if (lo == null && hi == null) return '—';
  if (lo == null) return `≤ ${hi}${unit}`;
  if (hi == null) return `≥ ${lo}${unit}`;
  return `${lo} ~ ${hi}${unit}`;
}

/**
 * The size a 计量 item's limits rest on, as a drawing writes it: 「52.4 ±0.05」, 「25 0/-0.008」;
 * null for maxima (Ra, roundness: nominal 0) and items without a nominal.
 */
function nominalText(i: TaskItem): string | null {
  if (i.kind === 'count' || i.nominal == null || Number(i.nominal) === 0) return null;
  const n = Number(i.nominal);
  const dev = (v: string | null) => (v == null ? null : Number((Number(v) - n).toFixed(4)));
  const [lo, hi] = [dev(i.lowerLimit), dev(i.upperLimit)];
  if (hi == null) return `${n}`;
  return `${n} ${deviationText(hi, lo)}`;
}

/** The drawing and stage the items come from: 「车削尺寸（含磨量） · 依据 JS… 6205 外圈 P6 零件图 A 版」. */
function BasisView({ basis }: { basis: Basis | null | undefined }) {
  if (!basis?.templateId) return null;
  const stage = sizeStageLabel(basis.sizeStage);
  const part = PART_TYPES.find((p) => p.value === basis.partType)?.label;
  const doc = basis.document
    ? `${basis.document.docNo} ${basis.document.title}${basis.document.revisionNo ? ` ${basis.document.revisionNo} 版` : ''}`
    : basis.drawingNo
      ? `图号 ${basis.drawingNo}`
      : null;
  return (
    <Descriptions size="small" column={4} className="qi-head" data-testid="inspection-basis">
      <Descriptions.Item label="检验模板">{basis.templateName}</Descriptions.Item>
      {part && <Descriptions.Item label="零件">{part}</Descriptions.Item>}
      <Descriptions.Item label="尺寸阶段">{stage ?? '成品尺寸'}</Descriptions.Item>
      {doc && <Descriptions.Item label="依据图纸">{doc}</Descriptions.Item>}
    </Descriptions>
  );
}

/** Where the limits came from (标准 / 客户加严 / 工序图 / 手工), the basis in its tooltip. */
function LimitSourceTag({ item }: { item: TaskItem }) {
  const s = LIMIT_SOURCES.find((x) => x.value === item.limitSource);
  if (!s) return null;
  const tag = (
    <Tag className="qi-source" color={s.color} data-testid="limit-source">
      {s.label}
    </Tag>
  );
  return item.limitNote ? <Tooltip title={item.limitNote}>{tag}</Tooltip> : tag;
}

const VERDICT: Record<string, { color: string; label: string }> = {
  pass: { color: 'green', label: '合格' },
  fail: { color: 'red', label: '不合格' },
};

/** The items with their limits, sampling and judgement; each sample's values below. */
function ResultsView({ record }: { record: ResourceRow }) {
  const results = useResults(record.id);
  const may = useRecordPermission(def);
  const data = results.data;
  if (!data) return <Skeleton active />;
  if (!data.items.length) return <Empty description="该检验单没有检验项目（无匹配模板），由检验员直接判定" />;
  const max = Math.max(...data.items.map((i) => i.sampleSize));
  const cell = (item: TaskItem, n: number) =>
    data.results.find((r) => r.taskItemId === item.id && r.sampleNo === n);
  return (
    <>
      <BasisView basis={data.basis} />
      <SamplingView
        sampling={data.sampling}
        taskId={record.id}
        canResume={may('inspect', record.category)}
        onResumed={() => results.refetch()}
      />
      <Table<TaskItem>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={data.items}
        columns={[
          { title: '检验项目', dataIndex: 'itemTitle', fixed: 'left', width: 120 },
          {
            title: '规格',
            width: 200,
            render: (_, i) => (
              <>
                {nominalText(i) && <div>{nominalText(i)}</div>}
                {limitText(i)}
                <LimitSourceTag item={i} />
              </>
            ),
          },
          {
            title: 'n / Ac / Re',
            width: 120,
            render: (_, i) => (
              <>
                {`${i.sampleSize} / ${i.acceptNumber} / ${i.rejectNumber}`}
                {i.codeLetter && <div className="qi-sub">{`字码 ${i.codeLetter}`}</div>}
              </>
            ),
          },
          {
            title: '判定',
            width: 90,
            render: (_, i) =>
              i.result ? (
                <Tag color={VERDICT[i.result].color}>
                  {VERDICT[i.result].label}
                  {i.defectCount ? ` ${i.defectCount}` : ''}
                </Tag>
              ) : (
                `${i.entered}/${i.sampleSize}`
              ),
          },
          ...Array.from({ length: max }, (_, k) => ({
            title: `样本${k + 1}`,
            width: 84,
            render: (_: unknown, i: TaskItem) => {
              const r = cell(i, k + 1);
              if (!r) return null;
              const text = i.kind === 'count' ? (r.ok ? 'OK' : 'NG') : r.value;
              return <span className={r.conform ? '' : 'qi-bad-text'}>{text}</span>;
            },
          })),
        ]}
      />
    </>
  );
}

/** 检验单详情 / 查看: the record, its items and values, the lifecycle buttons and 录入结果. */
export function InspectionTaskDetailPage({ path }: PageProps) {
  const c = categoryOf(path);
  const routes = routesOf(c);
  const may = useRecordPermission(def);
  const canVisit = useCanVisit();
  return (
    <ResourceDetailPage
      path={path}
      def={def}
      routes={routes}
      actions={(row) => (
        <>
          {row.stockOutboundId && canVisit(OUTBOUND_DETAIL) && (
            <Button
              icon={<ExportOutlined />}
              onClick={() => openResourcePage(OUTBOUND_DETAIL, row.stockOutboundId)}
            >
              查看销售出库
            </Button>
          )}
          {ACTIVE.includes(row.status) && may('inspect', row.category) && (
            <Button
              icon={<EditOutlined />}
              onClick={() => openResourcePage(inspectionPaths(c).entry, row.id)}
            >
              录入结果
            </Button>
          )}
        </>
      )}
      sections={(row) => (
        <>
          <CheckedOutboundView task={row} />
          <ResultsView record={row} />
        </>
      )}
    />
  );
}

// ------------------------------------------------------------------ the entry grid

type Cells = Record<string, string | boolean | null>;
const key = (itemId: number, sampleNo: number) => `${itemId}:${sampleNo}`;

function outOfLimit(item: TaskItem, raw: string): boolean | null {
  const v = raw.trim();
  if (!v) return null;
  if (!/^-?\d+(\.\d+)?$/.test(v)) return true;
  const x = Number(v);
  if (item.lowerLimit != null && x < Number(item.lowerLimit)) return true;
  if (item.upperLimit != null && x > Number(item.upperLimit)) return true;
  return false;
}

/**
 * 结果录入: one row per sample, one column per item. Keyboard only: Enter moves down (at the last
 * sample to the next item's first), Shift+Enter up; a measured value out of its limits turns red
 * as it is typed; an OK/NG cell toggles with Space (or O / N). 保存 (Ctrl+S) judges on the server.
 */
export function InspectionEntryPage({ path }: PageProps) {
  const c = categoryOf(path);
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const record = useRecord(def, id);
  const results = useResults(id);
  const client = useQueryClient();
  const may = useRecordPermission(def);
  const [cells, setCells] = useState<Cells>({});
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const refs = useRef(new Map<string, HTMLElement | null>());
  const items = results.data?.items ?? [];
  const rows = useMemo(() => Math.max(0, ...items.map((i) => i.sampleSize)), [items]);

  useEffect(() => {
    if (!results.data) return;
    const next: Cells = {};
    for (const r of results.data.results)
      next[key(r.taskItemId, r.sampleNo)] = r.value ?? (r.ok === null ? null : r.ok);
    setCells(next);
    setDirty(false);
  }, [results.data]);

  if (!id || record.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title="检验单不存在或已被删除"
          extra={<Button onClick={() => navigateTo(c.path)}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const task = record.data;
  if (!task || !results.data)
    return (
      <PageCard>
        <Skeleton active paragraph={{ rows: 8 }} />
      </PageCard>
    );
  const open = ACTIVE.includes(task.status) && may('inspect', task.category);

  const focus = (col: number, row: number) => {
    const item = items[col];
    if (!item) return;
    refs.current.get(key(item.id, Math.min(row, item.sampleSize)))?.focus();
  };
  const move = (col: number, row: number, e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (e.shiftKey) return focus(col, Math.max(1, row - 1));
      if (row < items[col].sampleSize) return focus(col, row + 1);
      return focus(col + 1, 1);
    }
    if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void save();
    }
  };
  const set = (itemId: number, n: number, v: string | boolean | null) => {
    setCells((x) => ({ ...x, [key(itemId, n)]: v }));
    setDirty(true);
  };
  const save = async () => {
    setSaving(true);
    try {
      const body = items.flatMap((i) =>
        Array.from({ length: i.sampleSize }, (_, k) => {
          const v = cells[key(i.id, k + 1)];
          return i.kind === 'count'
            ? { taskItemId: i.id, sampleNo: k + 1, ok: typeof v === 'boolean' ? v : null }
            : {
                taskItemId: i.id,
                sampleNo: k + 1,
                value: typeof v === 'string' && v.trim() ? v.trim() : null,
              };
        }),
      );
      const judged = await http.put<Judged>(`/api/v1/inspection-task/results/${id}`, { results: body });
      // A save answers the judgement without the sampling state: keep the one shown.
      client.setQueryData<Judged>(['resource', def.name, 'results', id], (old) => ({ ...old, ...judged }));
      client.invalidateQueries({ queryKey: ['resource', def.name] });
      toast.success(judged.verdict ? `已保存，自动判定：${VERDICT[judged.verdict].label}` : '已保存');
    } finally {
      setSaving(false);
    }
  };

  const verdict = results.data.verdict;
  return (
    <PageCard
      title={
        <span className="rk-page-title">
          结果录入 {task.docNo}
          {verdict && !dirty && <Tag color={VERDICT[verdict].color}>自动判定：{VERDICT[verdict].label}</Tag>}
        </span>
      }
      extra={
        <Space>
          {open && (
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save} disabled={!dirty}>
              保存
            </Button>
          )}
          {!dirty && <LifecycleActions def={def} record={task} />}
          <Button icon={<ArrowLeftOutlined />} onClick={() => leavePage(path, c.path)}>
            返回
          </Button>
        </Space>
      }
    >
      <Descriptions size="small" column={4} className="qi-head">
        <Descriptions.Item label="产品">{task.productName}</Descriptions.Item>
        <Descriptions.Item label="工序">{task.processName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="批量">{Number(task.lotQuantity)}</Descriptions.Item>
        <Descriptions.Item label="来源">
          <SourceLink task={task} />
        </Descriptions.Item>
      </Descriptions>
      <BasisView basis={results.data.basis} />
      <SamplingView
        sampling={results.data.sampling}
        taskId={Number(id)}
        canResume={may('inspect', task.category)}
        onResumed={() => results.refetch()}
      />
      <CheckedOutboundView task={task} />
      {!open && (
        <Alert type="info" showIcon message="检验单已判定或没有检验权限，结果只读" className="qi-note" />
      )}
      {dirty && (
        <Alert type="warning" showIcon message="有未保存的结果：保存（Ctrl+S）后再判定" className="qi-note" />
      )}
      {!items.length ? (
        <Empty description="该检验单没有检验项目（无匹配模板），由检验员直接判定" />
      ) : (
        <div className="qi-grid-wrap">
          <table className="qi-grid" data-testid="entry-grid">
            <thead>
              <tr>
                <th>样本</th>
                {items.map((i) => (
                  <th key={i.id}>
                    <div>{i.itemTitle}</div>
                    {nominalText(i) && <div className="qi-limit">{nominalText(i)}</div>}
                    <div className="qi-limit">
                      {limitText(i)}
                      <LimitSourceTag item={i} />
                    </div>
                    <div className="qi-limit">
                      {`n=${i.sampleSize} Ac=${i.acceptNumber}${i.codeLetter ? ` 字码 ${i.codeLetter}` : ''}`}
                    </div>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: rows }, (_, r) => r + 1).map((n) => (
                <tr key={n}>
                  <td className="qi-no">{n}</td>
                  {items.map((i, col) => {
                    if (n > i.sampleSize) return <td key={i.id} className="qi-na" />;
                    const k = key(i.id, n);
                    const v = cells[k];
                    if (i.kind === 'count') {
                      const state = typeof v === 'boolean' ? v : null;
                      return (
                        <td key={i.id}>
                          <button
                            type="button"
                            ref={(el) => {
                              refs.current.set(k, el);
                            }}
                            disabled={!open}
                            data-testid={`cell-${col}-${n}`}
                            className={`qi-toggle ${state === true ? 'qi-ok' : state === false ? 'qi-bad' : ''}`}
                            onClick={() => set(i.id, n, state !== true)}
                            onKeyDown={(e) => {
                              const ch = e.key.toLowerCase();
                              if (ch === ' ' || ch === 'o' || ch === 'n') {
                                e.preventDefault();
                                set(i.id, n, ch === ' ' ? state !== true : ch === 'o');
                                return;
                              }
                              move(col, n, e);
                            }}
                          >
                            {state === true ? 'OK' : state === false ? 'NG' : '—'}
                          </button>
                        </td>
                      );
                    }
                    const text = typeof v === 'string' ? v : '';
                    const bad = outOfLimit(i, text);
                    return (
                      <td key={i.id}>
                        <input
                          ref={(el) => {
                            refs.current.set(k, el);
                          }}
                          disabled={!open}
                          inputMode="decimal"
                          data-testid={`cell-${col}-${n}`}
                          aria-label={`${i.itemTitle} 样本${n}`}
                          className={`qi-input ${bad === true ? 'qi-bad' : bad === false ? 'qi-ok' : ''}`}
                          value={text}
                          onChange={(e) => set(i.id, n, e.target.value)}
                          onKeyDown={(e) => move(col, n, e)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
              <tr className="qi-sum">
                <td>判定</td>
                {items.map((i) => (
                  <td key={i.id}>
                    {i.result ? (
                      <Tag color={VERDICT[i.result].color}>
                        {VERDICT[i.result].label}
                        {i.defectCount ? `（不合格 ${i.defectCount}）` : ''}
                      </Tag>
                    ) : (
                      `${i.entered}/${i.sampleSize}`
                    )}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </PageCard>
  );
}
