import { useQuery } from '@tanstack/react-query';
import { Empty, Table, Tag } from 'antd';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';

interface Measurement {
  id: number;
  characteristicName: string;
  measuredAt: string;
  sampleSize: number;
  mean: string;
  range: string;
  lsl: string | null;
  usl: string | null;
  outOfControl: boolean;
  equipmentName: string;
  operatorName: string | null;
  values: string;
}

/**
 * 测量记录 of a flow card: the subgroups measured on its rings (newest first), so the genealogy of
 * a bearing reaches its measured values.
 */
export function FlowCardMeasurements({ id }: { id: number }) {
  const can = usePermission();
  const allowed = can(['production:order:list', 'measure:outsideDiameter:list']);
  const q = useQuery({
    queryKey: ['flow-card', 'measurements', id],
    queryFn: () => http.get<Measurement[]>(`/api/v1/flow-card/measurements/${id}`),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = q.data ?? [];
  return (
    <div className="rk-form-section" data-testid="flow-card-measurements">
      <div className="rk-form-section-title">
        测量记录<span className="rk-count">{rows.length}</span>
      </div>
      {q.data && !rows.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该卡没有测量记录" />
      ) : (
        <Table<Measurement>
          size="small"
          rowKey="id"
          loading={q.isLoading}
          dataSource={rows}
          pagination={rows.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: '测量时间',
              dataIndex: 'measuredAt',
              width: 160,
              render: (v: string) => new Date(v).toLocaleString('zh-CN', { hour12: false }),
            },
            { title: '特性', dataIndex: 'characteristicName', width: 90 },
            { title: '机台', dataIndex: 'equipmentName', width: 120 },
            { title: '操作工', dataIndex: 'operatorName', width: 80 },
            { title: '测量值', dataIndex: 'values', width: 260 },
            { title: '均值', dataIndex: 'mean', width: 100 },
            { title: '极差', dataIndex: 'range', width: 90 },
            {
              title: '规格',
              key: 'spec',
              width: 150,
              render: (_: unknown, r) => (r.lsl || r.usl ? `${r.lsl ?? '-'} ~ ${r.usl ?? '-'}` : '-'),
            },
            {
              title: '判定',
              dataIndex: 'outOfControl',
              width: 70,
              render: (v: boolean) => (v ? <Tag color="red">失控</Tag> : <Tag color="green">受控</Tag>),
            },
          ]}
        />
      )}
    </div>
  );
}
