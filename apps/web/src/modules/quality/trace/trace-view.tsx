import {
  FLOW_CARD_LIFECYCLE,
  FLOW_CARD_LINK_KINDS,
  INBOUND_TYPES,
  INSPECTION_RESULT_OPTIONS,
  INSPECTION_TASK_LIFECYCLE,
  inspectionCategory,
  inspectionPaths,
  OUTBOUND_TYPES,
  REPORT_CHECK_KINDS,
  WORK_REPORT_LIFECYCLE,
} from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Collapse, Descriptions, Empty, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatTime } from '../../../platform/lib/time.ts';
import { menuModel } from '../../../platform/menu/menu-model.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { useUser } from '../../../platform/session.ts';
import { INBOUND, OUTBOUND, qty, typePaths } from '../../warehouse/warehouse.api.ts';
import {
  type CardTrace,
  type HeatTrace,
  type OutboundTrace,
  type TraceCard,
  type TraceLink,
  type TraceReceipt,
  type TraceShipment,
  traceApi,
  traceKeys,
} from './trace.api.ts';
import './trace.css';

/**
 * 质量追溯 views (issue 35): a card back to the steel (`CardTraceView`, the flow-card drawer's
 * 质量追溯 section too), a heat forward to the customers (`HeatTraceView`), an outbound document's
 * batches back to their cards (`OutboundTraceView`). `onOpenCard` opens a card (its drawer).
 */

const label = (options: { value: string; label: string }[], v: string | null | undefined) =>
  options.find((o) => o.value === v)?.label ?? v ?? '';
const color = (options: { value: string; color?: string }[], v: string | null | undefined) =>
  options.find((o) => o.value === v)?.color;
const Dash = () => <span className="rm-muted">-</span>;
const num = (v: string | null | undefined) => (v == null ? '-' : qty(v));

/** A link to a page when the user may open it, else the plain text. */
function PageLink({ path, id, children }: { path: string; id: number; children: ReactNode }) {
  const user = useUser();
  if (!user || !menuModel(user).canVisit(path)) return <>{children}</>;
  return <Typography.Link onClick={() => openResourcePage(path, id)}>{children}</Typography.Link>;
}

function CardLink({
  card,
  onOpenCard,
}: {
  card: { id: number; docNo: string };
  onOpenCard?: (id: number) => void;
}) {
  return onOpenCard ? (
    <Typography.Link className="tr-mono" onClick={() => onOpenCard(card.id)}>
      {card.docNo}
    </Typography.Link>
  ) : (
    <span className="tr-mono">{card.docNo}</span>
  );
}

export function HeatTags({ heats }: { heats: string[] }) {
  if (!heats.length) return <Dash />;
  return (
    <Space size={4} wrap>
      {heats.map((h) => (
        <Tag key={h} color="volcano" className="tr-mono" data-testid="trace-heat">
          {h}
        </Tag>
      ))}
    </Space>
  );
}

function InspectionTag({ i }: { i: { id: number; docNo: string; status: string; category: string } }) {
  const cat = inspectionCategory(i.category);
  const text = (
    <Tag color={color(INSPECTION_TASK_LIFECYCLE.states, i.status)}>
      {i.docNo} {label(INSPECTION_TASK_LIFECYCLE.states, i.status)}
    </Tag>
  );
  return cat ? (
    <PageLink path={inspectionPaths(cat).view} id={i.id}>
      {text}
    </PageLink>
  ) : (
    text
  );
}

