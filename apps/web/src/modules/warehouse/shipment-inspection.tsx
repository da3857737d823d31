import { SafetyCertificateOutlined } from '@ant-design/icons';
import {
  INSPECTION_TASK_LIFECYCLE,
  type InspectionCategory,
  inspectionCategory,
  inspectionPaths,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { menuModel } from '../../platform/menu/menu-model.ts';
import { useRereadWhenShown } from '../../platform/page-shown.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { useUser } from '../../platform/session.ts';
import { Dash } from './shared.tsx';
import type { Row } from './warehouse.api.ts';

/** 出货检验 of a 销售出库 on its detail: the tasks and their state, and 生成出货检验 on a draft. */

const SHIPMENT_INSPECTION = inspectionPaths(inspectionCategory('shipment') as InspectionCategory);
const inspectionsOf = (outboundId: number) => ['resource', 'inspection-task', 'for-outbound', outboundId];

/** A task not judged yet (待检验, 检验中): the outbound follows it until it is. */
const UNJUDGED = ['pending', 'inspecting'];
const JUDGMENT_POLL_MS = 5_000;

/** Who follows a 销售出库's inspections: who reads sales outbounds, or shipment inspections. */
const READS_INSPECTIONS = [
  'warehouse:salesOutbound:list',
  'warehouse:outbound:list',
  'quality:shipment:list',
];

/**
 * 出货检验 of a 销售出库: its tasks with their state (the shipment gate of 系统设置 waits for them
 * to pass), each opening its task where the user may.
 */
export function ShipmentInspections({ row }: { row: Row }) {
  const can = usePermission();
  const user = useUser();
  const follows = READS_INSPECTIONS.some((p) => can(p));
  const tasks = useQuery({
    queryKey: inspectionsOf(row.id),
    queryFn: () => http.get<Row[]>(`/api/v1/inspection-task/for-outbound/${row.id}`),
    enabled: follows,
    // The verdict is the inspector's, on another desk: while a task waits for it, the keeper's open
    // outbound reads it again every few seconds (and at once when he comes back to the tab), so
    // 合格 shows without 刷新 and 过账 follows.
    refetchInterval: (q) =>
      (q.state.data ?? []).some((t) => UNJUDGED.includes(String(t.status))) ? JUDGMENT_POLL_MS : false,
  });
  useRereadWhenShown(() => follows && tasks.refetch());
  if (!tasks.data) return <Dash />;
  if (!tasks.data.length) return <span data-testid="outbound-inspections">未生成</span>;
  const opens = Boolean(user && menuModel(user).canVisit(SHIPMENT_INSPECTION.detail));
  return (
    <Space wrap size={[12, 4]} data-testid="outbound-inspections">
      {tasks.data.map((t) => {
        const state = INSPECTION_TASK_LIFECYCLE.states.find((x) => x.value === t.status);
        return (
          <span key={t.id}>
            {opens ? (
              <a onClick={() => openResourcePage(SHIPMENT_INSPECTION.detail, t.id)}>{t.docNo}</a>
            ) : (
              t.docNo
            )}{' '}
            {t.productName} <Tag color={state?.color}>{state?.label ?? t.status}</Tag>
          </span>
        );
      })}
    </Space>
  );
}

/**
 * 生成出货检验 on a 销售出库 draft: one 出货检验 task per material not yet covered (the
 * shipment gate of 系统设置 waits for them to pass). The keeper raises it and follows it on the
 * outbound; quality, who may open the task, goes to it.
 */
export function ShipmentInspectionButton({ row }: { row: Row }) {
  const can = usePermission();
  const user = useUser();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const raises = can('quality:shipment:add') || can('warehouse:salesOutbound:requestInspection');
  if (row.type !== 'sales' || row.status !== 'draft' || !raises) return null;
  const make = async () => {
    setBusy(true);
    try {
      const r = await http.post<{ ids: number[] }>(`/api/v1/inspection-task/for-outbound/${row.id}`, {});
      await client.invalidateQueries({ queryKey: inspectionsOf(row.id) });
      if (!r.ids.length) toast.warning('本单的物料都已有出货检验单');
      else if (user && menuModel(user).canVisit(SHIPMENT_INSPECTION.detail)) {
        toast.success(`已生成 ${r.ids.length} 张出货检验单`);
        openResourcePage(SHIPMENT_INSPECTION.detail, r.ids[0]);
      } else toast.success(`已生成 ${r.ids.length} 张出货检验单，已通知质检员；检验合格后即可过账`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<SafetyCertificateOutlined />} loading={busy} onClick={make}>
      生成出货检验
    </Button>
  );
}
