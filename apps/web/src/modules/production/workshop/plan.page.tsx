import {
  DownloadOutlined,
  LeftOutlined,
  LockOutlined,
  ReloadOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import {
  EQUIPMENT_STATUS_OPTIONS,
  SHIFT_OPTIONS,
  WORK_DISPATCH_LIFECYCLE,
  type WorkshopKind,
} from '@ringmes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Modal,
  Segmented,
  Select,
  Space,
  Spin,
  Tag,
  Tooltip,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import {
  type DragEndEvent,
  groupItemsToSubrows,
  type ItemDefinition,
  TimelineContext,
  useItem,
  useRow,
  useTimelineContext,
} from 'dnd-timeline';
import { type ReactNode, useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { download } from '../../../platform/api/download.ts';
import { isApiError } from '../../../platform/api/errors.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import type { PageProps } from '../../../platform/page.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import {
  AutoScheduleButton,
  type AutoScheduleState,
  type ProposalBar,
  ProposalNotice,
  useAutoSchedule,
} from './auto-schedule.tsx';
import { kindOf, type Row, screenPermission } from './workshop.api.ts';
import './workshop.css';
import './plan.css';

/**
 * 排产计划 of a workshop: a timeline (dnd-timeline, headless, on @dnd-kit) with a row per machine
 * or operator and a column per day and shift. The axis counts shift slots (slot 2d is day d's 白班,
 * 2d + 1 its 夜班); dispatched work is a bar in its slot, each cell shows its load against the
 * shift's minutes, overloaded cells in red. Dragging a 已派工 bar to another row or slot 改派 it.
 * While a 自动排产 proposal is open its steps are dashed bars (by machine): dragging one pins it to
 * that machine and shift and runs again; a click locks or unlocks it (auto-schedule.tsx).
 */

type By = 'equipment' | 'operator';

interface Cell {
  rowId: number | null;
  workDate: string;
  shift: string;
  minutes: string;
  capacity: number;
  overloaded: boolean;
}
interface Plan {
  by: By;
  from: string;
  to: string;
  shiftMinutes: number;
  rows: Row[];
  bars: Row[];
  capacity: Cell[];
}
interface Moved {
  id: number;
  version: number;
  warnings: string[];
}

const PLAN_URL = '/api/v1/work-dispatch/plan';
const SHIFTS = SHIFT_OPTIONS.map((o) => o.value);
const SHIFT_LABEL = new Map(SHIFT_OPTIONS.map((o) => [o.value, o.label]));
const STATE = new Map(WORK_DISPATCH_LIFECYCLE.states.map((s) => [s.value, s]));
const EQUIPMENT_STATE = new Map(EQUIPMENT_STATUS_OPTIONS.map((s) => [s.value, s]));
const NO_ROW = 'none';
const SIDEBAR = 180;
const MIN_SLOT_PX = 64;
const SUBROW_PX = 46;
/** The UI shows up to a month at once (the API allows 62 days). */
const MAX_DAYS = 31;

const rowKey = (id: unknown) => (id == null ? NO_ROW : String(id));
const slotOf = (from: string, workDate: string, shift: string) =>
  dayjs(workDate).diff(dayjs(from), 'day') * SHIFTS.length + Math.max(SHIFTS.indexOf(shift), 0);
const minutes = (v: unknown) => Number(v ?? 0).toLocaleString('zh-CN', { maximumFractionDigits: 2 });

const planApi = {
  read: (k: WorkshopKind, from: string, to: string, by: By) =>
    http.get<Plan>(PLAN_URL, { workshopType: k.type, from, to, by }),
  move: (id: number, body: Record<string, unknown>) =>
    http.put<Moved>(`${PLAN_URL}/${id}`, body, { silent: true }),
  export: (k: WorkshopKind, from: string, to: string, by: By) =>
    http.get<{ fileName: string }>(`${PLAN_URL}/export`, { workshopType: k.type, from, to, by }),
};

export function WorkshopPlanPage({ path }: PageProps) {
  const kind = kindOf(path);
  const can = usePermission();
  const mayEdit = can(screenPermission(kind, 'Plan', 'edit'));
  const mayExport = can(screenPermission(kind, 'Plan', 'export'));
  const [by, setBy] = useState<By>('equipment');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(1, 'day').startOf('day'),
    dayjs().add(5, 'day').startOf('day'),
  ]);
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const plan = useQuery({
    queryKey: ['resource', 'work-dispatch', 'plan', kind.type, from, to, by],
    queryFn: () => planApi.read(kind, from, to, by),
    placeholderData: keepPreviousData,
  });
  const [warnings, setWarnings] = useState<string[]>([]);
  const [opened, setOpened] = useState<Row>();
  const auto = useAutoSchedule();
  const [saving, setSaving] = useState(false);

  const move = async (bar: Row, target: { rowId: string; workDate: string; shift: string }) => {
    const body: Record<string, unknown> = {
      workDate: target.workDate,
      shift: target.shift,
      version: bar.version,
    };
    const current = by === 'equipment' ? bar.equipmentId : bar.operatorId;
    if (target.rowId !== rowKey(current)) {
      if (by === 'equipment') body.equipmentId = target.rowId === NO_ROW ? null : Number(target.rowId);
      else body.operatorId = Number(target.rowId);
    }
    setSaving(true);
    try {
      const r = await planApi.move(bar.id, body);
      setWarnings(r.warnings);
      if (r.warnings.length) toast.warning(`已改派 ${bar.docNo}，但${r.warnings[0]}`);
      else toast.success(`已改派 ${bar.docNo}`);
      return true;
    } catch (e) {
      if (isApiError(e)) toast.error(e.message);
      else throw e;
      return false;
    } finally {
      setSaving(false);
      await plan.refetch();
    }
  };

  const shiftRange = (days: number) => setRange(([a, b]) => [a.add(days, 'day'), b.add(days, 'day')]);
  const span = range[1].diff(range[0], 'day') + 1;

  return (
    <PageCard
      className="ws-plan-page"
      title={`${kind.label}排产计划`}
      extra={
        <Space wrap>
          <Segmented<By>
            value={by}
            onChange={setBy}
            options={[
              { value: 'equipment', label: '按设备' },
              { value: 'operator', label: '按操作工' },
            ]}
          />
          <Button icon={<LeftOutlined />} aria-label="上一段" onClick={() => shiftRange(-span)} />
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            onChange={(v) => {
              if (!v?.[0] || !v[1]) return;
              if (v[1].diff(v[0], 'day') + 1 > MAX_DAYS) {
                toast.warning(`一次最多显示 ${MAX_DAYS} 天`);
                return;
              }
              setRange([v[0].startOf('day'), v[1].startOf('day')]);
            }}
          />
          <Button icon={<RightOutlined />} aria-label="下一段" onClick={() => shiftRange(span)} />
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新排产计划" onClick={() => plan.refetch()} />
          </Tooltip>
          <AutoScheduleButton
            kind={kind}
            state={auto}
            mayPublish={mayEdit}
            onPublished={() => plan.refetch()}
          />
          {mayExport && (
            <Button
              icon={<DownloadOutlined />}
              onClick={async () => {
                const { fileName } = await planApi.export(kind, from, to, by);
                await download('/common/download', { fileName, delete: 'true' });
              }}
            >
              导出
            </Button>
          )}
        </Space>
      }
    >
      <div className="ws-plan-legend ws-muted">
        每个单元格为一个班次（{plan.data?.shiftMinutes ?? 480} 分钟），显示计划工时负荷（标准工时 ×
        派工数量）；
        <span className="ws-plan-swatch ws-plan-over" /> 超负荷。
        {mayEdit ? '拖动「已派工」的派工单到其他行、日期或班次即可改派；点击派工单查看详情。' : ''}
      </div>
      <ProposalNotice state={auto} kind={kind} mayPublish={mayEdit} onPublished={() => plan.refetch()} />
      {warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setWarnings([])}
          message="改派后超负荷"
          description={warnings.join('；')}
          style={{ marginBottom: 8 }}
          data-testid="plan-warnings"
        />
      )}
      <Spin spinning={plan.isFetching || saving || auto.run.isPending}>
        {plan.data ? (
          <PlanTimeline
            plan={plan.data}
            from={from}
            days={span}
            mayEdit={mayEdit}
            onMove={move}
            onOpen={setOpened}
            proposal={
              by === 'equipment'
                ? (auto.result?.bars ?? []).filter(
                    (b) => b.kind === 'machine' && b.workshopType === kind.type,
                  )
                : []
            }
            auto={auto}
          />
        ) : (
          <div style={{ minHeight: 240 }} />
        )}
      </Spin>
      {opened && plan.data && (
        <BarModal
          bar={opened}
          plan={plan.data}
          mayEdit={mayEdit}
          onClose={() => setOpened(undefined)}
          onMove={async (target) => {
            if (await move(opened, target)) setOpened(undefined);
          }}
        />
      )}
    </PageCard>
  );
}

