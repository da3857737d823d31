import { RollbackOutlined } from '@ant-design/icons';
import { OUTSOURCING_ORDER_LIFECYCLE, STOCK_DOC_STATUS } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Empty, Popconfirm, Space, Spin, Table, Tag, Timeline } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { INBOUND, OUTBOUND, qty, type Row, typePaths } from '../warehouse/warehouse.api.ts';
import { FlowCardDrawer } from './flow-card/index.ts';

export const PRODUCE_OUTSOURCING = '/production-department/produce-outsourcing';
const ORDER_DETAIL = '/purchase/outsourcing-manage-info';
const PRODUCTION_ORDER_DETAIL = '/production-department/production-manage/produce-order-detail';
const OUTBOUND_DETAIL = typePaths(OUTBOUND, 'outsourcing').detail;
const INBOUND_DETAIL = typePaths(INBOUND, 'outsourced').detail;

const STATE: Record<string, [string, string]> = {
  waiting: ['待发出', 'orange'],
  out: ['在外', 'blue'],
  done: ['已收回', 'green'],
};
const ACTION: Record<string, [string, string]> = {
  send: ['发出', 'blue'],
  return: ['收回', 'green'],
  'write-off': ['差异核销', 'red'],
};
const PAYABLE_STATUS: Record<string, string> = {
  open: '未付',
  partly: '部分付款',
  settled: '已付清',
  reversed: '已冲销',
};

