import './equipment.css';
import { ToolOutlined } from '@ant-design/icons';
import { maintenanceRecordResource } from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
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

/** 查看保养: every maintenance record, searchable by plan, equipment, person and date. */
export function MaintenanceRecordsPage(_props: ResourcePageProps) {
  return (
    <div className="rk-list-page" data-testid="page-maintenance-record">
      <ResourceList def={maintenanceRecordResource} />
    </div>
  );
}