/** 炉号 / batch receipts: 入库单, type, date, supplier, quantity, 来料检验. */
function ReceiptTable({ rows, testId }: { rows: TraceReceipt[]; testId?: string }) {
  return (
    <Table<TraceReceipt>
      size="small"
      rowKey={(r) => `${r.inboundId}-${r.materialId}-${r.batchNo}`}
      pagination={false}
      dataSource={rows}
      data-testid={testId}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '未找到该批次的入库记录' }}
      columns={[
        {
          title: '炉号/批次',
          dataIndex: 'batchNo',
          width: 120,
          render: (v) => <span className="tr-mono">{v}</span>,
        },
        { title: '物料', dataIndex: 'materialName', width: 160 },
        {
          title: '入库单',
          dataIndex: 'docNo',
          width: 150,
          render: (v, r) => (
            <PageLink path={typePaths(INBOUND, r.type).detail} id={r.inboundId}>
              {v}
            </PageLink>
          ),
        },
        { title: '类型', dataIndex: 'type', width: 90, render: (v) => label(INBOUND_TYPES, v) },
        { title: '日期', dataIndex: 'bizDate', width: 100 },
        { title: '供应商', dataIndex: 'supplierName', width: 140, render: (v) => v ?? <Dash /> },
        {
          title: '数量',
          dataIndex: 'quantity',
          width: 100,
          align: 'right',
          render: (v, r) => `${qty(v)} ${r.unitName ?? ''}`,
        },
        {
          title: '来料检验',
          key: 'inspections',
          width: 200,
          render: (_, r) =>
            r.inspections.length ? r.inspections.map((i) => <InspectionTag key={i.id} i={i} />) : <Dash />,
        },
      ]}
    />
  );
}

function ShipmentTable({ rows, onOpenCard }: { rows: TraceShipment[]; onOpenCard?: (id: number) => void }) {
  return (
    <Table<TraceShipment>
      size="small"
      rowKey={(r) => `${r.outboundId}-${r.cardId}`}
      pagination={false}
      dataSource={rows}
      data-testid="trace-shipments"
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '尚未发货' }}
      columns={[
        {
          title: '出库单',
          dataIndex: 'docNo',
          width: 150,
          render: (v, r) => (
            <PageLink path={typePaths(OUTBOUND, r.type).detail} id={r.outboundId}>
              {v}
            </PageLink>
          ),
        },
        { title: '类型', dataIndex: 'type', width: 80, render: (v) => label(OUTBOUND_TYPES, v) },
        { title: '日期', dataIndex: 'bizDate', width: 100 },
        { title: '客户', dataIndex: 'customerName', width: 160, render: (v) => v ?? <Dash /> },
        { title: '销售订单', dataIndex: 'saleOrderNo', width: 150, render: (v) => v ?? <Dash /> },
        { title: '产品', dataIndex: 'materialName', width: 160 },
        {
          title: '批次（流转卡）',
          dataIndex: 'cardNo',
          width: 150,
          render: (_, r) => <CardLink card={{ id: r.cardId, docNo: r.cardNo }} onOpenCard={onOpenCard} />,
        },
        {
          title: '数量',
          dataIndex: 'quantity',
          width: 100,
          align: 'right',
          render: (v, r) => `${qty(v)} ${r.unitName ?? ''}`,
        },
      ]}
    />
  );
}

/** How a card came to the one below it: 装配领用 10 → LZ…, 拆分, 合并. */
function relation(card: TraceCard, links: TraceLink[], byId: Map<number, TraceCard>) {
  return links
    .filter((l) => l.parentId === card.id)
    .map((l) => {
      const k = FLOW_CARD_LINK_KINDS.find((x) => x.value === l.kind);
      return (
        <Tag key={`${l.parentId}-${l.childId}`} color={k?.color}>
          {k?.label ?? l.kind} {qty(l.quantity)} → {byId.get(l.childId)?.docNo ?? ''}
        </Tag>
      );
    });
}

function Sub({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <div className="tr-sub">
      <div className="tr-sub-title">
        {title}
        <span className="rk-count">{count}</span>
      </div>
      {children}
    </div>
  );
}