const docTag = (status: string) => {
  const s = STOCK_DOC_STATUS.find((x) => x.value === status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
};
const orderTag = (status: string) => {
  const s = OUTSOURCING_ORDER_LIFECYCLE.states.find((x) => x.value === status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
};
const link = (text: string, path: string, id: number) => (
  <Button type="link" size="small" style={{ padding: 0 }} onClick={() => openResourcePage(path, id)}>
    {text}
  </Button>
);
const weight = (v: string | null | undefined) => (v != null && Number(v) > 0 ? `${qty(v)} kg` : '—');

/**
 * 生产委外详情 (`?id=` the card step): a card's outsourced step (热处理) — card, product, supplier,
 * sent and returned quantities and weights, hardness, the difference and its 差异核销 — with the
 * 委外订单 it went on, every 发出 / 收回 / 核销 with its 委外发料出库 / 委外入库 and payable, and
 * the timeline. 撤销 takes the card's last 发出 or 收回 back.
 */
export function ProduceOutsourcingInfoPage(_: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const can = usePermission();
  const client = useQueryClient();
  const [viewing, setViewing] = useState<number>();
  const info = useQuery({
    queryKey: ['resource', 'flow-card', 'outsourced-info', id],
    enabled: id !== undefined,
    queryFn: () => http.get<Row>(`/api/v1/flow-card/outsourced-info/${id}`),
  });
  const undo = useMutation({
    mutationFn: (cardId: number) => http.post(`/api/v1/flow-card/outsource/${cardId}`, { action: 'undo' }),
    onSuccess: () => {
      toast.success('已撤销，相关单据已冲销');
      void client.invalidateQueries({ queryKey: ['resource', 'flow-card'] });
      void client.invalidateQueries({ queryKey: ['resource', 'outsourcing-order'] });
    },
  });
  if (id === undefined)
    return (
      <PageCard title="生产委外详情">
        <Empty description="请从生产委外页面选择流转卡的委外工序">
          <Button onClick={() => openResourcePage(PRODUCE_OUTSOURCING)}>返回生产委外</Button>
        </Empty>
      </PageCard>
    );
  const d = info.data;
  const moves: Row[] = d?.movements ?? [];
  const standing = moves.filter((m) => !m.reversedAt);
  const last = standing[standing.length - 1];
  const undoable =
    d?.cardStatus === 'open' &&
    last &&
    last.action !== 'write-off' &&
    can(['production:outsourcing:edit', 'production:order:dispatch']);
  const difference = Number(d?.difference ?? 0);
  const reconciliation =
    difference <= 0
      ? '无差异'
      : Number(d?.outQuantity) > 0
        ? `待收回或核销 ${qty(d?.outQuantity)}`
        : `已核销 ${qty(d?.writtenOff)}（计料废）`;
  return (
    <PageCard
      title={d ? `生产委外详情 · ${d.cardNo} 第 ${d.seq} 道 ${d.processName}` : '生产委外详情'}
      extra={
        <Space>
          {d && <Button onClick={() => setViewing(d.cardId)}>查看流转卡</Button>}
          {undoable && (
            <Popconfirm
              title="撤销最近一次委外操作"
              description={`撤销${ACTION[last.action][0]} ${qty(last.quantity)}，冲销其${last.action === 'send' ? '委外发料出库' : '委外入库及应付'}。确定撤销？`}
              okText="撤销"
              cancelText="取消"
              onConfirm={() => undo.mutateAsync(d.cardId).catch(() => undefined)}
            >
              <Button icon={<RollbackOutlined />} danger loading={undo.isPending}>
                撤销{ACTION[last.action][0]}
              </Button>
            </Popconfirm>
          )}
          <Button onClick={() => openResourcePage(PRODUCE_OUTSOURCING)}>返回</Button>
        </Space>
      }
    >
      {info.isLoading && <Spin />}
      {d && (
        <>
          <Descriptions bordered size="small" column={3} data-testid="outsourcing-info">
            <Descriptions.Item label="流转卡">
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setViewing(d.cardId)}>
                {d.cardNo}
              </Button>
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <Tag color={STATE[d.state]?.[1]}>{STATE[d.state]?.[0]}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="生产订单">
              {link(d.productionOrderNo, PRODUCTION_ORDER_DETAIL, d.productionOrderId)}
            </Descriptions.Item>
            <Descriptions.Item label="产品">
              {[d.productCode, d.productName, d.productSpec].filter(Boolean).join(' ')}
            </Descriptions.Item>
            <Descriptions.Item label="炉号">{d.heatNo ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="委外工序">{`${d.seq} ${d.processName}`}</Descriptions.Item>
            <Descriptions.Item label="委外供应商">{d.supplierName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="委外订单" span={2}>
              {(d.orders as Row[]).length ? (
                <Space size="small" wrap>
                  {(d.orders as Row[]).map((o) => (
                    <span key={o.lineId}>{link(o.docNo, ORDER_DETAIL, o.id)}</span>
                  ))}
                </Space>
              ) : (
                '—'
              )}
            </Descriptions.Item>
            <Descriptions.Item label="到达数量">{qty(d.inputQuantity)}</Descriptions.Item>
            <Descriptions.Item label="发出数量">{qty(d.sentQuantity)}</Descriptions.Item>
            <Descriptions.Item label="发出重量">{weight(d.sentWeight)}</Descriptions.Item>
            <Descriptions.Item label="收回数量">{qty(d.returnedQuantity)}</Descriptions.Item>
            <Descriptions.Item label="收回重量">{weight(d.returnedWeight)}</Descriptions.Item>
            <Descriptions.Item label="硬度(HRC)">
              {standing.filter((m) => m.action === 'return' && m.hardnessHrc).length
                ? standing
                    .filter((m) => m.action === 'return' && m.hardnessHrc)
                    .map((m) => m.hardnessHrc)
                    .join('、')
                : (d.hardnessHrc ?? '—')}
            </Descriptions.Item>
            <Descriptions.Item label="差异（发出 − 收回）">{qty(d.difference)}</Descriptions.Item>
            <Descriptions.Item label="差异核销">{reconciliation}</Descriptions.Item>
            <Descriptions.Item label="在外">{qty(d.outQuantity)}</Descriptions.Item>
            <Descriptions.Item label="发出时间">{d.inTime ? formatTime(d.inTime) : '—'}</Descriptions.Item>
            <Descriptions.Item label="收回时间">{d.outTime ? formatTime(d.outTime) : '—'}</Descriptions.Item>
          </Descriptions>

          <div className="rk-form-section" data-testid="outsourcing-orders">
            <div className="rk-form-section-title">
              委外订单<span className="rk-count">{(d.orders as Row[]).length}</span>
            </div>
            <Table<Row>
              rowKey="lineId"
              size="small"
              bordered
              pagination={false}
              dataSource={d.orders}
              locale={{ emptyText: '还没有发出' }}
              columns={[
                { title: '订单编号', dataIndex: 'docNo', render: (v, o) => link(v, ORDER_DETAIL, o.id) },
                { title: '状态', dataIndex: 'status', render: orderTag },
                { title: '来源', dataIndex: 'orderCreated', render: (v) => (v ? '发出时生成' : '采购订单') },
                { title: '订单数量', dataIndex: 'quantity', align: 'right', render: qty },
                {
                  title: '加工单价(元)',
                  dataIndex: 'unitPrice',
                  align: 'right',
                  render: (v) => Number(v).toFixed(2),
                },
                { title: '已发料', dataIndex: 'sentQuantity', align: 'right', render: qty },
                { title: '已收回', dataIndex: 'receivedQuantity', align: 'right', render: qty },
              ]}
            />
          </div>

          <div className="rk-form-section" data-testid="outsourcing-documents">
            <div className="rk-form-section-title">
              委外单据<span className="rk-count">{moves.length}</span>
            </div>
            <Table<Row>
              rowKey="id"
              size="small"
              bordered
              pagination={false}
              dataSource={moves}
              locale={{ emptyText: '还没有发出或收回' }}
              columns={[
                { title: '时间', dataIndex: 'createdAt', width: 170, render: (v) => formatTime(v) },
                {
                  title: '操作',
                  dataIndex: 'action',
                  width: 100,
                  render: (v) => <Tag color={ACTION[v]?.[1]}>{ACTION[v]?.[0]}</Tag>,
                },
                { title: '数量', dataIndex: 'quantity', align: 'right', width: 100, render: qty },
                { title: '重量', dataIndex: 'weight', align: 'right', width: 110, render: weight },
                { title: '硬度(HRC)', dataIndex: 'hardnessHrc', width: 90, render: (v) => v ?? '—' },
                {
                  title: '委外订单',
                  dataIndex: 'outsourcingOrderNo',
                  render: (v, m) => link(v, ORDER_DETAIL, m.outsourcingOrderId),
                },
                {
                  title: '出入库单',
                  render: (_, m) =>
                    m.stockOutboundId ? (
                      <Space size={4}>
                        委外发料出库 {link(m.stockOutboundNo, OUTBOUND_DETAIL, m.stockOutboundId)}
                        {docTag(m.stockOutboundStatus)}
                      </Space>
                    ) : m.stockInboundId ? (
                      <Space size={4}>
                        委外入库 {link(m.stockInboundNo, INBOUND_DETAIL, m.stockInboundId)}
                        {docTag(m.stockInboundStatus)}
                      </Space>
                    ) : (
                      '计料废，不生成单据'
                    ),
                },
                {
                  title: '应付',
                  render: (_, m) =>
                    m.payableNo
                      ? `${m.payableNo} ¥${Number(m.payableAmount).toFixed(2)} ${PAYABLE_STATUS[m.payableStatus] ?? m.payableStatus}`
                      : '—',
                },
                { title: '操作人', dataIndex: 'createdByName', width: 100 },
                {
                  title: '撤销',
                  dataIndex: 'reversedAt',
                  width: 190,
                  render: (v, m) => (v ? `${formatTime(v)} ${m.reversedByName ?? ''}` : '—'),
                },
              ]}
            />
          </div>

          <div className="rk-form-section" data-testid="outsourcing-timeline">
            <div className="rk-form-section-title">时间线</div>
            <Timeline items={timeline(d)} />
          </div>
        </>
      )}
      <FlowCardDrawer id={viewing} onClose={() => setViewing(undefined)} />
    </PageCard>
  );
}

/** Every move and every 撤销, oldest first. */
function timeline(d: Row) {
  const events: { at: string; color: string; text: string }[] = [];
  for (const m of d.movements as Row[]) {
    const doc = m.stockOutboundNo ?? m.stockInboundNo;
    const what =
      m.action === 'send'
        ? `发出 ${qty(m.quantity)}${m.weight ? `（${qty(m.weight)} kg）` : ''} 至 ${d.supplierName ?? '供应商'}，委外订单 ${m.outsourcingOrderNo}，委外发料出库 ${doc}`
        : m.action === 'return'
          ? `收回 ${qty(m.quantity)}${m.hardnessHrc ? `，硬度 HRC ${m.hardnessHrc}` : ''}，委外入库 ${doc}${m.payableNo ? `，应付 ${m.payableNo}` : ''}`
          : `差异核销 ${qty(m.quantity)}，计料废`;
    events.push({ at: m.createdAt, color: ACTION[m.action][1], text: `${what}（${m.createdByName ?? ''}）` });
    if (m.reversedAt) {
      events.push({
        at: m.reversedAt,
        color: 'gray',
        text: `撤销${ACTION[m.action][0]} ${qty(m.quantity)}${doc ? `，冲销 ${doc}` : ''}（${m.reversedByName ?? ''}）`,
      });
    }
  }
  return events
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((e) => ({ color: e.color, children: `${formatTime(e.at)} ${e.text}` }));
}
