import './equipment.css';
import {
  CHECK_RESULT_OPTIONS,
  type EnumOption,
  EQUIPMENT_FAULT_OPTIONS,
  EQUIPMENT_REPAIR_LIFECYCLE,
  equipmentRepairResource,
  SHIFT_OPTIONS,
} from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Statistic, Table, Tabs, Tag, Tooltip } from 'antd';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { formatTime } from '../../../platform/lib/time.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../../platform/resource/routes.ts';
import { MachineOee } from './oee-board.tsx';

type Row = Record<string, any> & { id: number };

export interface EquipmentCare {
  faultState: string;
  repairs: Row[];
  maintenance: Row[];
  checks: Row[];
  stats: {
    periodDays: string;
    failures: number;
    repaired: number;
    downtimeMinutes: string;
    mttrMinutes: string | null;
    mtbfHours: string | null;
  };
}

export function EnumTag({ options, value }: { options: EnumOption[]; value: string | null | undefined }) {
  const o = options.find((x) => x.value === value);
  return o ? <Tag color={o.color}>{o.label}</Tag> : <span className="rm-muted">-</span>;
}

/** 设备台账详情: the ledger fields, then its repairs, maintenance and checks with MTBF and MTTR, and its OEE. */
export function EquipmentDetailPage(props: ResourcePageProps) {
  const can = usePermission();
  return (
    <ResourceDetailPage
      {...props}
      sections={(row) => (
        <>
          <CareSection equipment={row} />
          {can('factory:oee:query') && <MachineOee equipmentId={Number(row.id)} />}
        </>
      )}
    />
  );
}

function CareSection({ equipment }: { equipment: ResourceRow }) {
  const can = usePermission();
  const care = useQuery({
    queryKey: ['resource', 'equipment', 'care', equipment.id, equipment.version],
    queryFn: () => http.get<EquipmentCare>(`/api/v1/equipment/care/${equipment.id}`),
  });
  const data = care.data;
  const s = data?.stats;
  const repairDetail = resourceRoutes(equipmentRepairResource).detail as string;
  const canRepair = can('factory:repair:list');
  return (
    <div className="rk-form-section" data-testid="equipment-care">
      <div className="rk-form-section-title">设备履历</div>
      <div className="eq-stats">
        <Statistic
          title="运行状况"
          valueRender={() => <EnumTag options={EQUIPMENT_FAULT_OPTIONS} value={data?.faultState} />}
        />
        <Statistic title="故障次数" value={s?.failures ?? '-'} />
        <Statistic
          title={
            <Tooltip title="(统计期 − 停机时长) ÷ 故障次数；统计期为近 365 天（设备购置或首次报修晚于此时从那时起算）">
              MTBF（小时）
            </Tooltip>
          }
          value={s?.mtbfHours ?? '-'}
        />
        <Statistic
          title={<Tooltip title="已修复故障的平均停机时长（报修到维修完成）">MTTR（分钟）</Tooltip>}
          value={s?.mttrMinutes ?? '-'}
        />
        <Statistic title="累计停机（分钟）" value={s?.downtimeMinutes ?? '-'} />
        <Statistic title="统计天数" value={s?.periodDays ?? '-'} />
      </div>
      <Tabs
        items={[
          {
            key: 'repairs',
            label: `维修记录（${data?.repairs.length ?? 0}）`,
            children: (
              <Table<Row>
                rowKey="id"
                size="small"
                loading={care.isFetching}
                dataSource={data?.repairs ?? []}
                pagination={false}
                scroll={{ x: 'max-content' }}
                data-testid="care-repairs"
                columns={[
                  {
                    title: '报修单号',
                    dataIndex: 'docNo',
                    width: 150,
                    render: (v, r) =>
                      canRepair ? (
                        <Button type="link" size="small" onClick={() => openResourcePage(repairDetail, r.id)}>
                          {v}
                        </Button>
                      ) : (
                        v
                      ),
                  },
                  {
                    title: '状态',
                    dataIndex: 'status',
                    width: 80,
                    render: (v) => <EnumTag options={EQUIPMENT_REPAIR_LIFECYCLE.states} value={v} />,
                  },
                  { title: '故障描述', dataIndex: 'faultDescription', width: 240, ellipsis: true },
                  { title: '报修人', dataIndex: 'reporterName', width: 80 },
                  { title: '报修时间', dataIndex: 'reportedAt', width: 160, render: (v) => formatTime(v) },
                  { title: '维修人', dataIndex: 'assigneeName', width: 80 },
                  { title: '修复时间', dataIndex: 'repairedAt', width: 160, render: (v) => formatTime(v) },
                  { title: '停机(分钟)', dataIndex: 'downtimeMinutes', width: 90, align: 'right' },
                  { title: '维修内容', dataIndex: 'repairContent', width: 200, ellipsis: true },
                ]}
              />
            ),
          },
          {
            key: 'maintenance',
            label: `保养记录（${data?.maintenance.length ?? 0}）`,
            children: (
              <Table<Row>
                rowKey="id"
                size="small"
                loading={care.isFetching}
                dataSource={data?.maintenance ?? []}
                pagination={false}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: '保养日期', dataIndex: 'doneDate', width: 110 },
                  { title: '保养项目', dataIndex: 'planName', width: 140 },
                  { title: '保养内容', dataIndex: 'content', width: 260, ellipsis: true },
                  { title: '用时(分钟)', dataIndex: 'minutes', width: 90, align: 'right' },
                  { title: '保养人', dataIndex: 'doneByName', width: 90 },
                  { title: '备注', dataIndex: 'remark', width: 160, ellipsis: true },
                ]}
              />
            ),
          },
          {
            key: 'checks',
            label: `点检记录（${data?.checks.length ?? 0}）`,
            children: (
              <Table<Row>
                rowKey="id"
                size="small"
                loading={care.isFetching}
                dataSource={data?.checks ?? []}
                pagination={false}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: '点检日期', dataIndex: 'checkDate', width: 110 },
                  {
                    title: '班次',
                    dataIndex: 'shift',
                    width: 70,
                    render: (v) => <EnumTag options={SHIFT_OPTIONS} value={v} />,
                  },
                  { title: '点检表', dataIndex: 'checklistName', width: 160 },
                  {
                    title: '结果',
                    dataIndex: 'result',
                    width: 70,
                    render: (v) => <EnumTag options={CHECK_RESULT_OPTIONS} value={v} />,
                  },
                  { title: 'NG项目', dataIndex: 'ngItems', width: 200, ellipsis: true },
                  { title: '点检人', dataIndex: 'checkerName', width: 90 },
                ]}
              />
            ),
          },
        ]}
      />
    </div>
  );
}