/** One card of a trace: its steps, reports, inspections, measurements (and its order's materials). */
function CardPanel({
  card,
  materials,
}: {
  card: CardTrace['cards'][number];
  materials?: CardTrace['orders'][number]['materials'];
}) {
  return (
    <div data-testid={`trace-card-${card.docNo}`}>
      <Descriptions
        size="small"
        column={3}
        items={[
          { key: 'order', label: '生产订单', children: card.orderNo },
          { key: 'product', label: '产品', children: `${card.productName}（${card.productCode}）` },
          { key: 'quantity', label: '数量', children: qty(card.quantity) },
          { key: 'heat', label: '炉号', children: card.heatNo ?? '-' },
          {
            key: 'status',
            label: '状态',
            children: (
              <Tag color={color(FLOW_CARD_LIFECYCLE.states, card.status)}>
                {label(FLOW_CARD_LIFECYCLE.states, card.status)}
              </Tag>
            ),
          },
          { key: 'customer', label: '客户', children: card.customerName ?? '-' },
        ]}
      />
      <Sub title="工序（设备、操作工）" count={card.steps.length}>
        <Table
          size="small"
          rowKey="seq"
          pagination={false}
          dataSource={card.steps}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '序', dataIndex: 'seq', width: 50 },
            { title: '工序', dataIndex: 'processName', width: 100 },
            {
              title: '车间/委外',
              key: 'where',
              width: 120,
              render: (_, s) => (s.outsourced ? `委外：${s.supplierName ?? '-'}` : (s.workshopName ?? '-')),
            },
            { title: '设备', dataIndex: 'equipmentName', width: 120, render: (v) => v ?? <Dash /> },
            { title: '操作工', dataIndex: 'operatorName', width: 80, render: (v) => v ?? <Dash /> },
            { title: '进站', dataIndex: 'inTime', width: 150, render: (v) => (v ? formatTime(v) : <Dash />) },
            {
              title: '出站',
              dataIndex: 'outTime',
              width: 150,
              render: (v) => (v ? formatTime(v) : <Dash />),
            },
            { title: '投入', dataIndex: 'inputQuantity', width: 70, align: 'right', render: num },
            { title: '合格', dataIndex: 'goodQuantity', width: 70, align: 'right', render: num },
            {
              title: '废品',
              key: 'scrap',
              width: 70,
              align: 'right',
              render: (_, s) => qty(Number(s.workScrapQuantity) + Number(s.materialScrapQuantity)),
            },
            {
              title: '硬度HRC',
              dataIndex: 'hardnessHrc',
              width: 80,
              render: (v) => v ?? <Dash />,
            },
          ]}
        />
      </Sub>
      <Sub title="报工" count={card.reports.length}>
        {card.reports.length ? (
          <Table
            size="small"
            rowKey="id"
            pagination={card.reports.length > 10 ? { pageSize: 10 } : false}
            dataSource={card.reports}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: '报工单', dataIndex: 'docNo', width: 150 },
              { title: '工序', dataIndex: 'processName', width: 100 },
              { title: '日期', dataIndex: 'reportDate', width: 100 },
              { title: '操作工', dataIndex: 'operatorName', width: 80 },
              { title: '设备', dataIndex: 'equipmentName', width: 120, render: (v) => v ?? <Dash /> },
              { title: '合格', dataIndex: 'goodQuantity', width: 70, align: 'right', render: num },
              {
                title: '废品',
                key: 'scrap',
                width: 70,
                align: 'right',
                render: (_, r) => qty(Number(r.workScrapQuantity) + Number(r.materialScrapQuantity)),
              },
              {
                title: '状态',
                dataIndex: 'status',
                width: 90,
                render: (v) => (
                  <Tag color={color(WORK_REPORT_LIFECYCLE.states, v)}>
                    {label(WORK_REPORT_LIFECYCLE.states, v)}
                  </Tag>
                ),
              },
            ]}
          />
        ) : (
          <span className="rm-muted">无报工</span>
        )}
      </Sub>
      <Sub title="检验" count={card.inspections.length}>
        {card.inspections.length ? (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={card.inspections}
            scroll={{ x: 'max-content' }}
            columns={[
              {
                title: '检验单',
                dataIndex: 'docNo',
                width: 150,
                render: (v, i) => {
                  const cat = inspectionCategory(i.category);
                  return cat ? (
                    <PageLink path={inspectionPaths(cat).view} id={i.id}>
                      {v}
                    </PageLink>
                  ) : (
                    v
                  );
                },
              },
              {
                title: '类别',
                key: 'kind',
                width: 150,
                render: (_, i) =>
                  `${inspectionCategory(i.category)?.label ?? i.category}${i.checkKind ? ` · ${label(REPORT_CHECK_KINDS, i.checkKind)}` : ''}`,
              },
              { title: '工序', dataIndex: 'processName', width: 100, render: (v) => v ?? <Dash /> },
              { title: '检验员', dataIndex: 'inspectorName', width: 80, render: (v) => v ?? <Dash /> },
              {
                title: '检验时间',
                dataIndex: 'inspectedAt',
                width: 150,
                render: (v) => (v ? formatTime(v) : <Dash />),
              },
              {
                title: '结论',
                key: 'result',
                width: 100,
                render: (_, i) =>
                  i.result ? (
                    <Tag color={color(INSPECTION_RESULT_OPTIONS, i.result)}>
                      {label(INSPECTION_RESULT_OPTIONS, i.result)}
                    </Tag>
                  ) : (
                    <Tag color={color(INSPECTION_TASK_LIFECYCLE.states, i.status)}>
                      {label(INSPECTION_TASK_LIFECYCLE.states, i.status)}
                    </Tag>
                  ),
              },
            ]}
          />
        ) : (
          <span className="rm-muted">无检验</span>
        )}
      </Sub>
      <Sub title="测量记录" count={card.measurements.length}>
        {card.measurements.length ? (
          <Table
            size="small"
            rowKey="id"
            pagination={card.measurements.length > 10 ? { pageSize: 10 } : false}
            dataSource={card.measurements}
            scroll={{ x: 'max-content' }}
            data-testid="trace-measurements"
            columns={[
              { title: '测量时间', dataIndex: 'measuredAt', width: 150, render: (v) => formatTime(v) },
              { title: '特性', dataIndex: 'characteristicName', width: 80 },
              { title: '机台', dataIndex: 'equipmentName', width: 120 },
              { title: '操作工', dataIndex: 'operatorName', width: 80, render: (v) => v ?? <Dash /> },
              { title: '测量值', dataIndex: 'values', width: 240 },
              { title: '均值', dataIndex: 'mean', width: 90 },
              {
                title: '规格',
                key: 'spec',
                width: 140,
                render: (_, m) => (m.lsl || m.usl ? `${m.lsl ?? '-'} ~ ${m.usl ?? '-'}` : '-'),
              },
              {
                title: '判定',
                dataIndex: 'outOfControl',
                width: 70,
                render: (v: boolean) => (v ? <Tag color="red">失控</Tag> : <Tag color="green">受控</Tag>),
              },
            ]}
          />
        ) : (
          <span className="rm-muted">无测量记录</span>
        )}
      </Sub>
      {!!card.ringMatches?.length && (
        <Sub title="选配" count={card.ringMatches.length}>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={card.ringMatches}
            scroll={{ x: 'max-content' }}
            data-testid="trace-ring-matches"
            columns={[
              { title: '选配时间', dataIndex: 'createdAt', width: 150, render: (v) => formatTime(v) },
              { title: '游隙组别', dataIndex: 'clearanceGroup', width: 80 },
              { title: '内圈组（mm）', dataIndex: 'innerGroup', width: 140 },
              { title: '外圈组（mm）', dataIndex: 'outerGroup', width: 140 },
              {
                title: '钢球规值(µm)',
                dataIndex: 'ballGradeUm',
                width: 100,
                render: (v: number) => (v > 0 ? `+${v}` : v),
              },
              {
                title: '游隙(µm)',
                key: 'clearance',
                width: 100,
                render: (_, m) => `${m.clearanceLowUm} ~ ${m.clearanceHighUm}`,
              },
              { title: '套数', dataIndex: 'count', width: 70 },
              { title: '套圈批次', dataIndex: 'lots', width: 260 },
            ]}
          />
        </Sub>
      )}
      {materials && (
        <Sub title={`领料（生产订单 ${card.orderNo}）`} count={materials.length}>
          {materials.length ? (
            <Table
              size="small"
              rowKey={(m) => `${m.materialId}-${m.batchNo}`}
              pagination={false}
              dataSource={materials}
              scroll={{ x: 'max-content' }}
              columns={[
                { title: '物料', dataIndex: 'materialName', width: 160 },
                {
                  title: '炉号/批次',
                  dataIndex: 'batchNo',
                  width: 120,
                  render: (v) => (v ? <span className="tr-mono">{v}</span> : <Dash />),
                },
                {
                  title: '数量',
                  dataIndex: 'quantity',
                  width: 100,
                  align: 'right',
                  render: (v, m) => `${qty(v)} ${m.unitName ?? ''}`,
                },
                { title: '领料单', dataIndex: 'outboundNos', width: 150 },
                {
                  title: '来源入库',
                  key: 'receipts',
                  width: 260,
                  render: (_, m) =>
                    m.receipts.length
                      ? m.receipts.map((r) => (
                          <div key={r.inboundId}>
                            {r.docNo} · {r.bizDate} · {r.supplierName ?? label(INBOUND_TYPES, r.type)}
                          </div>
                        ))
                      : '-',
                },
              ]}
            />
          ) : (
            <span className="rm-muted">无批次物料领用</span>
          )}
        </Sub>
      )}
    </div>
  );
}

