import { ThunderboltOutlined } from '@ant-design/icons';
import { SHIFT_OPTIONS, type WorkshopKind } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  AutoComplete,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Progress,
  Segmented,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { isApiError } from '../../../platform/api/errors.ts';
import { toast } from '../../../platform/feedback.ts';

/**
 * 自动排产 on the 排产计划 page (issue 43): the server builds the plant model (every workshop, as
 * routes cross them), solves it within the chosen limit and answers a proposal beside the
 * due-date order a planner would follow by hand; the existing dispatches stay where they are.
 * The proposal's steps show on the timeline as dashed bars: dragging one to another machine or
 * shift locks it there (a pin) and runs again around it; a click locks or unlocks it where it is.
 * 发布 turns this workshop's, or the whole plant's, proposed lines into 派工单 (派工), which then
 * show on the timeline and on the operators' sheets. 排产参数: the machines' speed factors and
 * 可做工序, the products' 换型族 and the setup minutes per 工序 and family.
 */

interface Kpis {
  lateOrders: number;
  tardinessMinutes: number;
  changeovers: number;
  makespanMinutes: number;
  late: {
    orderNo: string;
    cardNo: string | null;
    productName: string;
    dueDate: string;
    finish: number;
    tardinessMinutes: number;
    explanation: string;
  }[];
  machineLoads: {
    equipmentId: number;
    equipmentCode: string;
    equipmentName: string;
    workshopType: string;
    busyMinutes: number;
    availableMinutes: number;
    load: number;
  }[];
}
interface Line {
  taskId: number;
  taskNo: string;
  equipmentId: number;
  equipmentCode: string;
  equipmentName: string;
  operatorId: number;
  workshopType: string;
  workDate: string;
  shift: string;
  quantity: string;
  minutes: number;
  orderNo: string;
  cardNos: string[];
  processName: string;
}
/** One step of the proposal on a machine (a bar on the timeline). */
export interface ProposalBar {
  key: string;
  kind: 'machine' | 'outsourced';
  lotId: string;
  stepId: string;
  orderNo: string;
  cardNo: string | null;
  productName: string;
  processName: string;
  quantity: string;
  equipmentId: number;
  equipmentCode: string;
  workshopType: string;
  workDate: string | null;
  shift: string | null;
  lastWorkDate: string | null;
  lastShift: string | null;
  setup: number;
  pinned: boolean;
}
export interface Pin {
  lotId: string;
  stepId: string;
  equipmentId: number;
  workDate: string;
  shift: string;
}
interface Result {
  today: string;
  orders: number;
  lots: number;
  cardLots: number;
  operations: number;
  lockedDispatches: number;
  pins: number;
  pinsMoved: number;
  pinsIgnored: number;
  down: string[];
  unplanned: string[];
  bars: ProposalBar[];
  beyondHorizon: number;
  seconds: number;
  iterations: number;
  violations: string[];
  proposal: Kpis;
  baseline: Kpis;
  lines: Line[];
}

const SHIFT_LABEL = new Map(SHIFT_OPTIONS.map((o) => [o.value, o.label]));
const hours = (m: number) => `${(m / 60).toLocaleString('zh-CN', { maximumFractionDigits: 1 })} 小时`;
const RUN_URL = '/api/v1/work-dispatch/auto-schedule';

interface RunParams {
  horizonDays: number;
  timeLimitSeconds: number;
}