interface TimelineProps {
  plan: Plan;
  from: string;
  days: number;
  mayEdit: boolean;
  onMove: (bar: Row, target: { rowId: string; workDate: string; shift: string }) => void;
  onOpen: (bar: Row) => void;
  /** The open proposal's steps on this workshop's machines. */
  proposal: ProposalBar[];
  auto: AutoScheduleState;
}

const PROPOSED = 'p:';

function PlanTimeline({ plan, from, days, mayEdit, onMove, onOpen, proposal, auto }: TimelineProps) {
  const slots = days * SHIFTS.length;
  const timeRange = useMemo(() => ({ start: 0, end: slots }), [slots]);
  // A click opens the bar; a drag starts after the pointer has moved a few pixels.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const byId = useMemo(() => new Map(plan.bars.map((b) => [String(b.id), b])), [plan.bars]);
  const proposed = useMemo(() => new Map(proposal.map((b) => [PROPOSED + b.key, b])), [proposal]);
  const key = plan.by === 'equipment' ? 'equipmentId' : 'operatorId';
  const items = useMemo<ItemDefinition[]>(
    () => [
      ...plan.bars.map((b) => {
        const slot = slotOf(from, b.workDate, b.shift);
        return {
          id: String(b.id),
          rowId: rowKey(b[key]),
          span: { start: slot, end: slot + 1 },
          disabled: !mayEdit || b.status !== 'dispatched',
        };
      }),
      // The proposal's steps from the shift they start in to the one they end in, inside the view.
      ...proposal.flatMap((b) => {
        if (!b.workDate || !b.shift) return [];
        const first = slotOf(from, b.workDate, b.shift);
        const last = slotOf(from, b.lastWorkDate ?? b.workDate, b.lastShift ?? b.shift);
        const start = Math.max(first, 0);
        const end = Math.min(last + 1, slots);
        if (end <= start) return [];
        return [
          { id: PROPOSED + b.key, rowId: rowKey(b.equipmentId), span: { start, end }, disabled: !mayEdit },
        ];
      }),
    ],
    [plan.bars, proposal, from, key, mayEdit, slots],
  );
  const subrows = useMemo(() => groupItemsToSubrows(items, timeRange), [items, timeRange]);
  const load = useMemo(() => {
    const m = new Map<string, Cell>();
    for (const c of plan.capacity) m.set(`${rowKey(c.rowId)}|${slotOf(from, c.workDate, c.shift)}`, c);
    return m;
  }, [plan.capacity, from]);

  const onDragEnd = (event: DragEndEvent) => {
    const rowId = event.over?.id;
    const span = event.active.data.current.getSpanFromDragEvent?.(event);
    if (rowId == null || !span) return;
    const slot = Math.min(Math.max(Math.round(span.start), 0), slots - 1);
    const workDate = dayjs(from)
      .add(Math.floor(slot / SHIFTS.length), 'day')
      .format('YYYY-MM-DD');
    const shift = SHIFTS[slot % SHIFTS.length];
    const step = proposed.get(String(event.active.id));
    if (step) {
      // A proposal step dropped on a machine and shift: locked there, and the rest planned again.
      if (String(rowId) === NO_ROW) return;
      if (String(rowId) === rowKey(step.equipmentId) && workDate === step.workDate && shift === step.shift)
        return;
      auto.pin(step, { equipmentId: Number(rowId), workDate, shift: shift! });
      return;
    }
    const bar = byId.get(String(event.active.id));
    if (!bar) return;
    if (String(rowId) === rowKey(bar[key]) && workDate === bar.workDate && shift === bar.shift) return;
    if (plan.by === 'operator' && String(rowId) === NO_ROW) return;
    onMove(bar, { rowId: String(rowId), workDate, shift });
  };

  if (!plan.rows.length) {
    return (
      <Empty
        description={
          plan.by === 'equipment' ? '本车间还没有设备，请在设备台账中添加' : '本车间班组还没有成员'
        }
      />
    );
  }
  return (
    <div className="ws-plan-scroll">
      <TimelineContext
        range={timeRange}
        onRangeChanged={() => {}}
        onDragEnd={onDragEnd}
        onResizeEnd={() => {}}
        sidebarWidth={SIDEBAR}
        rangeGridSizeDefinition={1}
        sensors={sensors}
      >
        <TimelineBody minWidth={SIDEBAR + slots * MIN_SLOT_PX}>
          <PlanHeader from={from} days={days} />
          {plan.rows.map((r) => {
            const id = rowKey(r.id);
            return (
              <PlanRow key={id} id={id} sidebar={<RowLabel row={r} by={plan.by} />} disabled={!mayEdit}>
                <div className="ws-plan-cells" aria-hidden>
                  {Array.from({ length: slots }, (_, slot) => {
                    const c = load.get(`${id}|${slot}`);
                    return (
                      <div
                        // biome-ignore lint/suspicious/noArrayIndexKey: the slot is the cell
                        key={slot}
                        className={`ws-plan-cell${slot % SHIFTS.length ? ' ws-plan-night' : ''}${c?.overloaded ? ' ws-plan-over' : ''}`}
                        data-testid={c ? `plan-load-${id}-${slot}` : undefined}
                        title={c ? `负荷 ${minutes(c.minutes)} / ${c.capacity} 分钟` : undefined}
                      >
                        {c && (
                          <span className="ws-plan-load">
                            {minutes(c.minutes)}/{c.capacity}
                          </span>
                        )}
                      </div>
                    );
                  })}
                </div>
                <div className="ws-plan-lane">
                  {(subrows[id] ?? [[]]).map((sub, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: stacked lanes have no identity
                    <div key={i} className="ws-plan-subrow" style={{ height: SUBROW_PX }}>
                      {sub.map((item) => {
                        const step = proposed.get(item.id);
                        if (step)
                          return (
                            <ProposedBar
                              key={item.id}
                              item={item}
                              step={step}
                              locked={auto.pins.has(step.key)}
                              onToggle={() => mayEdit && auto.toggleLock(step)}
                            />
                          );
                        const bar = byId.get(item.id) as Row;
                        return <PlanBar key={item.id} item={item} bar={bar} onOpen={() => onOpen(bar)} />;
                      })}
                    </div>
                  ))}
                </div>
              </PlanRow>
            );
          })}
        </TimelineBody>
      </TimelineContext>
    </div>
  );
}