/**
 * A card traced back: its heats with their receipts, itself and every card before it (拆分,
 * 合并, 装配领用 — a bearing's rings) with steps, reports, inspections, measurements and the
 * materials issued to each order, and where the card and the cards made from it were shipped.
 */
export function CardTraceView({ id, onOpenCard }: { id: number; onOpenCard?: (id: number) => void }) {
  const q = useQuery({ queryKey: traceKeys.card(id), queryFn: () => traceApi.card(id) });
  const t = q.data;
  if (!t) return <Skeleton active paragraph={{ rows: 4 }} />;
  const byId = new Map(t.cards.map((c) => [c.id, c]));
  const firstOfOrder = new Map<number, number>();
  for (const c of [...t.cards].reverse()) firstOfOrder.set(c.productionOrderId, c.id);
  const heats = t.heats.map((h) => h.heatNo);
  return (
    <div className="tr-view" data-testid="card-trace">
      <Descriptions
        size="small"
        bordered
        column={2}
        items={[
          { key: 'card', label: '流转卡', children: <span className="tr-mono">{t.card.docNo}</span> },
          { key: 'product', label: '产品', children: t.card.productName },
          { key: 'heats', label: '炉号（含上游）', children: <HeatTags heats={heats} /> },
          {
            key: 'tree',
            label: '追溯范围',
            children: `本卡及上游 ${t.cards.length} 张卡，下游 ${t.descendants} 张`,
          },
        ]}
      />
      <Sub title="钢材炉号与来料" count={t.heats.reduce((n, h) => n + h.receipts.length, 0)}>
        <ReceiptTable rows={t.heats.flatMap((h) => h.receipts)} testId="trace-receipts" />
      </Sub>
      <Sub title="流转卡（本卡及上游，逐道工序）" count={t.cards.length}>
        <Collapse
          size="small"
          defaultActiveKey={t.cards.map((c) => String(c.id))}
          items={t.cards.map((c) => ({
            key: String(c.id),
            label: (
              <Space size={6} wrap>
                <CardLink card={c} onOpenCard={c.id === id ? undefined : onOpenCard} />
                <span>
                  {c.productName}
                  {c.partName ? `（${c.partName}）` : ''}
                </span>
                <span className="rm-muted">数量 {qty(c.quantity)}</span>
                {c.depth === 0 ? <Tag color="blue">本卡</Tag> : <Tag>上游第 {c.depth} 代</Tag>}
                {c.heatNo && <Tag color="volcano">{c.heatNo}</Tag>}
                {relation(c, t.links, byId)}
              </Space>
            ),
            children: (
              <CardPanel
                card={c}
                materials={
                  firstOfOrder.get(c.productionOrderId) === c.id
                    ? t.orders.find((o) => o.id === c.productionOrderId)?.materials
                    : undefined
                }
              />
            ),
          }))}
        />
      </Sub>
      <Sub title="去向（本卡及下游的发货）" count={t.shipments.length}>
        <ShipmentTable rows={t.shipments} onOpenCard={onOpenCard} />
      </Sub>
    </div>
  );
}

