import { PrinterOutlined, TagOutlined } from '@ant-design/icons';
import {
  FLOW_CARD_LIFECYCLE,
  FLOW_CARD_LINK_KINDS,
  FLOW_CARD_ORIGINS,
  flowCardResource,
  stateLabel,
} from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Descriptions,
  Drawer,
  Empty,
  QRCode,
  Skeleton,
  Space,
  Tag,
  Tree,
  type TreeDataNode,
} from 'antd';
import { type Key, useEffect, useState } from 'react';
import { PRINT_SOURCES } from '../../../platform/print/print-sources.ts';
import { TemplatePrint } from '../../../platform/print/template-print.tsx';
import { FieldValue } from '../../../platform/resource/format.tsx';
import { LifecycleActions } from '../../../platform/resource/lifecycle-actions.tsx';
import { LineTableView } from '../../../platform/resource/resource-detail.tsx';
import { FlowCardMeasurements } from '../../quality/flow-card-measurements.tsx';
import { CardTraceView, HeatTags } from '../../quality/trace/trace-view.tsx';
import { DrawingButton } from '../../technology/drawing-link.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import {
  currentStep,
  type FlowCard,
  flowCardApi,
  flowCardKeys,
  type Genealogy,
  type GenealogyNode,
} from './flow-card.api.ts';
import { FlowCardPrint, type FlowCardPrintKind } from './flow-card-print.tsx';
import './flow-card.css';

const statusField = flowCardResource.fields.find((f) => f.name === 'status')!;
const stepsLine = flowCardResource.lines![0];

export function StatusTag({ status }: { status: string }) {
  const s = FLOW_CARD_LIFECYCLE.states.find((x) => x.value === status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
}

/**
 * 流转卡详情 in a drawer: header with the QR of the card number, the step rows, the genealogy
 * (where the pieces came from and went to — a bearing's ring cards too; a click opens that card),
 * the measurements, the whole trace (heats and receipts, every step's machine and operator,
 * reports, inspections, measurements, shipments), 打印流转卡 (A5), 打印标签 (the 流转卡 label
 * template, 系统设置 › 打印模板) and 关闭. Workshop
 * pages open it with a card id (e.g. from a scan).
 */
export function FlowCardDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const [current, setCurrent] = useState(id);
  const [printing, setPrinting] = useState<FlowCardPrintKind>();
  useEffect(() => setCurrent(id), [id]);
  const card = useQuery({
    queryKey: flowCardKeys.card(current),
    queryFn: () => flowCardApi.card(current as number),
    enabled: Boolean(current),
  });
  const row = card.data;
  return (
    <Drawer
      title={
        row ? (
          <Space>
            流转卡 {row.docNo}
            <StatusTag status={row.status} />
          </Space>
        ) : (
          '流转卡'
        )
      }
      open={Boolean(id)}
      onClose={onClose}
      size={1040}
      destroyOnHidden
      extra={
        row && (
          <Space>
            <LifecycleActions def={flowCardResource} record={row} />
            <Button icon={<PrinterOutlined />} onClick={() => setPrinting('a5')}>
              打印流转卡
            </Button>
            <Button icon={<TagOutlined />} onClick={() => setPrinting('label')}>
              打印标签
            </Button>
          </Space>
        )
      }
    >
      {row ? <FlowCardView card={row} onOpen={setCurrent} /> : <Skeleton active paragraph={{ rows: 8 }} />}
      {row && printing === 'a5' && (
        <FlowCardPrint card={row} kind="a5" onClose={() => setPrinting(undefined)} />
      )}
      {row && printing === 'label' && (
        <TemplatePrint
          docType="flow-card"
          records={[PRINT_SOURCES['flow-card'].toData(row)]}
          onClose={() => setPrinting(undefined)}
        />
      )}
    </Drawer>
  );
}

/** The card itself: header (with its product's drawing in force) and QR, steps, genealogy. */
export function FlowCardView({ card, onOpen }: { card: FlowCard; onOpen?: (id: number) => void }) {
  const step = currentStep(card);
  const origin = FLOW_CARD_ORIGINS.find((o) => o.value === card.origin);
  return (
    <div data-testid="flow-card-detail">
      <div className="fc-head">
        <Descriptions
          bordered
          size="small"
          column={2}
          items={[
            { key: 'docNo', label: '卡号', children: card.docNo },
            { key: 'status', label: '状态', children: <FieldValue field={statusField} row={card} /> },
            { key: 'order', label: '生产订单', children: card.productionOrderName },
            { key: 'product', label: '产品', children: card.productName },
            { key: 'part', label: '零件/套圈', children: card.partName ?? '-' },
            { key: 'quantity', label: '数量', children: qty(card.quantity) },
            {
              key: 'heat',
              label: '炉号',
              // A bearing's heats are its rings' (装配领用), derived through the genealogy.
              children: card.heats?.length ? <HeatTags heats={card.heats} /> : (card.heatNo ?? '-'),
            },
            {
              key: 'step',
              label: '当前工序',
              children: step ? `${step.seq} ${step.processName ?? ''}（${step.workshopName ?? '-'}）` : '-',
            },
            {
              key: 'origin',
              label: '来源',
              children: origin ? <Tag color={origin.color}>{origin.label}</Tag> : '-',
            },
            {
              key: 'drawing',
              label: '图纸',
              children: (
                <DrawingButton drawing={card.drawing} url={flowCardApi.drawingUrl(card.id)} size="small" />
              ),
            },
            { key: 'remark', label: '备注', children: card.remark ?? card.statusReason ?? '-' },
          ]}
        />
        <div className="fc-qr">
          <QRCode value={card.docNo} size={128} type="svg" data-testid="flow-card-qr" />
          <div>{card.docNo}</div>
        </div>
      </div>
      <div className="rk-form-section">
        <div className="rk-form-section-title">
          工序流转<span className="rk-count">{card.steps.length}</span>
        </div>
        <LineTableView line={stepsLine} rows={card.steps} />
      </div>
      <GenealogySection id={card.id} onOpen={onOpen} />
      <FlowCardMeasurements id={card.id} />
      <div className="rk-form-section" data-testid="flow-card-trace">
        <div className="rk-form-section-title">质量追溯（炉号、来料、工序、报工、检验、测量、发货）</div>
        <CardTraceView id={card.id} onOpenCard={onOpen} />
      </div>
    </div>
  );
}