function TimelineBody({ children, minWidth }: { children: ReactNode; minWidth: number }) {
  const { setTimelineRef, style } = useTimelineContext();
  return (
    <div ref={setTimelineRef} style={{ ...style, minWidth }} className="ws-plan" data-testid="plan-timeline">
      {children}
    </div>
  );
}

function PlanHeader({ from, days }: { from: string; days: number }) {
  const today = dayjs().format('YYYY-MM-DD');
  return (
    <div className="ws-plan-head">
      <div style={{ width: SIDEBAR }} className="ws-plan-corner">
        设备 / 操作工
      </div>
      {Array.from({ length: days }, (_, d) => {
        const date = dayjs(from).add(d, 'day');
        const ymd = date.format('YYYY-MM-DD');
        return (
          <div key={ymd} className={`ws-plan-day${ymd === today ? ' ws-plan-today' : ''}`}>
            <div>
              {date.format('MM-DD')} 周{'日一二三四五六'[date.day()]}
            </div>
            <div className="ws-plan-shifts">
              {SHIFT_OPTIONS.map((s) => (
                <span key={s.value}>{s.label}</span>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function PlanRow({
  id,
  sidebar,
  disabled,
  children,
}: {
  id: string;
  sidebar: ReactNode;
  disabled: boolean;
  children: ReactNode;
}) {
  const { setNodeRef, rowWrapperStyle, rowStyle, rowSidebarStyle, isOver } = useRow({ id, disabled });
  return (
    <div
      style={rowWrapperStyle}
      className={`ws-plan-row${isOver ? ' ws-plan-row-over' : ''}`}
      data-testid={`plan-row-${id}`}
    >
      <div style={rowSidebarStyle} className="ws-plan-side">
        {sidebar}
      </div>
      <div ref={setNodeRef} style={rowStyle}>
        {children}
      </div>
    </div>
  );
}

function RowLabel({ row, by }: { row: Row; by: By }) {
  const state = by === 'equipment' ? EQUIPMENT_STATE.get(row.status) : undefined;
  return (
    <div className="ws-plan-label">
      <b>{row.name}</b>
      <span className="ws-muted">
        {row.code} {by === 'operator' ? (row.teamNames ?? '') : (row.model ?? '')}
      </span>
      {state && state.value !== 'running' && <Tag color={state.color}>{state.label}</Tag>}
      {by === 'equipment' && row.faultState === 'fault' && (
        <Tag color="red" data-testid="plan-fault">
          故障
        </Tag>
      )}
    </div>
  );
}

function PlanBar({ item, bar, onOpen }: { item: ItemDefinition; bar: Row; onOpen: () => void }) {
  const { setNodeRef, attributes, listeners, itemStyle, itemContentStyle, isDragging } = useItem({
    id: item.id,
    span: item.span,
    disabled: item.disabled,
    resizeHandleWidth: 0,
  });
  const state = STATE.get(bar.status);
  return (
    <div
      ref={setNodeRef}
      style={{ ...itemStyle, zIndex: isDragging ? 10 : 2 }}
      {...listeners}
      {...attributes}
      role="button"
      aria-label={`派工单 ${bar.docNo}`}
      data-testid={`plan-bar-${bar.docNo}`}
      onClick={onOpen}
      onKeyDown={(e) => e.key === 'Enter' && onOpen()}
    >
      <div style={itemContentStyle}>
        <div
          className={`ws-plan-bar ws-plan-bar-${bar.status}${item.disabled ? ' ws-plan-bar-fixed' : ''}`}
          title={`${bar.docNo} · ${state?.label ?? bar.status}\n${bar.productName} ${bar.productSpec ?? ''}\n${bar.processName} · ${qty(bar.quantity)} 件 · ${minutes(bar.plannedMinutes)} 分钟`}
        >
          <b>{bar.productName}</b>
          <span>
            {bar.processName} {qty(bar.quantity)}
          </span>
        </div>
      </div>
    </div>
  );
}

/** A step of the 自动排产 proposal: dashed; a click locks or unlocks it where it is. */
function ProposedBar({
  item,
  step,
  locked,
  onToggle,
}: {
  item: ItemDefinition;
  step: ProposalBar;
  locked: boolean;
  onToggle: () => void;
}) {
  const { setNodeRef, attributes, listeners, itemStyle, itemContentStyle, isDragging } = useItem({
    id: item.id,
    span: item.span,
    disabled: item.disabled,
    resizeHandleWidth: 0,
  });
  const label = `${step.orderNo}${step.cardNo ? ` ${step.cardNo}` : ''}`;
  return (
    <div
      ref={setNodeRef}
      style={{ ...itemStyle, zIndex: isDragging ? 10 : 3 }}
      {...listeners}
      {...attributes}
      role="button"
      aria-label={`方案 ${label} ${step.processName}`}
      aria-pressed={locked}
      data-testid={`proposal-bar-${step.key}`}
      data-locked={locked ? 'true' : 'false'}
      onClick={onToggle}
      onKeyDown={(e) => e.key === 'Enter' && onToggle()}
    >
      <div style={itemContentStyle}>
        <div
          className={`ws-plan-bar ws-plan-bar-proposed${locked ? ' ws-plan-bar-locked' : ''}`}
          title={`自动排产方案（${locked ? '已锁定，点击解锁' : '点击锁定在此'}）\n${label}\n${step.productName} · ${step.processName} · ${qty(step.quantity)} 件${step.setup ? ` · 换型 ${step.setup} 分钟` : ''}`}
        >
          <b>
            {locked ? <LockOutlined /> : null}
            {locked ? ' ' : ''}
            {step.productName}
          </b>
          <span>
            {step.processName} {qty(step.quantity)} {step.cardNo ?? ''}
          </span>
        </div>
      </div>
    </div>
  );
}

function BarModal({
  bar,
  plan,
  mayEdit,
  onClose,
  onMove,
}: {
  bar: Row;
  plan: Plan;
  mayEdit: boolean;
  onClose: () => void;
  onMove: (target: { rowId: string; workDate: string; shift: string }) => Promise<void>;
}) {
  const [form] = Form.useForm();
  const movable = mayEdit && bar.status === 'dispatched';
  const key = plan.by === 'equipment' ? 'equipmentId' : 'operatorId';
  const state = STATE.get(bar.status);
  return (
    <Modal
      open
      title={`派工单 ${bar.docNo}`}
      onCancel={onClose}
      okText="改派"
      okButtonProps={{ hidden: !movable }}
      cancelText="关闭"
      onOk={async () => {
        const v = await form.validateFields();
        await onMove({ rowId: v.rowId, workDate: v.workDate.format('YYYY-MM-DD'), shift: v.shift });
      }}
    >
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="状态">
          <Tag color={state?.color}>{state?.label ?? bar.status}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="车间任务">{bar.taskNo}</Descriptions.Item>
        <Descriptions.Item label="生产订单">{bar.orderNo}</Descriptions.Item>
        <Descriptions.Item label="工序">{bar.processName}</Descriptions.Item>
        <Descriptions.Item label="产品" span={2}>
          {bar.productCode} {bar.productName} {bar.productSpec}
        </Descriptions.Item>
        <Descriptions.Item label="派工数量">{qty(bar.quantity)}</Descriptions.Item>
        <Descriptions.Item label="计划工时">{minutes(bar.plannedMinutes)} 分钟</Descriptions.Item>
        <Descriptions.Item label="操作工">{bar.operatorName}</Descriptions.Item>
        <Descriptions.Item label="设备">{bar.equipmentName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="生产日期">{bar.workDate}</Descriptions.Item>
        <Descriptions.Item label="班次">{SHIFT_LABEL.get(bar.shift) ?? bar.shift}</Descriptions.Item>
      </Descriptions>
      {movable && (
        <Form
          form={form}
          layout="inline"
          style={{ marginTop: 16, rowGap: 8 }}
          initialValues={{ rowId: rowKey(bar[key]), workDate: dayjs(bar.workDate), shift: bar.shift }}
        >
          <Form.Item
            name="rowId"
            label={plan.by === 'equipment' ? '设备' : '操作工'}
            rules={[{ required: true, message: '请选择' }]}
          >
            <Select
              style={{ width: 180 }}
              showSearch
              optionFilterProp="label"
              options={plan.rows
                .filter((r) => plan.by === 'equipment' || r.id != null)
                .map((r) => ({ value: rowKey(r.id), label: `${r.code ?? ''} ${r.name}`.trim() }))}
            />
          </Form.Item>
          <Form.Item name="workDate" label="生产日期" rules={[{ required: true, message: '请选择日期' }]}>
            <DatePicker allowClear={false} />
          </Form.Item>
          <Form.Item name="shift" label="班次" rules={[{ required: true, message: '请选择班次' }]}>
            <Select
              style={{ width: 90 }}
              options={SHIFT_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
            />
          </Form.Item>
        </Form>
      )}
      {!movable && bar.status !== 'dispatched' && (
        <div className="ws-muted" style={{ marginTop: 12 }}>
          只有「已派工」的派工单可以改派。
        </div>
      )}
    </Modal>
  );
}
