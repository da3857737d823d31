import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Button, Spin, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { usePermission } from '../../platform/auth/permission.tsx';
import type { PageProps } from '../../platform/page.ts';
import { EChart } from '../../platform/ui/echart.tsx';
import { DashboardOee } from '../factory/equipment/oee-board.tsx';
import { DASHBOARD_PATHS, type LiveState, useLiveDashboard } from './dashboard.api.ts';
import { BLUE, GREEN, ORANGE, outputOption, paretoOption, RED } from './dashboard-charts.ts';
import './dashboard.css';

/** Quantities without trailing zeros: 90.0000 → 90. */
const n = (v: string | number | null | undefined) => {
  if (v === null || v === undefined || v === '') return '0';
  const x = Number(v);
  return Number.isInteger(x)
    ? x.toLocaleString('zh-CN')
    : x.toLocaleString('zh-CN', { maximumFractionDigits: 2 });
};
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v}%`);

const LIVE_LABEL: Record<LiveState, string> = { connecting: '连接中', live: '实时', retrying: '重连中' };
const STATE_LABEL = { running: '运行', idle: '空闲', down: '故障' } as const;
const SIGNAL_LABEL = { run: '运行', stop: '停机', fault: '故障' } as const;
/** When the last signal came: its time today, else its date. */
const signalTime = (at: string | null | undefined) =>
  at ? dayjs(at).format(dayjs(at).isSame(dayjs(), 'day') ? 'HH:mm:ss' : 'MM-DD HH:mm') : '';

function Clock() {
  const [now, setNow] = useState(dayjs());
  useEffect(() => {
    const t = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span className="dash-clock">{now.format('YYYY-MM-DD dddd HH:mm:ss')}</span>;
}

function Kpi({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string;
  tone?: string;
  testId?: string;
}) {
  const ref = useFitText<HTMLDivElement>(value);
  return (
    <div className="dash-kpi">
      <div className="dash-kpi-label">{label}</div>
      <div
        ref={ref}
        className="dash-kpi-value"
        style={tone ? { color: tone } : undefined}
        data-testid={testId}
      >
        {value}
      </div>
    </div>
  );
}

/**
 * Fits a one-line figure into its tile: the CSS size (44 px on a wide board, smaller with the
 * tile's width) unless the text is wider than the tile, then shrunk in proportion (down to 16 px).
 * Measured again when the text or the tile's width changes.
 */
function useFitText<T extends HTMLElement>(text: string) {
  const ref = useRef<T>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the text changes
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      el.style.fontSize = '';
      const width = el.clientWidth;
      if (width > 0 && el.scrollWidth > width) {
        const size = Number.parseFloat(getComputedStyle(el).fontSize);
        el.style.fontSize = `${Math.max(16, Math.floor((size * width) / el.scrollWidth) - 1)}px`;
      }
    };
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(el.parentElement ?? el);
    return () => watch.disconnect();
  }, [text]);
  return ref;
}

function Panel({
  title,
  extra,
  children,
  className,
}: {
  title: string;
  extra?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section className={`dash-panel ${className ?? ''}`}>
      <header>
        <h3>{title}</h3>
        {extra && <span className="dash-muted">{extra}</span>}
      </header>
      <div className="dash-panel-body">{children}</div>
    </section>
  );
}

/**
 * 车间看板 (全厂 and each workshop): a dark large-screen board, pushed live by the server over
 * Server-Sent Events whenever a report is posted, a dispatch or a repair changes.
 */
export function WorkshopDashboardPage({ path }: PageProps) {
  const scope = DASHBOARD_PATHS[path] ?? 'whole';
  const { query, state } = useLiveDashboard(scope);
  const can = usePermission();
  const box = useRef<HTMLDivElement>(null);
  const [full, setFull] = useState(false);
  useEffect(() => {
    const on = () => setFull(document.fullscreenElement === box.current);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const s = query.data;
  const output = useMemo(() => (s ? outputOption(s) : undefined), [s]);
  const pareto = useMemo(() => (s ? paretoOption(s) : undefined), [s]);
  const toggleFull = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void box.current?.requestFullscreen?.();
  };

  return (
    <div className="dash" ref={box} data-testid="dashboard">
      <header className="dash-head">
        <h1>{s ? `${s.scopeName}生产看板` : '生产看板'}</h1>
        <div className="dash-head-right">
          <span className={`dash-live dash-live-${state}`} data-testid="dashboard-live">
            <i />
            {LIVE_LABEL[state]}
          </span>
          {s && <span className="dash-muted">更新于 {dayjs(s.computedAt).format('HH:mm:ss')}</span>}
          <Clock />
          <Tooltip title={full ? '退出全屏' : '全屏'}>
            <Button
              type="text"
              className="dash-full"
              aria-label={full ? '退出全屏' : '全屏'}
              icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggleFull}
            />
          </Tooltip>
        </div>
      </header>
      {!s ? (
        <div className="dash-loading">
          {query.isError ? <span>看板数据加载失败，请稍后重试</span> : <Spin size="large" />}
        </div>
      ) : (
        <>
          <div className="dash-kpis">
            <Kpi label="今日计划" value={n(s.totals.planned)} testId="kpi-planned" />
            <Kpi label="今日合格" value={n(s.totals.good)} tone={GREEN} testId="kpi-good" />
            <Kpi label="计划达成率" value={pct(s.totals.achievement)} tone={BLUE} />
            <Kpi
              label="今日废品"
              value={n(s.totals.scrap)}
              tone={s.totals.scrap !== '0' ? ORANGE : undefined}
              testId="kpi-scrap"
            />
            <Kpi label="一次合格率" value={pct(s.quality.today.firstPassYield)} tone={GREEN} />
            <Kpi label="在制订单" value={String(s.orders.inProgress)} />
            <Kpi label="逾期订单" value={String(s.orders.late)} tone={s.orders.late ? RED : undefined} />
            <Kpi
              label="设备 运行/空闲/故障"
              value={`${s.equipment.running}/${s.equipment.idle}/${s.equipment.down}`}
              tone={s.equipment.down ? ORANGE : undefined}
            />
          </div>

          <div className="dash-grid">
            <Panel
              title={s.scope === 'whole' ? '今日产出 · 各车间计划与实际' : '今日产出 · 各班次计划与实际'}
            >
              <table className="dash-table dash-output">
                <thead>
                  <tr>
                    <th>车间</th>
                    <th>班次</th>
                    <th>计划</th>
                    <th>合格</th>
                    <th>废品</th>
                    <th>达成</th>
                  </tr>
                </thead>
                <tbody>
                  {s.output.flatMap((o) =>
                    o.shifts.map((c, i) => (
                      <tr key={`${o.workshopType}-${c.shift}`}>
                        {i === 0 && <td rowSpan={o.shifts.length}>{o.workshopName}</td>}
                        <td>{c.shiftLabel}</td>
                        <td>{n(c.planned)}</td>
                        <td className="dash-good">{n(c.good)}</td>
                        <td className={c.scrap !== '0' ? 'dash-warn' : undefined}>{n(c.scrap)}</td>
                        <td>{pct(c.achievement)}</td>
                      </tr>
                    )),
                  )}
                </tbody>
              </table>
              {output && <EChart option={output} style={{ height: 220 }} testId="dashboard-output-chart" />}
            </Panel>

            <Panel
              title={`废品原因排列图（近 ${s.quality.days} 天）`}
              extra={`近 ${s.quality.days} 天一次合格率 ${pct(s.quality.period.firstPassYield)}`}
            >
              {s.quality.pareto.length === 0 ? (
                <div className="dash-empty">近 {s.quality.days} 天没有废品</div>
              ) : (
                pareto && <EChart option={pareto} style={{ height: 380 }} testId="dashboard-pareto" />
              )}
            </Panel>

            <Panel
              title="设备状态"
              extra={`运行 ${s.equipment.running} · 空闲 ${s.equipment.idle} · 故障 ${s.equipment.down}`}
            >
              {/* It scrolls past 420 px: focusable, so the keyboard can scroll it (axe scrollable-region-focusable). */}
              <div className="dash-equipment" tabIndex={0} role="region" aria-label="设备状态">
                {s.equipment.list.length === 0 && <div className="dash-empty">没有设备</div>}
                {s.equipment.list.map((e) => (
                  <div
                    key={e.id}
                    className={`dash-eq dash-eq-${e.state}`}
                    title={
                      e.repairNo
                        ? `报修单 ${e.repairNo}`
                        : e.dispatchNo
                          ? `派工单 ${e.dispatchNo}`
                          : undefined
                    }
                  >
                    <b>{e.code}</b>
                    <span>{e.name}</span>
                    <em>
                      {STATE_LABEL[e.state]}
                      {e.state === 'running' && e.operatorName ? ` · ${e.operatorName}` : ''}
                      {e.signalState ? ` · 信号${SIGNAL_LABEL[e.signalState]} ${signalTime(e.signalAt)}` : ''}
                    </em>
                  </div>
                ))}
              </div>
            </Panel>

            <Panel
              title="漏点检"
              extra={
                s.missedChecks?.list.length
                  ? `${s.missedChecks.list.length}${s.missedChecks.more ? '+' : ''} 个班次未点检`
                  : '近 7 天无漏检'
              }
            >
              <table className="dash-table" data-testid="dashboard-missed-checks">
                <thead>
                  <tr>
                    <th>日期</th>
                    <th>班次</th>
                    <th>设备</th>
                    <th>点检表</th>
                  </tr>
                </thead>
                <tbody>
                  {!s.missedChecks?.list.length && (
                    <tr>
                      <td colSpan={4} className="dash-empty">
                        开工的设备都已点检
                      </td>
                    </tr>
                  )}
                  {s.missedChecks?.list.map((m) => (
                    <tr key={`${m.checklistId}-${m.checkDate}-${m.shiftLabel}`}>
                      <td>{m.checkDate.slice(5)}</td>
                      <td>{m.shiftLabel}</td>
                      <td>
                        {m.equipmentCode} {m.equipmentName}
                      </td>
                      <td>{m.checklistName}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>

            <Panel title="在制与逾期订单" extra={`在制 ${s.orders.inProgress} · 逾期 ${s.orders.late}`}>
              <table className="dash-table">
                <thead>
                  <tr>
                    <th>订单</th>
                    <th>产品</th>
                    <th>完成/数量</th>
                    <th>交期</th>
                  </tr>
                </thead>
                <tbody>
                  {s.orders.list.length === 0 && (
                    <tr>
                      <td colSpan={4} className="dash-empty">
                        没有在制订单
                      </td>
                    </tr>
                  )}
                  {s.orders.list.map((o) => (
                    <tr key={o.id} className={o.late ? 'dash-late' : undefined}>
                      <td>{o.docNo}</td>
                      <td className="dash-fill" title={`${o.productName ?? ''} ${o.productSpec ?? ''}`}>
                        {o.productName} <span className="dash-muted">{o.productSpec}</span>
                      </td>
                      <td>
                        {n(o.producedQuantity)}/{n(o.quantity)}
                        <span className="dash-muted"> {pct(o.progress)}</span>
                      </td>
                      <td>
                        {o.dueDate}
                        {o.late && <span className="dash-tag">逾期</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>

            <Panel title="今日操作工排行">
              <table className="dash-table" data-testid="dashboard-ranking">
                <thead>
                  <tr>
                    <th>名次</th>
                    <th>操作工</th>
                    <th>合格</th>
                    <th>废品</th>
                    <th>报工</th>
                  </tr>
                </thead>
                <tbody>
                  {s.ranking.length === 0 && (
                    <tr>
                      <td colSpan={5} className="dash-empty">
                        今日尚无入账报工
                      </td>
                    </tr>
                  )}
                  {s.ranking.map((r) => (
                    <tr key={r.operatorId}>
                      <td>
                        <span className={`dash-rank dash-rank-${r.rank}`}>{r.rank}</span>
                      </td>
                      <td>{r.operatorName}</td>
                      <td className="dash-good">{n(r.good)}</td>
                      <td>{n(r.scrap)}</td>
                      <td>{r.reports}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>

            {can('factory:oee:query') && (
              <Panel title="设备OEE · 近 7 天" extra="时间开动率 × 性能开动率 × 合格品率">
                <DashboardOee workshopType={s.scope === 'whole' ? undefined : s.scope} />
              </Panel>
            )}

            <Panel title="最新报工" className="dash-recent-panel">
              {s.recent.length === 0 ? (
                <div className="dash-empty">暂无入账报工</div>
              ) : (
                <div className="dash-recent" data-testid="dashboard-recent">
                  <ul className={s.recent.length > 5 ? 'dash-scroll' : undefined}>
                    {[...s.recent, ...(s.recent.length > 5 ? s.recent : [])].map((r, i) => (
                      <li
                        key={`${r.id}-${i < s.recent.length ? 'a' : 'b'}`}
                        aria-hidden={i >= s.recent.length || undefined}
                      >
                        <time>{r.postedAt}</time>
                        <span className="dash-recent-who">
                          {r.operatorName} · {r.workshopName}
                        </span>
                        <span className="dash-recent-what">
                          {r.productName} {r.processName}
                        </span>
                        <b className="dash-good">+{n(r.good)}</b>
                        {r.scrap !== '0.0000' && r.scrap !== '0' && (
                          <b className="dash-warn">废 {n(r.scrap)}</b>
                        )}
                        <span className="dash-muted">{r.docNo}</span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </Panel>
          </div>
        </>
      )}
    </div>
  );
}
