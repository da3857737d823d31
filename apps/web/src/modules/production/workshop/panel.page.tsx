import { ReloadOutlined } from '@ant-design/icons';
import { PRODUCTION_PRIORITY_OPTIONS, WORKSHOP_TASK_LIFECYCLE } from '@ringmes/domain';
import { Badge, Button, Empty, Input, Progress, Space, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useRecordPermission } from '../../../platform/auth/permission.tsx';
import { type LiveState, useLiveQuery } from '../../../platform/live/use-live-query.ts';
import type { PageProps } from '../../../platform/page.ts';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import { DispatchModal } from './task-list.page.tsx';
import { kindOf, type Row, workshopApi, workshopTaskResource } from './workshop.api.ts';
import './workshop.css';

const LIVE_TEXT: Record<LiveState, string> = { connecting: '连接中', live: '实时', retrying: '重连中' };

const COLUMNS = WORKSHOP_TASK_LIFECYCLE.states.filter((s) => s.value !== 'closed');
const PRIORITY = new Map(PRODUCTION_PRIORITY_OPTIONS.map((o) => [o.value, o]));

const pct = (a: unknown, b: unknown) =>
  Number(b) > 0 ? Math.min(Math.round((Number(a) / Number(b)) * 100), 100) : 0;

/**
 * 车加工看板 (and the other three): the workshop's tasks as a board, a column per state, each
 * card with its order, product, step, dates and progress; live — the server pushes the board over
 * the live channel (scope `board:<workshop>`) whenever 派单, 派工 or a posting changes a task.
 */
export function WorkshopPanelPage({ path }: PageProps) {
  const kind = kindOf(path);
  const may = useRecordPermission(workshopTaskResource);
  const [text, setText] = useState('');
  const [dispatching, setDispatching] = useState<Row>();
  const { query: board, state } = useLiveQuery({
    queryKey: ['resource', 'workshop-task', 'board', kind.type],
    queryFn: () => workshopApi.board(kind),
    scope: `board:${kind.type}`,
  });
  const today = dayjs().format('YYYY-MM-DD');
  const columns = useMemo(() => {
    const words = text.trim().toLowerCase();
    const rows = (board.data?.list ?? []).filter(
      (r) =>
        !words ||
        [r.taskNo, r.orderNo, r.productCode, r.productName, r.productSpec, r.processName, r.operators]
          .join(' ')
          .toLowerCase()
          .includes(words),
    );
    return COLUMNS.map((s) => ({ state: s, rows: rows.filter((r) => r.status === s.value) }));
  }, [board.data, text]);
  const canDispatch = may('dispatch', kind.type);
  return (
    <PageCard
      className="ws-board-page"
      title={`${kind.label}看板`}
      extra={
        <Space>
          <Input.Search
            placeholder="任务、订单、产品、工序、操作工"
            allowClear
            onSearch={setText}
            onChange={(e) => !e.target.value && setText('')}
            style={{ width: 260 }}
          />
          <span className="ws-muted" data-testid="board-live" data-state={state}>
            {LIVE_TEXT[state]}
            {board.dataUpdatedAt ? ` · 更新于 ${dayjs(board.dataUpdatedAt).format('HH:mm:ss')}` : ''}
          </span>
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新看板" onClick={() => board.refetch()} />
          </Tooltip>
        </Space>
      }
    >
      <div className="ws-board" data-testid="workshop-board">
        {columns.map(({ state, rows }) => (
          <section key={state.value} className="ws-column" data-testid={`board-${state.value}`}>
            <header>
              <Badge color={state.color === 'default' ? '#bfbfbf' : state.color} text={state.label} />
              <span className="ws-count">{rows.length}</span>
            </header>
            <div className="ws-cards">
              {rows.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无任务" />}
              {rows.slice(0, 200).map((r) => {
                const late = r.status !== 'completed' && r.plannedFinishDate && r.plannedFinishDate < today;
                const p = PRIORITY.get(r.priority);
                return (
                  <article key={r.id} className={`ws-card${late ? ' ws-late' : ''}`} data-testid="board-card">
                    <div className="ws-card-head">
                      <b>{r.taskNo}</b>
                      {p && p.value !== 'normal' && <Tag color={p.color}>{p.label}</Tag>}
                    </div>
                    <div className="ws-card-line">
                      {r.productName} <span className="ws-muted">{r.productSpec}</span>
                    </div>
                    <div className="ws-card-line">
                      工序 {r.seq} · {r.processName}
                    </div>
                    <div className="ws-card-line ws-muted">
                      计划 {r.plannedStartDate} ~ {r.plannedFinishDate}
                      {late && <Tag color="red">逾期</Tag>}
                    </div>
                    <Tooltip title={`完工 ${qty(r.completedQuantity)} / 计划 ${qty(r.plannedQuantity)}`}>
                      <Progress percent={pct(r.completedQuantity, r.plannedQuantity)} size="small" />
                    </Tooltip>
                    <div className="ws-card-line ws-muted">
                      已派 {qty(r.dispatchedQuantity)} / {qty(r.plannedQuantity)}
                      {r.operators ? ` · ${r.operators}` : ''}
                    </div>
                    {canDispatch && ['pending', 'dispatched'].includes(r.status) && (
                      <Button size="small" type="link" onClick={() => setDispatching(r)}>
                        派工
                      </Button>
                    )}
                  </article>
                );
              })}
              {rows.length > 200 && (
                <div className="ws-muted">另有 {rows.length - 200} 个任务，请输入条件筛选</div>
              )}
            </div>
          </section>
        ))}
      </div>
      {dispatching && (
        <DispatchModal
          kind={kind}
          task={{ ...dispatching, productionOrderName: dispatching.orderNo } as unknown as ResourceRow}
          onClose={() => {
            setDispatching(undefined);
            void board.refetch();
          }}
        />
      )}
    </PageCard>
  );
}