/** The page's 自动排产 state: the last run, the planner's pins, 运算 and 发布. */
export function useAutoSchedule() {
  const [params, setParams] = useState<RunParams>({ horizonDays: 14, timeLimitSeconds: 10 });
  const [pins, setPins] = useState<Map<string, Pin>>(new Map());
  const run = useMutation({
    mutationFn: (body: RunParams & { pins: Pin[] }) =>
      http.post<Result>(RUN_URL, body, { timeout: 120_000, silent: true }),
  });
  const publish = useMutation({
    mutationFn: (lines: Line[]) =>
      http.post<{ dispatches: { id: number; docNo: string }[]; warnings: string[] }>(
        `${RUN_URL}/publish`,
        {
          lines: lines.map((l) => ({
            taskId: l.taskId,
            equipmentId: l.equipmentId,
            operatorId: l.operatorId,
            workDate: l.workDate,
            shift: l.shift,
            quantity: l.quantity,
          })),
        },
        { silent: true },
      ),
  });
  const again = (next: Map<string, Pin>, p = params) => {
    setPins(next);
    setParams(p);
    run.mutate({ ...p, pins: [...next.values()] });
  };
  return {
    params,
    pins,
    run,
    publish,
    result: run.data,
    /** 运算 with these parameters and the pins held. */
    start: (p: RunParams) => again(pins, p),
    /** The planner put a bar on a machine and shift: it is locked there and the rest planned around it. */
    pin: (bar: ProposalBar, target: { equipmentId: number; workDate: string; shift: string }) => {
      const next = new Map(pins);
      next.set(bar.key, { lotId: bar.lotId, stepId: bar.stepId, ...target });
      again(next);
    },
    /** Lock a bar where it is, or unlock it. */
    toggleLock: (bar: ProposalBar) => {
      const next = new Map(pins);
      if (next.has(bar.key)) next.delete(bar.key);
      else if (bar.workDate && bar.shift)
        next.set(bar.key, {
          lotId: bar.lotId,
          stepId: bar.stepId,
          equipmentId: bar.equipmentId,
          workDate: bar.workDate,
          shift: bar.shift,
        });
      again(next);
    },
    discard: () => {
      setPins(new Map());
      run.reset();
    },
  };
}
export type AutoScheduleState = ReturnType<typeof useAutoSchedule>;

/** The lines 发布 sends: this workshop's, or the whole plant's. */
const linesFor = (r: Result | undefined, kind: WorkshopKind, scope: 'workshop' | 'plant') =>
  (r?.lines ?? []).filter((l) => scope === 'plant' || l.workshopType === kind.type);

export function PublishButton({
  state,
  kind,
  onPublished,
}: {
  state: AutoScheduleState;
  kind: WorkshopKind;
  onPublished: () => void;
}) {
  const [scope, setScope] = useState<'workshop' | 'plant'>('workshop');
  const chosen = linesFor(state.result, kind, scope);
  return (
    <Space size={4}>
      <Segmented<'workshop' | 'plant'>
        size="small"
        value={scope}
        onChange={setScope}
        options={[
          { value: 'workshop', label: `本车间` },
          { value: 'plant', label: '全厂' },
        ]}
        data-testid="auto-schedule-scope"
      />
      <Popconfirm
        title={`将 ${chosen.length} 条${scope === 'plant' ? '全厂' : kind.label}派工发布为派工单？`}
        okText="发布"
        cancelText="取消"
        disabled={!chosen.length || state.publish.isPending}
        onConfirm={async () => {
          try {
            const r = await state.publish.mutateAsync(chosen);
            toast.success(`已发布 ${r.dispatches.length} 张派工单`);
            if (r.warnings.length) toast.warning(r.warnings[0]!);
            state.discard();
            onPublished();
          } catch (e) {
            if (isApiError(e)) toast.error(e.message);
            else throw e;
          }
        }}
      >
        <Button type="primary" disabled={!chosen.length} loading={state.publish.isPending}>
          发布
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** Above the timeline while a proposal is shown: what it holds, 发布 and 放弃. */
export function ProposalNotice({
  state,
  kind,
  mayPublish,
  onPublished,
}: {
  state: AutoScheduleState;
  kind: WorkshopKind;
  mayPublish: boolean;
  onPublished: () => void;
}) {
  const r = state.result;
  if (!r && !state.run.isPending) return null;
  const mine = linesFor(r, kind, 'workshop');
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 8 }}
      data-testid="proposal-notice"
      message={
        state.run.isPending
          ? '排产运算中…'
          : `自动排产方案：本车间 ${mine.length} 条派工（虚线条），锁定 ${state.pins.size} 道工序` +
            (r?.pinsMoved ? `，其中 ${r.pinsMoved} 道因前道未完成而顺延` : '') +
            '。拖动方案条到其他设备或班次即锁定在那里并重新运算；点击方案条锁定或解锁。'
      }
      action={
        r && (
          <Space>
            {mayPublish && <PublishButton state={state} kind={kind} onPublished={onPublished} />}
            <Button onClick={state.discard}>放弃方案</Button>
          </Space>
        )
      }
    />
  );
}

