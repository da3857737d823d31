import { equipmentRepairResource, WORKSHOP_KINDS, workshopPaths } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Breadcrumb,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { formatTime } from '../../../platform/lib/time.ts';
import type { PageProps } from '../../../platform/page.ts';
import { ExportButton } from '../../../platform/resource/export-button.tsx';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { resourceRoutes } from '../../../platform/resource/routes.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import {
  Gap,
  OeeBoard,
  type OeeFigures,
  type OeeRow,
  type OeeScope,
  pctText,
  type Segment,
  StateStrip,
  useOeeSummary,
} from './oee-board.tsx';

interface DayDetail extends OeeFigures {
  equipmentId: number;
  name: string;
  workshopName: string;
  day: string;
  segments: (Segment & { dispatchIds: number[]; repairIds: number[] })[];
  signalParts: number;
  dispatches: Record<string, any>[];
  repairs: Record<string, any>[];
  reports: Record<string, any>[];
}

type Drill = {
  workshop?: { id: number; name: string };
  machine?: { id: number; name: string };
  day?: string;
};

const figureColumns = [
  { title: '计划生产(分)', dataIndex: 'plannedMinutes', align: 'right' as const },
  { title: '运行(分)', dataIndex: 'runMinutes', align: 'right' as const },
  { title: '良品', dataIndex: 'good', align: 'right' as const },
  { title: '不良', dataIndex: 'scrap', align: 'right' as const },
  { title: '时间开动率', dataIndex: 'availability', align: 'right' as const, render: pctText },
  { title: '性能开动率', dataIndex: 'performance', align: 'right' as const, render: pctText },
  { title: '合格品率', dataIndex: 'quality', align: 'right' as const, render: pctText },
  {
    title: 'OEE',
    dataIndex: 'oee',
    align: 'right' as const,
    render: (v: number | null) => <b>{pctText(v)}</b>,
  },
  { title: '目标', dataIndex: 'target', align: 'right' as const, render: pctText },
  { title: '差距', dataIndex: 'gap', align: 'right' as const, render: (v: number | null) => <Gap gap={v} /> },
];

/**
 * 设备管理 › 设备OEE: the board (a gauge per machine, the trend, the loss Pareto) and the report
 * drilled from the plant to a workshop, a machine, one of its days (the state timeline) and the
 * dispatches, repairs and 报工 behind it; the Excel export; a machine's OEE target.
 */
export function OeePage(_: PageProps) {
  const can = usePermission();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(13, 'day'), dayjs()]);
  const [drill, setDrill] = useState<Drill>({});
  const scope: OeeScope = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    workshopId: drill.workshop?.id,
    equipmentId: drill.machine?.id,
  };
  const level = drill.machine ? 'machine' : drill.workshop ? 'machine' : 'workshop';
  const period = drill.machine ? 'day' : 'all';
  const rows = useOeeSummary(scope, level, period);
  const pickMachine = (r: OeeRow) => r.id && setDrill({ ...drill, machine: { id: r.id, name: r.name } });
  const onRow = (r: OeeRow) => {
    if (!r.id) return;
    if (drill.machine) setDrill({ ...drill, day: r.period });
    else if (drill.workshop) pickMachine(r);
    else setDrill({ workshop: { id: r.id, name: r.name } });
  };
  const crumbs = [
    { title: <a onClick={() => setDrill({})}>全厂</a> },
    ...(drill.workshop
      ? [{ title: <a onClick={() => setDrill({ workshop: drill.workshop })}>{drill.workshop.name}</a> }]
      : []),
    ...(drill.machine
      ? [{ title: <a onClick={() => setDrill({ ...drill, day: undefined })}>{drill.machine.name}</a> }]
      : []),
    ...(drill.day ? [{ title: drill.day }] : []),
  ];
  return (
    <PageCard
      title="设备OEE"
      extra={
        <Space>
          <DatePicker.RangePicker
            allowClear={false}
            value={range}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          {can('factory:oee:export') && (
            <ExportButton url="/api/v1/oee/export" params={() => ({ ...scope, level, period })} />
          )}
        </Space>
      }
    >
      <Breadcrumb items={crumbs} style={{ marginBottom: 12 }} data-testid="oee-crumbs" />
      {drill.day && drill.machine ? (
        <MachineDay equipmentId={drill.machine.id} day={drill.day} />
      ) : (
        <>
          <OeeBoard
            scope={scope}
            onPickMachine={(r) => setDrill({ ...drill, machine: { id: r.id as number, name: r.name } })}
          />
          {drill.machine && can('factory:oee:setting') && <TargetButton equipmentId={drill.machine.id} />}
          {drill.workshop && !drill.machine && can('factory:oee:setting') && (
            <CalendarButton workshopId={drill.workshop.id} />
          )}
          <Table<OeeRow>
            data-testid="oee-table"
            style={{ marginTop: 16 }}
            size="middle"
            rowKey="key"
            loading={rows.isFetching}
            dataSource={rows.data?.rows ?? []}
            pagination={false}
            onRow={(r) => ({ onClick: () => onRow(r), style: { cursor: 'pointer' } })}
            columns={[
              {
                title: drill.machine ? '日期' : drill.workshop ? '设备' : '车间',
                dataIndex: drill.machine ? 'period' : 'name',
                render: (v: string) => <a>{v}</a>,
              },
              ...figureColumns,
            ]}
          />
        </>
      )}
    </PageCard>
  );
}

