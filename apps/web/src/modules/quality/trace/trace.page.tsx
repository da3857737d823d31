import { SearchOutlined } from '@ant-design/icons';
import { Alert, Drawer, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../platform/api/errors.ts';
import type { PageProps } from '../../../platform/page.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { FlowCardDrawer } from '../../production/flow-card/index.ts';
import { type TraceTarget, traceApi } from './trace.api.ts';
import { CardTraceView, HeatTraceView, OutboundTraceView } from './trace-view.tsx';

const keyOf = (t: TraceTarget) => `${t.kind}:${t.id}:${t.code}:${t.lineId ?? ''}`;

/** What a trace shows: the view of a card, a heat or an outbound document. */
export function TraceTargetView({
  target,
  onOpenCard,
}: {
  target: TraceTarget;
  onOpenCard: (id: number) => void;
}) {
  const [picked, setPicked] = useState<number>();
  if (target.kind === 'card' && target.id) return <CardTraceView id={target.id} onOpenCard={onOpenCard} />;
  if (target.kind === 'outbound' && target.id)
    return (
      <OutboundTraceView
        id={target.id}
        lineId={target.lineId}
        cardId={picked}
        onPickCard={setPicked}
        onOpenCard={onOpenCard}
      />
    );
  return <HeatTraceView heatNo={target.code} onOpenCard={onOpenCard} />;
}

/**
 * 追溯 of one outbound line (销售出库 detail), a heat or a card, in a drawer; a card named in it
 * opens its flow-card drawer.
 */
export function TraceDrawer({ target, onClose }: { target: TraceTarget | undefined; onClose: () => void }) {
  const [card, setCard] = useState<number>();
  return (
    <>
      <Drawer
        title={target ? `质量追溯：${target.code}` : '质量追溯'}
        open={Boolean(target)}
        onClose={onClose}
        size={1100}
        destroyOnHidden
      >
        {target && <TraceTargetView key={keyOf(target)} target={target} onOpenCard={setCard} />}
      </Drawer>
      <FlowCardDrawer id={card} onClose={() => setCard(undefined)} />
    </>
  );
}

/**
 * 质量追溯: one search box for a 炉号 (forward: receipts, orders, cards, shipments, customers), a
 * 流转卡号 / 批次号 (back: every card before it down to the steel, with steps, reports,
 * inspections and measurements) or an 出库单号 (each line's batches back to their cards).
 * `?code=` searches on opening.
 */
export function TracePage(_: PageProps) {
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(params.get('code') ?? '');
  const [target, setTarget] = useState<TraceTarget>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [card, setCard] = useState<number>();
  const search = async (code: string) => {
    const c = code.trim();
    if (!c) return;
    setBusy(true);
    setError(undefined);
    try {
      setTarget(await traceApi.find(c));
      if (params.get('code') !== c) setParams({ code: c }, { replace: true });
    } catch (e) {
      setTarget(undefined);
      if (!(e instanceof ApiError && e.shown)) setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: searches the address's code once, on opening
  useEffect(() => {
    const code = params.get('code');
    if (code) void search(code);
  }, []);
  const kindText = { card: '流转卡', outbound: '出库单', heat: '炉号' } as const;
  return (
    <PageCard title="质量追溯">
      <div className="tr-search">
        <Input.Search
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onSearch={search}
          enterButton={
            <Space size={4}>
              <SearchOutlined />
              追溯
            </Space>
          }
          loading={busy}
          allowClear
          placeholder="输入炉号、流转卡号（批次号）或出库单号"
          aria-label="追溯号码"
          data-testid="trace-search"
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 6, marginBottom: 0 }}>
          炉号向后追到流转卡、发货单和客户；流转卡号（成品批次号即卡号）或销售出库单号向前追到工序、设备、操作工、检验、测量和钢材炉号。
        </Typography.Paragraph>
      </div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {target && (
        <div data-testid="trace-result">
          <Typography.Title level={5}>
            {kindText[target.kind]} {target.code}
          </Typography.Title>
          <TraceTargetView key={keyOf(target)} target={target} onOpenCard={setCard} />
        </div>
      )}
      <FlowCardDrawer id={card} onClose={() => setCard(undefined)} />
    </PageCard>
  );
}
