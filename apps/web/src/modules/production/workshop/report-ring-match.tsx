import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { formatTime } from '../../../platform/lib/time.ts';

interface MatchSet {
  id: number;
  lineNo: number;
  innerGroup: string;
  outerGroup: string;
  ballGradeUm: number;
  clearanceLowUm: number;
  clearanceHighUm: number;
  count: number;
  lots: { role: 'inner' | 'outer'; cardNo: string; count: number }[] | null;
}
interface Match {
  id: number;
  clearanceGroup: string;
  clearanceMin: number;
  clearanceMax: number;
  groupWidthUm: number;
  assembled: number;
  createdAt: string;
  cardNo: string | null;
  workReportNo: string | null;
  bearingCode: string;
  createdByName: string | null;
  sets: MatchSet[];
}

const signed = (v: number) => (v > 0 ? `+${v}` : String(v));
const lotsOf = (s: MatchSet, role: 'inner' | 'outer') =>
  (s.lots ?? [])
    .filter((l) => l.role === role)
    .map((l) => `${l.cardNo}×${l.count}`)
    .join('、');

/**
 * 选配 on an assembly 报工 (issue 38 §4): which inner and outer ring lots, in which size groups and
 * with which ball grade, went into the bearings this report records (`GET
 * /api/v1/ring-matching/by-report/:id`), so the report shows its match as the trace does.
 */
export function ReportRingMatchButton({ reportId, docNo }: { reportId: number; docNo: string }) {
  const [open, setOpen] = useState(false);
  const matches = useQuery({
    queryKey: ['ring-matching', 'by-report', reportId],
    enabled: open,
    queryFn: () => http.get<Match[]>(`/api/v1/ring-matching/by-report/${reportId}`),
  });
  return (
    <>
      <Button
        type="link"
        size="small"
        onClick={() => setOpen(true)}
        data-testid={`report-ring-match-${reportId}`}
      >
        选配
      </Button>
      {open && (
        <Modal
          open
          width={900}
          title={`报工单 ${docNo} 的选配`}
          footer={null}
          onCancel={() => setOpen(false)}
        >
          {matches.data && !matches.data.length && <Empty description="该报工未记入选配" />}
          {(matches.data ?? []).map((m) => (
            <div key={m.id} style={{ marginBottom: 16 }} data-testid="report-ring-match">
              <Space wrap style={{ marginBottom: 8 }}>
                <Tag color="blue">{m.bearingCode}</Tag>
                <span>
                  {m.clearanceGroup} 游隙 {m.clearanceMin} ~ {m.clearanceMax} µm，分组 {m.groupWidthUm} µm
                </span>
                <span>流转卡 {m.cardNo ?? '—'}</span>
                <span>配成 {m.assembled} 套</span>
                <span className="rm-muted">
                  {m.createdByName ?? ''} {formatTime(m.createdAt)}
                </span>
              </Space>
              <Table<MatchSet>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={m.sets}
                columns={[
                  { title: '行', dataIndex: 'lineNo', width: 50 },
                  { title: '内圈组（mm）', dataIndex: 'innerGroup' },
                  { title: '外圈组（mm）', dataIndex: 'outerGroup' },
                  { title: '钢球规值', width: 90, render: (_, s) => `${signed(s.ballGradeUm)} µm` },
                  {
                    title: '游隙（µm）',
                    width: 110,
                    render: (_, s) => `${s.clearanceLowUm} ~ ${s.clearanceHighUm}`,
                  },
                  { title: '套数', dataIndex: 'count', width: 70, align: 'right' },
                  { title: '内圈批次', render: (_, s) => lotsOf(s, 'inner') },
                  { title: '外圈批次', render: (_, s) => lotsOf(s, 'outer') },
                ]}
              />
            </div>
          ))}
        </Modal>
      )}
    </>
  );
}