function TargetButton({ equipmentId }: { equipmentId: number }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const setting = useQuery({
    queryKey: ['oee', 'setting', equipmentId],
    queryFn: () =>
      http.get<{ oeeTarget: number | null; signalTopic: string | null; signalMapping: unknown }>(
        `/api/v1/oee/machine-setting/${equipmentId}`,
      ),
  });
  const [value, setValue] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: () =>
      http.put(`/api/v1/oee/machine-setting/${equipmentId}`, {
        oeeTarget: value,
        signalTopic: setting.data?.signalTopic ?? null,
        signalMapping: setting.data?.signalMapping ?? null,
      }),
    onSuccess: () => {
      setOpen(false);
      void qc.invalidateQueries({ queryKey: ['oee'] });
    },
  });
  return (
    <>
      <Button
        style={{ marginTop: 12 }}
        onClick={() => {
          setValue(setting.data?.oeeTarget ?? null);
          setOpen(true);
        }}
      >
        设置OEE目标
      </Button>
      <Modal
        title="OEE目标"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => save.mutate()}
        confirmLoading={save.isPending}
      >
        <InputNumber min={1} max={100} addonAfter="%" value={value} onChange={(v) => setValue(v)} />
      </Modal>
    </>
  );
}

interface CalendarForm {
  shifts: { code: string; name: string; start: string; end: string; breaks: string }[];
  weekdays: number[];
  holidays: string;
  workdays: string;
}

const WEEKDAYS = ['一', '二', '三', '四', '五', '六', '日'].map((d, i) => ({
  label: `周${d}`,
  value: i + 1,
}));
const days = (text: string) => text.split(/[\s,，;；]+/).filter(Boolean);

/** 班次日历 of a workshop: its shifts with breaks (「12:00-12:30 午餐; 15:00-15:10」), weekdays, holidays and 调休 days. */
function CalendarButton({ workshopId }: { workshopId: number }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<CalendarForm>();
  const load = async () => {
    const r = await http.get<{ calendar: any }>(`/api/v1/oee/calendar/${workshopId}`);
    const c = r.calendar;
    form.setFieldsValue({
      shifts: c.shifts.map((s: any) => ({
        ...s,
        breaks: s.breaks.map((b: any) => `${b.start}-${b.end}${b.name ? ` ${b.name}` : ''}`).join('; '),
      })),
      weekdays: c.weekdays,
      holidays: c.holidays.join(' '),
      workdays: c.workdays.join(' '),
    });
    setOpen(true);
  };
  const save = useMutation({
    mutationFn: (v: CalendarForm) =>
      http.put(`/api/v1/oee/calendar/${workshopId}`, {
        shifts: v.shifts.map((s) => ({
          code: s.code,
          name: s.name,
          start: s.start,
          end: s.end,
          breaks: (s.breaks ?? '')
            .split(/[;；]/)
            .map((b) => b.trim())
            .filter(Boolean)
            .map((b) => {
              const [span, ...name] = b.split(/\s+/);
              const [start, end] = span.split('-');
              return { start, end, ...(name.length ? { name: name.join(' ') } : {}) };
            }),
        })),
        weekdays: v.weekdays ?? [],
        holidays: days(v.holidays ?? ''),
        workdays: days(v.workdays ?? ''),
      }),
    onSuccess: () => {
      setOpen(false);
      void qc.invalidateQueries({ queryKey: ['oee'] });
    },
  });
  return (
    <>
      <Button style={{ marginTop: 12 }} onClick={() => void load()}>
        班次日历
      </Button>
      <Modal
        title="班次日历"
        width={760}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.validateFields().then((v) => save.mutate(v))}
        confirmLoading={save.isPending}
      >
        <Form form={form} layout="vertical">
          <Form.List name="shifts">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" wrap>
                    <Form.Item
                      name={[f.name, 'code']}
                      label="代码"
                      rules={[{ required: true, message: '请填写代码' }]}
                    >
                      <Input style={{ width: 70 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'name']}
                      label="班次"
                      rules={[{ required: true, message: '请填写班次' }]}
                    >
                      <Input style={{ width: 80 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'start']}
                      label="开始"
                      rules={[{ required: true, message: 'HH:mm' }]}
                    >
                      <Input style={{ width: 70 }} placeholder="08:00" />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'end']}
                      label="结束"
                      rules={[{ required: true, message: 'HH:mm' }]}
                    >
                      <Input style={{ width: 70 }} placeholder="17:00" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'breaks']} label="休息（开始-结束 名称；…）">
                      <Input style={{ width: 260 }} placeholder="12:00-12:30 午餐; 15:00-15:10" />
                    </Form.Item>
                    <Button type="link" danger onClick={() => remove(f.name)}>
                      删除
                    </Button>
                  </Space>
                ))}
                <Button onClick={() => add({ code: '', name: '', start: '', end: '', breaks: '' })}>
                  添加班次
                </Button>
              </>
            )}
          </Form.List>
          <Form.Item name="weekdays" label="工作日" style={{ marginTop: 16 }}>
            <Checkbox.Group options={WEEKDAYS} />
          </Form.Item>
          <Form.Item name="holidays" label="节假日（YYYY-MM-DD，空格分隔）">
            <Input.TextArea rows={2} />
          </Form.Item>
          <Form.Item name="workdays" label="调休工作日（YYYY-MM-DD，空格分隔）">
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

