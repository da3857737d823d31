import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Space, Table, Tag, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import type { PageProps } from '../../../platform/page.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import { kindOf, type Row } from './workshop.api.ts';

const age = (days: number | null) =>
  days == null ? '—' : <Tag color={days > 7 ? 'red' : days > 3 ? 'orange' : 'green'}>{days} 天</Tag>;

/**
 * 半成品 of a workshop: what it finished and the next workshop (or the heat-treatment supplier)
 * has not taken yet, by card, with its age; totals by product and step on top.
 */
export function SemiFinishedPage({ path }: PageProps) {
  const kind = kindOf(path);
  const [text, setText] = useState('');
  const data = useQuery({
    queryKey: ['resource', 'flow-card', 'semi', kind.type],
    queryFn: () => http.get<{ list: Row[] }>('/api/v1/flow-card/semi', { workshopType: kind.type }),
  });
  const rows = useMemo(() => {
    const w = text.trim().toLowerCase();
    return (data.data?.list ?? []).filter(
      (r) =>
        !w ||
        [r.cardNo, r.orderNo, r.productCode, r.productName, r.productSpec, r.nextProcess, r.heatNo]
          .join(' ')
          .toLowerCase()
          .includes(w),
    );
  }, [data.data, text]);
  const total = rows.reduce((s, r) => s + Number(r.quantity), 0);
  return (
    <PageCard
      title={`${kind.label} · 半成品`}
      extra={
        <Space>
          <Input.Search
            placeholder="卡号、订单、产品、工序、炉号"
            allowClear
            onSearch={setText}
            style={{ width: 260 }}
          />
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => data.refetch()} />
          </Tooltip>
        </Space>
      }
    >
      <div style={{ marginBottom: 8 }} data-testid="semi-total">
        共 {rows.length} 张卡，待下道接收 <b>{qty(total)}</b> 件
      </div>
      <Table<Row>
        rowKey={(r) => `${r.cardId}-${r.nextSeq}`}
        size="middle"
        loading={data.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 50, showTotal: (n) => `共 ${n} 条` }}
        columns={[
          { title: '流转卡', dataIndex: 'cardNo', width: 150 },
          { title: '生产订单', dataIndex: 'orderNo', width: 150 },
          {
            title: '产品',
            render: (_, r) => (
              <span>
                {r.productName} <span className="ws-muted">{r.productSpec}</span>
              </span>
            ),
          },
          { title: '炉号', dataIndex: 'heatNo', width: 100 },
          { title: '完成工序', width: 130, render: (_, r) => `${r.doneSeq} ${r.doneProcess}` },
          {
            title: '下道工序',
            width: 170,
            render: (_, r) => `${r.nextSeq} ${r.nextProcess}（${r.nextWorkshop ?? '—'}）`,
          },
          { title: '数量', dataIndex: 'quantity', width: 100, align: 'right', render: (v) => qty(v) },
          {
            title: '完成时间',
            dataIndex: 'finishedAt',
            width: 170,
            render: (v) => (v ? formatTime(v) : '—'),
          },
          {
            title: '库龄',
            dataIndex: 'ageDays',
            width: 90,
            sorter: (a, b) => (a.ageDays ?? 0) - (b.ageDays ?? 0),
            render: age,
          },
        ]}
      />
    </PageCard>
  );
}
