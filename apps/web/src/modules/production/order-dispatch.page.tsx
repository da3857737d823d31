import { ArrowLeftOutlined, SendOutlined } from '@ant-design/icons';
import { WORKSHOP_TASK_LIFECYCLE, workshopKind, workshopPaths } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Result, Skeleton, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { navigateTo } from '../../platform/navigation.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, leavePage } from '../../platform/resource/nav.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { qty } from '../warehouse/warehouse.api.ts';

type Row = Record<string, any>;
interface Plan {
  order: Row;
  dispatched: boolean;
  steps: Row[];
}

const ORDER_LIST = '/production-department/production-manage/production-order';
const TASK_STATE = new Map(WORKSHOP_TASK_LIFECYCLE.states.map((s) => [s.value, s]));

/**
 * 生产订单派单: the order's frozen route, one row per step, with the workshop that does it and
 * planned dates (shared over the order's span by standard minutes; the planner may change them).
 * 派单 makes one workshop task per in-house step; outsourced steps go to 生产委外.
 */
export function ProductionOrderDispatchPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const can = usePermission();
  const client = useQueryClient();
  const [dates, setDates] = useState<Record<number, [Dayjs, Dayjs]>>({});
  const plan = useQuery({
    queryKey: ['resource', 'production-order', 'dispatch-plan', id],
    queryFn: () => http.get<Plan>(`/api/v1/production-order/dispatch-plan/${id}`),
    enabled: Boolean(id),
  });
  const submit = useMutation({
    mutationFn: () =>
      http.post<{ tasks: { id: number; taskNo: string }[] }>(`/api/v1/production-order/dispatch/${id}`, {
        steps: Object.entries(dates).map(([stepId, [a, b]]) => ({
          stepId: Number(stepId),
          plannedStartDate: a.format('YYYY-MM-DD'),
          plannedFinishDate: b.format('YYYY-MM-DD'),
        })),
      }),
    onSuccess: (r) => {
      toast.success(`派单成功，生成车间任务 ${r.tasks.length} 个`);
      invalidateResource(client, 'production-order');
      invalidateResource(client, 'workshop-task');
      void plan.refetch();
    },
  });
  const back = () => leavePage(path, ORDER_LIST);
  if (!id || plan.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title="生产订单不存在或已被删除"
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const data = plan.data;
  const open = data && ['released', 'producing'].includes(data.order.status);
  return (
    <PageCard
      title={data ? `生产订单派单 · ${data.order.docNo}` : '生产订单派单'}
      extra={
        <Space>
          {data && !data.dispatched && open && can('production:order:dispatch') && (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={submit.isPending}
              onClick={() => submit.mutate()}
              data-testid="order-dispatch"
            >
              派单
            </Button>
          )}
          <Button icon={<ArrowLeftOutlined />} onClick={back}>
            返回
          </Button>
        </Space>
      }
    >
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions size="small" column={4} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="计划开工">{data.order.plannedStartDate}</Descriptions.Item>
            <Descriptions.Item label="计划完工">{data.order.dueDate}</Descriptions.Item>
            <Descriptions.Item label="状态">
              {data.dispatched ? <Tag color="green">已派单</Tag> : <Tag>未派单</Tag>}
            </Descriptions.Item>
          </Descriptions>
          {!open && !data.dispatched && (
            <Alert type="info" showIcon title="订单下达后才能派单" style={{ marginBottom: 12 }} />
          )}
          <Table<Row>
            rowKey="id"
            size="middle"
            pagination={false}
            dataSource={data.steps}
            columns={[
              { title: '顺序号', dataIndex: 'seq', width: 80 },
              { title: '工序', dataIndex: 'processName', width: 160 },
              {
                title: '车间',
                width: 180,
                render: (_, s) =>
                  s.outsourced ? (
                    <Tag color="purple">委外（生产委外）</Tag>
                  ) : (
                    (s.workshopName ?? <Tag color="red">未指定车间</Tag>)
                  ),
              },
              { title: '标准工时(分钟/件)', dataIndex: 'standardMinutes', width: 140, align: 'right' },
              { title: '计划数量', width: 110, align: 'right', render: (_, s) => qty(s.plannedQuantity) },
              {
                title: '计划日期',
                width: 280,
                render: (_, s) => {
                  if (s.outsourced || !s.plannedStartDate) return '—';
                  const value = dates[s.id] ?? [dayjs(s.plannedStartDate), dayjs(s.plannedFinishDate)];
                  return data.dispatched ? (
                    `${s.plannedStartDate} ~ ${s.plannedFinishDate}`
                  ) : (
                    <DatePicker.RangePicker
                      allowClear={false}
                      value={value}
                      onChange={(v) => v?.[0] && v[1] && setDates({ ...dates, [s.id]: [v[0], v[1]] })}
                    />
                  );
                },
              },
              {
                title: '车间任务',
                render: (_, s) => {
                  if (!s.taskId) return '—';
                  const kind = workshopKind(s.workshopType);
                  const st = TASK_STATE.get(s.taskStatus);
                  return (
                    <Space>
                      <Button
                        type="link"
                        size="small"
                        onClick={() => kind && navigateTo(workshopPaths(kind).task)}
                        style={{ padding: 0 }}
                      >
                        {s.taskNo}
                      </Button>
                      <Tag color={st?.color}>{st?.label}</Tag>
                    </Space>
                  );
                },
              },
            ]}
          />
        </>
      )}
    </PageCard>
  );
}