export function AutoScheduleButton({
  kind,
  state,
  mayPublish,
  onPublished,
}: {
  kind: WorkshopKind;
  state: AutoScheduleState;
  mayPublish: boolean;
  onPublished: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<RunParams>();
  const { run } = state;
  const result = state.result;
  const mine = result?.lines.filter((l) => l.workshopType === kind.type) ?? [];
  const at = (m: number) => (result ? dayjs(result.today).add(m, 'minute').format('MM-DD HH:mm') : '');

  const kpi = (k: Kpis | undefined) =>
    k ? (
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="延期订单">
          <Typography.Text type={k.lateOrders ? 'danger' : undefined}>{k.lateOrders}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="加权拖期">{hours(k.tardinessMinutes)}</Descriptions.Item>
        <Descriptions.Item label="换型次数">{k.changeovers}</Descriptions.Item>
        <Descriptions.Item label="全部完工">{at(k.makespanMinutes)}</Descriptions.Item>
      </Descriptions>
    ) : null;

  const proposal = (
    <>
      <Form
        form={form}
        layout="inline"
        initialValues={state.params}
        onFinish={(v) => state.start(v)}
        style={{ marginBottom: 12 }}
      >
        <Form.Item
          label="排产天数"
          name="horizonDays"
          rules={[{ required: true, message: '请填写排产天数' }]}
        >
          <InputNumber min={1} max={62} precision={0} />
        </Form.Item>
        <Form.Item
          label="运算时限(秒)"
          name="timeLimitSeconds"
          rules={[{ required: true, message: '请填写运算时限' }]}
        >
          <InputNumber min={0.1} max={60} step={1} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" type="primary" loading={run.isPending}>
            运算
          </Button>
        </Form.Item>
        {result && (
          <Form.Item>
            <Button onClick={() => setOpen(false)} data-testid="auto-schedule-on-plan">
              在排产计划中调整
            </Button>
          </Form.Item>
        )}
      </Form>
      {run.isError && <Alert type="error" showIcon message={(run.error as Error).message} />}
      <Spin spinning={run.isPending} tip="排产运算中…">
        {!result ? (
          <Empty description="已有派工单保持不动；运算后在此对比方案" />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            <Typography.Text type="secondary" data-testid="auto-schedule-summary">
              {result.orders} 个订单、{result.lots} 个批次（其中流转卡 {result.cardLots} 张）、
              {result.operations} 道工序，已有派工 {result.lockedDispatches} 张保持不动，锁定方案工序{' '}
              {result.pins} 道{result.pinsMoved > 0 && `（${result.pinsMoved} 道顺延）`}；
              {result.beyondHorizon > 0 && `排产天数之后的 ${result.beyondHorizon} 条派工留待下次排产；`}
              运算 {result.seconds} 秒（{result.iterations} 次邻域搜索）；约束检查
              {result.violations.length ? (
                <Tag color="red">{result.violations.length} 处违反</Tag>
              ) : (
                <Tag color="green">全部满足</Tag>
              )}
            </Typography.Text>
            {result.down.length > 0 && (
              <Alert
                type="info"
                showIcon
                data-testid="auto-schedule-down"
                message="以下设备故障（报修未完成），修复前不排产"
                description={result.down.join('；')}
              />
            )}
            {result.unplanned.length > 0 && (
              <Alert
                type="warning"
                showIcon
                message="以下任务没有可用设备，未排产"
                description={result.unplanned.join('；')}
              />
            )}
            <div style={{ display: 'flex', gap: 16 }}>
              <div style={{ flex: 1 }} data-testid="auto-schedule-baseline">
                <Typography.Title level={5}>按交期顺序（手工排法）</Typography.Title>
                {kpi(result.baseline)}
              </div>
              <div style={{ flex: 1 }} data-testid="auto-schedule-proposal">
                <Typography.Title level={5}>自动排产方案</Typography.Title>
                {kpi(result.proposal)}
              </div>
            </div>
            <Table
              size="small"
              rowKey={(l) => `${l.orderNo}-${l.cardNo ?? ''}`}
              title={() => '延期订单及原因'}
              pagination={false}
              dataSource={result.proposal.late}
              locale={{ emptyText: '没有延期订单' }}
              columns={[
                { title: '生产订单', dataIndex: 'orderNo', width: 160 },
                { title: '流转卡', dataIndex: 'cardNo', width: 150, render: (v) => v ?? '—' },
                { title: '产品', dataIndex: 'productName', width: 140 },
                { title: '交期', dataIndex: 'dueDate', width: 100 },
                { title: '预计完工', dataIndex: 'finish', width: 110, render: (v: number) => at(v) },
                { title: '拖期', dataIndex: 'tardinessMinutes', width: 90, render: (v: number) => hours(v) },
                { title: '原因', dataIndex: 'explanation' },
              ]}
            />
            <Table
              size="small"
              rowKey={(l) => `${l.taskId}-${l.workDate}-${l.shift}-${l.equipmentId}`}
              title={() => `${kind.label}方案派工（${mine.length} 条，按班次拆分）`}
              dataSource={mine}
              pagination={{ pageSize: 20, showSizeChanger: false }}
              columns={[
                { title: '设备', render: (_, l: Line) => `${l.equipmentCode} ${l.equipmentName}` },
                { title: '生产日期', dataIndex: 'workDate', width: 110 },
                {
                  title: '班次',
                  dataIndex: 'shift',
                  width: 70,
                  render: (v: string) => SHIFT_LABEL.get(v) ?? v,
                },
                { title: '生产订单', dataIndex: 'orderNo', width: 150 },
                {
                  title: '流转卡',
                  dataIndex: 'cardNos',
                  width: 150,
                  render: (v: string[]) => (v.length ? v.join('、') : '—'),
                },
                { title: '车间任务', dataIndex: 'taskNo', width: 160 },
                { title: '工序', dataIndex: 'processName', width: 100 },
                { title: '数量', dataIndex: 'quantity', width: 80 },
                { title: '工时(分钟)', dataIndex: 'minutes', width: 90 },
              ]}
            />
            <Table
              size="small"
              rowKey="equipmentId"
              title={() => '设备负荷（方案）'}
              pagination={false}
              dataSource={result.proposal.machineLoads.filter((m) => m.workshopType === kind.type)}
              columns={[
                { title: '设备', render: (_, m) => `${m.equipmentCode} ${m.equipmentName}` },
                { title: '占用', dataIndex: 'busyMinutes', width: 120, render: (v: number) => hours(v) },
                {
                  title: '负荷率',
                  dataIndex: 'load',
                  width: 260,
                  render: (v: number) => (
                    <Progress percent={Math.min(100, v)} size="small" format={() => `${v}%`} />
                  ),
                },
              ]}
            />
          </Space>
        )}
      </Spin>
    </>
  );

  return (
    <>
      <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setOpen(true)}>
        自动排产
      </Button>
      <Drawer
        title={`自动排产（全厂模型，显示${kind.label}）`}
        open={open}
        width={1100}
        onClose={() => setOpen(false)}
        destroyOnHidden
        extra={mayPublish && result && <PublishButton state={state} kind={kind} onPublished={onPublished} />}
      >
        <Tabs
          items={[
            { key: 'proposal', label: '方案', children: proposal },
            {
              key: 'settings',
              label: '排产参数',
              children: <ScheduleSettings kind={kind} mayEdit={mayPublish} />,
            },
          ]}
        />
      </Drawer>
    </>
  );
}