/** From a heat forward: receipts, the orders it was issued to, the cards, the shipments and customers. */
export function HeatTraceView({ heatNo, onOpenCard }: { heatNo: string; onOpenCard?: (id: number) => void }) {
  const q = useQuery({ queryKey: traceKeys.heat(heatNo), queryFn: () => traceApi.heat(heatNo) });
  const t: HeatTrace | undefined = q.data;
  if (!t) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (!t.receipts.length && !t.issues.length && !t.cards.length) {
    return <Empty description={`未找到炉号 ${heatNo} 的入库、领料或流转卡`} data-testid="heat-trace-empty" />;
  }
  const byId = new Map(t.cards.map((c) => [c.id, c]));
  return (
    <div className="tr-view" data-testid="heat-trace">
      <Descriptions
        size="small"
        bordered
        column={2}
        items={[
          { key: 'heat', label: '炉号', children: <HeatTags heats={[t.heatNo]} /> },
          {
            key: 'customers',
            label: '发往客户',
            children: t.customers.length ? (
              <Space size={4} wrap data-testid="heat-customers">
                {t.customers.map((c) => (
                  <Tag key={c.customerName} color="green">
                    {c.customerName}（{c.outbounds.join('、')}）
                  </Tag>
                ))}
              </Space>
            ) : (
              '尚未发货'
            ),
          },
        ]}
      />
      <Sub title="来料（入库）" count={t.receipts.length}>
        <ReceiptTable rows={t.receipts} testId="trace-receipts" />
      </Sub>
      <Sub title="领用（领料出库到生产订单）" count={t.issues.length}>
        <Table
          size="small"
          rowKey="outboundId"
          pagination={false}
          dataSource={t.issues}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: '未领用' }}
          columns={[
            {
              title: '领料单',
              dataIndex: 'docNo',
              width: 150,
              render: (v, r) => (
                <PageLink path={typePaths(OUTBOUND, 'requisition').detail} id={r.outboundId}>
                  {v}
                </PageLink>
              ),
            },
            { title: '日期', dataIndex: 'bizDate', width: 100 },
            { title: '生产订单', dataIndex: 'orderNo', width: 150 },
            { title: '产品', dataIndex: 'productName', width: 160 },
            { title: '物料', dataIndex: 'materialName', width: 160 },
            {
              title: '数量',
              dataIndex: 'quantity',
              width: 100,
              align: 'right',
              render: (v, r) => `${qty(v)} ${r.unitName ?? ''}`,
            },
          ]}
        />
      </Sub>
      <Sub title="流转卡（带此炉号的卡及其下游）" count={t.cards.length}>
        <Table<TraceCard>
          size="small"
          rowKey="id"
          pagination={t.cards.length > 20 ? { pageSize: 20 } : false}
          dataSource={t.cards}
          scroll={{ x: 'max-content' }}
          data-testid="heat-cards"
          columns={[
            {
              title: '卡号',
              dataIndex: 'docNo',
              width: 150,
              render: (_, c) => <CardLink card={c} onOpenCard={onOpenCard} />,
            },
            {
              title: '产品',
              key: 'product',
              width: 200,
              render: (_, c) => `${c.productName}${c.partName ? `（${c.partName}）` : ''}`,
            },
            { title: '数量', dataIndex: 'quantity', width: 80, align: 'right', render: num },
            { title: '生产订单', dataIndex: 'orderNo', width: 150 },
            { title: '客户', dataIndex: 'customerName', width: 140, render: (v) => v ?? <Dash /> },
            {
              title: '状态',
              dataIndex: 'status',
              width: 80,
              render: (v) => (
                <Tag color={color(FLOW_CARD_LIFECYCLE.states, v)}>{label(FLOW_CARD_LIFECYCLE.states, v)}</Tag>
              ),
            },
            {
              title: '来自',
              key: 'from',
              width: 220,
              render: (_, c) =>
                t.links
                  .filter((l) => l.childId === c.id)
                  .map((l) => {
                    const k = FLOW_CARD_LINK_KINDS.find((x) => x.value === l.kind);
                    return (
                      <Tag key={l.parentId} color={k?.color}>
                        {k?.label ?? l.kind} {byId.get(l.parentId)?.docNo}
                      </Tag>
                    );
                  }),
            },
          ]}
        />
      </Sub>
      <Sub title="去向（发货与客户）" count={t.shipments.length}>
        <ShipmentTable rows={t.shipments} onOpenCard={onOpenCard} />
      </Sub>
    </div>
  );
}

