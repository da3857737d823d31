import './equipment.css';
import { DeleteOutlined, PlusOutlined, ShoppingCartOutlined, ToolOutlined } from '@ant-design/icons';
import { maintenanceRecordResource } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, InputNumber, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import type { ApiError } from '../../../platform/api/errors.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceFormModal } from '../../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';
import { invalidateResource } from '../../../platform/resource/use-options.ts';

interface DueItem {
  planId: number;
  nextDueDate: string;
  overdueDays: number;
  dueState: 'overdue' | 'today' | 'upcoming';
}

interface Due {
  today: string;
  overdue: number;
  list: DueItem[];
}

/** Plans due within a week, by the server's day: overdue, due today and upcoming. */
function useDue() {
  return useQuery({
    queryKey: ['resource', 'maintenance-plan', 'due'],
    queryFn: () => http.get<Due>('/api/v1/maintenance-plan/due', { withinDays: 7 }),
  });
}

/** 登记保养 for one plan: the kit's form of a maintenance record, its plan fixed. */
function RecordModal({ planId, onClose }: { planId: number | undefined; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <ResourceFormModal
      def={maintenanceRecordResource}
      open={planId !== undefined}
      title="登记保养"
      initialValues={{ planId }}
      locked={['planId']}
      onClose={onClose}
      onSaved={() => {
        invalidateResource(client, 'maintenance-plan');
        invalidateResource(client, 'equipment');
        onClose();
      }}
    />
  );
}

/**
 * 保养: the plans, overdue ones in red and those due within a week counted above; 登记保养 on each
 * row records what was done and moves the plan's next due date.
 */
export function MaintenancePlanListPage(props: ResourcePageProps) {
  const can = usePermission();
  const due = useDue();
  const [recording, setRecording] = useState<number>();
  const byPlan = new Map((due.data?.list ?? []).map((d) => [d.planId, d]));
  const overdue = due.data?.overdue ?? 0;
  const soon = (due.data?.list.length ?? 0) - overdue;
  return (
    <>
      {due.data && (
        <Alert
          className="rm-page-alert"
          style={{ marginBottom: 12 }}
          type={overdue ? 'error' : soon ? 'warning' : 'success'}
          showIcon
          data-testid="maintenance-due"
          title={
            overdue || soon
              ? `逾期未保养 ${overdue} 项，7 天内到期 ${soon} 项（今天 ${due.data.today}）`
              : `没有逾期或 7 天内到期的保养（今天 ${due.data.today}）`
          }
        />
      )}
      <ResourceListPage
        {...props}
        rowClassName={(row) => {
          const d = byPlan.get(row.id);
          return d?.dueState === 'overdue' ? 'eq-overdue' : d?.dueState === 'today' ? 'eq-due-today' : '';
        }}
        rowActions={(row) => (
          <Space size={0}>
            <DueTag item={byPlan.get(row.id)} />
            {can('factory:maintenance:add') && row.status === '1' && (
              <Button type="link" size="small" icon={<ToolOutlined />} onClick={() => setRecording(row.id)}>
                登记保养
              </Button>
            )}
          </Space>
        )}
        rowActionsWidth={170}
      />
      <RecordModal planId={recording} onClose={() => setRecording(undefined)} />
    </>
  );
}

function DueTag({ item }: { item: DueItem | undefined }) {
  if (!item) return null;
  if (item.dueState === 'overdue') return <Tag color="red">逾期 {item.overdueDays} 天</Tag>;
  if (item.dueState === 'today') return <Tag color="gold">今天到期</Tag>;
  return <Tag color="blue">{-item.overdueDays} 天后</Tag>;
}

/** 保养详情: the plan and its records, with 登记保养. */
export function MaintenancePlanDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      sections={(row: ResourceRow) => (
        <div className="rk-form-section">
          <ResourceList
            def={maintenanceRecordResource}
            embedded
            title="保养记录"
            fixedFilters={{ planId: row.id }}
            hiddenFilters={['planId']}
            newValues={{ planId: row.id }}
            lockedOnAdd={['planId']}
          />
        </div>
      )}
    />
  );
}

interface SpareParts {
  warehouseId?: number;
  lines: { materialId?: number; quantity?: number }[];
}

/**
 * 领用备件 of one maintenance record: the spare parts used leave stock as a 领料出库 that the server
 * makes and posts, linked from the record (once per record).
 */
function SparePartsModal({ record, onClose }: { record: ResourceRow | undefined; onClose: () => void }) {
  const [form] = Form.useForm<SpareParts>();
  const client = useQueryClient();
  const issue = useMutation({
    mutationFn: (v: SpareParts) =>
      http.post<{ docNo: string }>(`/api/v1/maintenance-record/spare-parts/${record?.id}`, {
        warehouseId: v.warehouseId,
        lines: v.lines.map((l) => ({ materialId: l.materialId, quantity: String(l.quantity ?? '') })),
      }),
    onSuccess: (r) => {
      toast.success(`已领用备件，领料出库单 ${r.docNo} 已过账`);
      invalidateResource(client, 'maintenance-record');
      invalidateResource(client, 'stock-outbound');
      form.resetFields();
      onClose();
    },
    onError: (e: ApiError) => toast.error(e.message),
  });
  return (
    <Modal
      open={record !== undefined}
      title={`领用备件：${record?.docNo ?? ''}`}
      width={640}
      okText="领用并过账"
      confirmLoading={issue.isPending}
      onOk={() => void form.validateFields().then((v) => issue.mutate(v))}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ lines: [{}] }} data-testid="spare-parts-form">
        <Form.Item name="warehouseId" label="仓库" rules={[{ required: true, message: '请选择仓库' }]}>
          <RefSelect
            field={{ name: 'warehouseId', label: '仓库', kind: 'ref', ref: 'warehouse-management' }}
          />
        </Form.Item>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[f.name, 'materialId']}
                    rules={[{ required: true, message: '请选择备件' }]}
                    style={{ width: 360 }}
                  >
                    <RefSelect
                      field={{ name: 'materialId', label: '备件', kind: 'ref', ref: 'material-info' }}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'quantity']} rules={[{ required: true, message: '请填写数量' }]}>
                    <InputNumber min={0.0001} placeholder="数量" />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button type="link" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} />
                  )}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
                添加备件
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** 查看保养: every maintenance record, searchable by plan, equipment, person and date; 领用备件 on each. */
export function MaintenanceRecordsPage(_props: ResourcePageProps) {
  const can = usePermission();
  const [issuing, setIssuing] = useState<ResourceRow>();
  return (
    <div className="rk-list-page" data-testid="page-maintenance-record">
      <ResourceList
        def={maintenanceRecordResource}
        rowActions={(row) =>
          !row.outboundId &&
          can('factory:maintenance:edit') && (
            <Button type="link" size="small" icon={<ShoppingCartOutlined />} onClick={() => setIssuing(row)}>
              领用备件
            </Button>
          )
        }
        rowActionsWidth={110}
      />
      <SparePartsModal record={issuing} onClose={() => setIssuing(undefined)} />
    </div>
  );
}