// ------------------------------------------------------------------ 排产参数

interface Settings {
  machines: {
    equipmentId: number;
    code: string;
    name: string;
    workshopName: string;
    workshopType: string;
    speedFactor: number | null;
    processIds: number[];
  }[];
  processes: { id: number; code: string; name: string }[];
  families: { materialId: number; code: string; name: string; family: string | null }[];
  setups: { processId: number; family: string; setupMinutes: number }[];
}

function ScheduleSettings({ kind, mayEdit }: { kind: WorkshopKind; mayEdit: boolean }) {
  const client = useQueryClient();
  const key = ['auto-schedule', 'settings'];
  const settings = useQuery({ queryKey: key, queryFn: () => http.get<Settings>(`${RUN_URL}/settings`) });
  const [form] = Form.useForm<{ setups: Settings['setups'] }>();
  const save = async (call: () => Promise<unknown>, done = '已保存') => {
    try {
      await call();
      toast.success(done);
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      if (isApiError(e)) toast.error(e.message);
      else throw e;
    }
  };
  const s = settings.data;
  if (!s) return <Spin spinning />;
  const processOptions = s.processes.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }));
  const familyOptions = [...new Set(s.families.map((f) => f.family).filter((f): f is string => !!f))].map(
    (f) => ({ value: f }),
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        速度系数：设备产出与标准工时之比（1.25 即快四分之一，空为
        1）；可做工序：空为本车间的全部工序。换型族：同族产品
        连续生产不换型（如同一套圈型号），空为产品自成一族。换型时间按「工序 + 换型族」查找，其次「工序 +
        全部」，都没有时用运算时的默认 30 分钟。 班次与休息日取自设备OEE的车间班次日历和系统设置的生产日历。
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="equipmentId"
        title={() => `${kind.label}设备`}
        pagination={false}
        dataSource={s.machines.filter((m) => m.workshopType === kind.type)}
        data-testid="schedule-machines"
        columns={[
          { title: '设备', width: 200, render: (_, m) => `${m.code} ${m.name}` },
          {
            title: '速度系数',
            width: 130,
            render: (_, m) => (
              <InputNumber
                aria-label={`速度系数 ${m.code}`}
                disabled={!mayEdit}
                min={0.01}
                max={10}
                step={0.05}
                defaultValue={m.speedFactor ?? undefined}
                placeholder="1"
                onBlur={(e) => {
                  const v = e.target.value === '' ? null : Number(e.target.value);
                  if (v === m.speedFactor) return;
                  void save(() =>
                    http.put(
                      `${RUN_URL}/machine/${m.equipmentId}`,
                      { speedFactor: v, processIds: m.processIds },
                      { silent: true },
                    ),
                  );
                }}
              />
            ),
          },
          {
            title: '可做工序',
            render: (_, m) => (
              <Select
                mode="multiple"
                aria-label={`可做工序 ${m.code}`}
                disabled={!mayEdit}
                style={{ width: '100%' }}
                placeholder="本车间全部工序"
                optionFilterProp="label"
                options={processOptions}
                value={m.processIds}
                onChange={(ids: number[]) =>
                  void save(() =>
                    http.put(
                      `${RUN_URL}/machine/${m.equipmentId}`,
                      { speedFactor: m.speedFactor, processIds: ids },
                      { silent: true },
                    ),
                  )
                }
              />
            ),
          },
        ]}
      />
      <Table
        size="small"
        rowKey="materialId"
        title={() => '产品换型族（在制订单的产品）'}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        dataSource={s.families}
        columns={[
          { title: '产品', render: (_, f) => `${f.code} ${f.name}` },
          {
            title: '换型族',
            width: 260,
            render: (_, f) => (
              <Input
                aria-label={`换型族 ${f.code}`}
                disabled={!mayEdit}
                maxLength={40}
                defaultValue={f.family ?? ''}
                placeholder="自成一族"
                onBlur={(e) => {
                  const v = e.target.value.trim() || null;
                  if (v === f.family) return;
                  void save(() =>
                    http.put(`${RUN_URL}/family/${f.materialId}`, { family: v }, { silent: true }),
                  );
                }}
              />
            ),
          },
        ]}
      />
      <Form form={form} initialValues={{ setups: s.setups }} disabled={!mayEdit}>
        <Typography.Text strong>换型时间（分钟）</Typography.Text>
        <Form.List name="setups">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex', marginTop: 8 }}>
                  <Form.Item
                    name={[field.name, 'processId']}
                    rules={[{ required: true, message: '请选择工序' }]}
                  >
                    <Select
                      style={{ width: 220 }}
                      showSearch
                      optionFilterProp="label"
                      options={processOptions}
                      placeholder="工序"
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'family']}>
                    <AutoComplete style={{ width: 180 }} options={familyOptions} placeholder="全部换型族" />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'setupMinutes']}
                    rules={[{ required: true, message: '请填写分钟' }]}
                  >
                    <InputNumber min={0} max={1440} placeholder="分钟" />
                  </Form.Item>
                  <Button type="link" danger onClick={() => remove(field.name)}>
                    删除
                  </Button>
                </Space>
              ))}
              <Space style={{ marginTop: 8 }}>
                <Button onClick={() => add({ family: '', setupMinutes: 30 })}>添加换型时间</Button>
                <Button
                  type="primary"
                  onClick={async () => {
                    const v = await form.validateFields();
                    await save(() =>
                      http.put(
                        `${RUN_URL}/setups`,
                        { setups: (v.setups ?? []).map((x) => ({ ...x, family: x.family ?? '' })) },
                        { silent: true },
                      ),
                    );
                  }}
                >
                  保存换型时间
                </Button>
              </Space>
            </>
          )}
        </Form.List>
      </Form>
    </Space>
  );
}
