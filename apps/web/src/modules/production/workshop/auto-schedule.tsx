import { ThunderboltOutlined } from '@ant-design/icons';
import { SHIFT_OPTIONS, type WorkshopKind } from '@ringmes/domain';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  InputNumber,
  Popconfirm,
  Progress,
  Space,
  Spin,
  Table,
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
 * due-date order a planner would follow by hand; the existing dispatches are locked and stay.
 * 发布 turns this workshop's proposed lines into 派工单 (派工), which then show on the timeline and
 * on the operators' sheets.
 */

interface Kpis {
  lateOrders: number;
  tardinessMinutes: number;
  changeovers: number;
  makespanMinutes: number;
  late: {
    orderNo: string;
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
  processName: string;
}
interface Result {
  today: string;
  orders: number;
  operations: number;
  lockedDispatches: number;
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

export function AutoScheduleButton({
  kind,
  mayPublish,
  onPublished,
}: {
  kind: WorkshopKind;
  mayPublish: boolean;
  onPublished: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ horizonDays: number; timeLimitSeconds: number }>();
  const run = useMutation({
    mutationFn: (body: { horizonDays: number; timeLimitSeconds: number }) =>
      http.post<Result>('/api/v1/work-dispatch/auto-schedule', body, { timeout: 120_000, silent: true }),
  });
  const publish = useMutation({
    mutationFn: (lines: Line[]) =>
      http.post<{ dispatches: { id: number; docNo: string }[]; warnings: string[] }>(
        '/api/v1/work-dispatch/auto-schedule/publish',
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
  const result = run.data;
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
        extra={
          mayPublish && (
            <Popconfirm
              title={`将 ${mine.length} 条${kind.label}派工发布为派工单？`}
              okText="发布"
              cancelText="取消"
              disabled={!mine.length || publish.isPending}
              onConfirm={async () => {
                try {
                  const r = await publish.mutateAsync(mine);
                  toast.success(`已发布 ${r.dispatches.length} 张派工单`);
                  if (r.warnings.length) toast.warning(r.warnings[0]!);
                  run.reset();
                  onPublished();
                } catch (e) {
                  if (isApiError(e)) toast.error(e.message);
                  else throw e;
                }
              }}
            >
              <Button type="primary" disabled={!mine.length} loading={publish.isPending}>
                发布
              </Button>
            </Popconfirm>
          )
        }
      >
        <Form
          form={form}
          layout="inline"
          initialValues={{ horizonDays: 14, timeLimitSeconds: 10 }}
          onFinish={(v) => run.mutate(v)}
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
        </Form>
        {run.isError && <Alert type="error" showIcon message={(run.error as Error).message} />}
        <Spin spinning={run.isPending} tip="排产运算中…">
          {!result ? (
            <Empty description="已有派工单保持不动（锁定）；运算后在此对比方案" />
          ) : (
            <Space direction="vertical" style={{ width: '100%' }} size="middle">
              <Typography.Text type="secondary" data-testid="auto-schedule-summary">
                {result.orders} 个订单、{result.operations} 道工序，锁定已有派工 {result.lockedDispatches}{' '}
                张；
                {result.beyondHorizon > 0 && `排产天数之后的 ${result.beyondHorizon} 条派工留待下次排产；`}
                运算 {result.seconds} 秒（{result.iterations} 次邻域搜索）；约束检查
                {result.violations.length ? (
                  <Tag color="red">{result.violations.length} 处违反</Tag>
                ) : (
                  <Tag color="green">全部满足</Tag>
                )}
              </Typography.Text>
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
                rowKey="orderNo"
                title={() => '延期订单及原因'}
                pagination={false}
                dataSource={result.proposal.late}
                locale={{ emptyText: '没有延期订单' }}
                columns={[
                  { title: '生产订单', dataIndex: 'orderNo', width: 160 },
                  { title: '产品', dataIndex: 'productName', width: 140 },
                  { title: '交期', dataIndex: 'dueDate', width: 100 },
                  { title: '预计完工', dataIndex: 'finish', width: 110, render: (v: number) => at(v) },
                  {
                    title: '拖期',
                    dataIndex: 'tardinessMinutes',
                    width: 90,
                    render: (v: number) => hours(v),
                  },
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
                  { title: '生产订单', dataIndex: 'orderNo', width: 160 },
                  { title: '车间任务', dataIndex: 'taskNo', width: 170 },
                  { title: '工序', dataIndex: 'processName', width: 110 },
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
      </Drawer>
    </>
  );
}