function nodeTitle(n: GenealogyNode | undefined, kind?: string, quantity?: string) {
  if (!n) return '';
  return (
    <Space size={4}>
      <span style={{ fontFamily: 'monospace' }}>{n.docNo}</span>
      {kind && (
        <Tag color={FLOW_CARD_LINK_KINDS.find((k) => k.value === kind)?.color}>
          {FLOW_CARD_LINK_KINDS.find((k) => k.value === kind)?.label ?? kind} {qty(quantity)}
        </Tag>
      )}
      <span>
        {n.productName}
        {n.partName ? `（${n.partName}）` : ''}
      </span>
      <span>数量 {qty(n.quantity)}</span>
      {n.heatNo && <Tag color="volcano">{n.heatNo}</Tag>}
      <Tag color={FLOW_CARD_LIFECYCLE.states.find((s) => s.value === n.status)?.color}>
        {stateLabel(FLOW_CARD_LIFECYCLE, n.status)}
      </Tag>
      {n.processName && <span className="rm-muted">@{n.processName}</span>}
    </Space>
  );
}

/** The genealogy as two trees from the card: up to its ancestors, down to its descendants. */
function trees(g: Genealogy) {
  const byId = new Map([g.card, ...g.ancestors, ...g.descendants].map((n) => [n.id, n]));
  let seq = 0;
  const walk = (id: number, dir: 'up' | 'down', path: number[]): TreeDataNode[] =>
    g.links
      .filter((l) => (dir === 'up' ? l.childId === id : l.parentId === id))
      .map((l) => {
        const next = dir === 'up' ? l.parentId : l.childId;
        const inner = path.includes(next) ? [] : walk(next, dir, [...path, next]);
        return {
          key: `${dir}-${next}-${seq++}`,
          title: nodeTitle(byId.get(next), l.kind, l.quantity),
          children: inner,
          isLeaf: inner.length === 0,
        };
      });
  const self = (dir: 'up' | 'down'): TreeDataNode[] => [
    {
      key: `${dir}-${g.card.id}-self`,
      title: nodeTitle(g.card),
      children: walk(g.card.id, dir, [g.card.id]),
    },
  ];
  return { up: self('up'), down: self('down') };
}

function GenealogySection({ id, onOpen }: { id: number; onOpen?: (id: number) => void }) {
  const g = useQuery({ queryKey: flowCardKeys.genealogy(id), queryFn: () => flowCardApi.genealogy(id) });
  const data = g.data;
  const t = data ? trees(data) : undefined;
  const open = (keys: Key[]) => {
    const key = String(keys[0] ?? '');
    const target = Number(key.split('-')[1]);
    if (target && target !== id) onOpen?.(target);
  };
  return (
    <div className="rk-form-section" data-testid="flow-card-genealogy">
      <div className="rk-form-section-title">
        追溯（拆分/合并/装配领用）
        <span className="rk-count">{data ? data.ancestors.length + data.descendants.length : 0}</span>
      </div>
      {!data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : data.ancestors.length + data.descendants.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该卡没有拆分、合并或装配领用记录" />
      ) : (
        <Space align="start" size={32} wrap>
          {data.ancestors.length > 0 && (
            <div data-testid="genealogy-up">
              <div className="rm-muted">来源（上游 {data.ancestors.length} 张）</div>
              <Tree className="fc-tree" treeData={t?.up} defaultExpandAll selectedKeys={[]} onSelect={open} />
            </div>
          )}
          {data.descendants.length > 0 && (
            <div data-testid="genealogy-down">
              <div className="rm-muted">去向（下游 {data.descendants.length} 张）</div>
              <Tree
                className="fc-tree"
                treeData={t?.down}
                defaultExpandAll
                selectedKeys={[]}
                onSelect={open}
              />
            </div>
          )}
        </Space>
      )}
    </div>
  );
}