/**
 * An outbound document traced back: each line's batches (as posted) and the card each is, with
 * the heats; the chosen line's card below in full (`CardTraceView`).
 */
export function OutboundTraceView({
  id,
  lineId,
  cardId,
  onPickCard,
  onOpenCard,
}: {
  id: number;
  lineId?: number;
  /** The card shown in full (else the first of `lineId`'s, else the document's first). */
  cardId?: number;
  onPickCard?: (cardId: number) => void;
  onOpenCard?: (id: number) => void;
}) {
  const q = useQuery({ queryKey: traceKeys.outbound(id), queryFn: () => traceApi.outbound(id) });
  const t: OutboundTrace | undefined = q.data;
  if (!t) return <Skeleton active paragraph={{ rows: 4 }} />;
  const lines = lineId ? t.lines.filter((l) => l.lineId === lineId) : t.lines;
  const shown = cardId ?? lines.find((l) => l.cardId)?.cardId ?? undefined;
  return (
    <div className="tr-view" data-testid="outbound-trace">
      <Descriptions
        size="small"
        bordered
        column={3}
        items={[
          { key: 'doc', label: '出库单', children: t.outbound.docNo },
          { key: 'customer', label: '客户', children: t.outbound.customerName ?? '-' },
          { key: 'date', label: '日期', children: t.outbound.bizDate },
        ]}
      />
      <Sub title={lineId ? '本行发出的批次' : '各行发出的批次'} count={lines.length}>
        <Table
          size="small"
          rowKey={(l) => `${l.lineId}-${l.batchNo}`}
          pagination={false}
          dataSource={lines}
          scroll={{ x: 'max-content' }}
          rowClassName={(l) => (l.cardId && l.cardId === shown ? 'tr-picked' : '')}
          columns={[
            { title: '行', dataIndex: 'lineNo', width: 50 },
            { title: '物料', dataIndex: 'materialName', width: 180 },
            {
              title: '批次',
              dataIndex: 'batchNo',
              width: 150,
              render: (v) => (v ? <span className="tr-mono">{v}</span> : <Dash />),
            },
            {
              title: '数量',
              dataIndex: 'quantity',
              width: 90,
              align: 'right',
              render: (v, l) => `${qty(v)} ${l.unitName ?? ''}`,
            },
            {
              title: '流转卡',
              key: 'card',
              width: 150,
              render: (_, l) =>
                l.cardId ? (
                  <Typography.Link className="tr-mono" onClick={() => onPickCard?.(l.cardId as number)}>
                    {l.cardNo}
                  </Typography.Link>
                ) : (
                  <span className="rm-muted">非流转卡批次</span>
                ),
            },
            { title: '炉号', key: 'heats', width: 200, render: (_, l) => <HeatTags heats={l.heats} /> },
          ]}
        />
      </Sub>
      {shown ? (
        <CardTraceView key={shown} id={shown} onOpenCard={onOpenCard} />
      ) : (
        <Empty description="所发批次不是流转卡完工入库的批次，无法追溯到工序与炉号" />
      )}
    </div>
  );
}