const kindPath = (type: string) => {
  const k = WORKSHOP_KINDS.find((x) => x.type === type);
  return k ? workshopPaths(k).dispatchInfo : null;
};

/** A machine's day: its states, the day's figures, and what lies behind them. */
function MachineDay({ equipmentId, day }: { equipmentId: number; day: string }) {
  const data = useQuery({
    queryKey: ['oee', 'timeline', equipmentId, day],
    queryFn: () => http.get<DayDetail>('/api/v1/oee/timeline', { equipmentId, day }),
  });
  const d = data.data;
  if (!d) return null;
  const repairDetail = resourceRoutes(equipmentRepairResource).detail as string;
  return (
    <div data-testid="oee-day">
      <Descriptions size="small" column={5} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="计划生产">{d.plannedMinutes} 分钟</Descriptions.Item>
        <Descriptions.Item label="运行">{d.runMinutes} 分钟</Descriptions.Item>
        <Descriptions.Item label="时间开动率">{pctText(d.availability)}</Descriptions.Item>
        <Descriptions.Item label="性能开动率">{pctText(d.performance)}</Descriptions.Item>
        <Descriptions.Item label="合格品率">{pctText(d.quality)}</Descriptions.Item>
        <Descriptions.Item label="OEE">
          <b>{pctText(d.oee)}</b>
        </Descriptions.Item>
        <Descriptions.Item label="目标">
          {pctText(d.target)} <Gap gap={d.gap} />
        </Descriptions.Item>
        <Descriptions.Item label="信号计数">{d.signalParts}</Descriptions.Item>
      </Descriptions>
      <StateStrip segments={d.segments} />
      <Table
        data-testid="oee-segments"
        style={{ marginTop: 12 }}
        size="small"
        rowKey="from"
        pagination={false}
        dataSource={d.segments.filter((s) => s.state !== 'offShift')}
        columns={[
          { title: '开始', dataIndex: 'from', render: (v: string) => formatTime(v, 'HH:mm') },
          { title: '结束', dataIndex: 'to', render: (v: string) => formatTime(v, 'HH:mm') },
          { title: '状态', dataIndex: 'stateLabel', render: (v: string) => <Tag>{v}</Tag> },
          { title: '原因', dataIndex: 'reason' },
          { title: '分钟', dataIndex: 'minutes', align: 'right' },
        ]}
      />
      <div className="rk-form-section-title" style={{ marginTop: 16 }}>
        派工单
      </div>
      <Table
        data-testid="oee-dispatches"
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.dispatches}
        columns={[
          {
            title: '派工单号',
            dataIndex: 'docNo',
            render: (v: string, r) => {
              const p = kindPath(r.workshopType);
              return p ? <a onClick={() => openResourcePage(p, r.id)}>{v}</a> : v;
            },
          },
          { title: '产品', dataIndex: 'productName' },
          { title: '工序', dataIndex: 'processName' },
          { title: '操作工', dataIndex: 'operatorName' },
          { title: '数量', dataIndex: 'quantity', align: 'right' },
          { title: '已报工', dataIndex: 'reportedQuantity', align: 'right' },
        ]}
      />
      <div className="rk-form-section-title" style={{ marginTop: 16 }}>
        报修
      </div>
      <Table
        data-testid="oee-repairs"
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.repairs}
        columns={[
          {
            title: '报修单号',
            dataIndex: 'docNo',
            render: (v: string, r) => <a onClick={() => openResourcePage(repairDetail, r.id)}>{v}</a>,
          },
          { title: '故障描述', dataIndex: 'faultDescription' },
          { title: '报修时间', dataIndex: 'reportedAt', render: (v: string) => formatTime(v) },
          {
            title: '修复时间',
            dataIndex: 'repairedAt',
            render: (v: string | null) => (v ? formatTime(v) : '未修复'),
          },
        ]}
      />
      <div className="rk-form-section-title" style={{ marginTop: 16 }}>
        报工
      </div>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.reports}
        columns={[
          { title: '报工单号', dataIndex: 'docNo' },
          { title: '合格', dataIndex: 'goodQuantity', align: 'right' },
          { title: '不良', dataIndex: 'scrapQuantity', align: 'right' },
          { title: '标准工时(分/件)', dataIndex: 'standardMinutes', align: 'right' },
        ]}
      />
    </div>
  );
}
