import { RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { type CockpitCard, cockpitApi } from './cockpit.api.ts';
import './cockpit.css';

const pathOf = (link: string) => link.split('?')[0];

/**
 * 首页 cockpit: the cards of the signed-in user's roles (销售、计划、车间、仓库、质检…), each figure
 * opening the list it counts, already filtered. Which cards show is decided by the server from
 * the user's permissions (`/api/v1/cockpit/cards`).
 */
export function Cockpit({ canVisit }: { canVisit: (path: string) => boolean }) {
  const navigate = useNavigate();
  const cards = useQuery({ queryKey: ['cockpit'], queryFn: cockpitApi.cards, refetchOnWindowFocus: true });
  if (cards.isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  const list = cards.data?.cards ?? [];
  if (list.length === 0) return null;
  const go = (link?: string) => (link && canVisit(pathOf(link)) ? () => navigate(link) : undefined);
  return (
    <div className="rm-cockpit" data-testid="cockpit">
      {list.map((c: CockpitCard) => (
        <PageCard
          key={c.key}
          title={c.title}
          className="rm-cockpit-card"
          extra={
            go(c.more) && (
              <button type="button" className="rm-link-button" onClick={go(c.more)}>
                更多 <RightOutlined />
              </button>
            )
          }
        >
          <div className="rm-cockpit-metrics" data-testid={`cockpit-${c.key}`}>
            {c.metrics.map((m) => {
              const open = go(m.link);
              const body = (
                <>
                  <span className="rm-cockpit-label">{m.label}</span>
                  <span className={`rm-cockpit-value${m.tone ? ` rm-cockpit-${m.tone}` : ''}`}>
                    {m.value}
                    {m.suffix && <small>{m.suffix}</small>}
                  </span>
                </>
              );
              return open ? (
                <button
                  type="button"
                  key={m.label}
                  className="rm-cockpit-metric rm-cockpit-link"
                  onClick={open}
                >
                  {body}
                </button>
              ) : (
                <div key={m.label} className="rm-cockpit-metric">
                  {body}
                </div>
              );
            })}
          </div>
          {!!c.rows?.length && (
            <ul className="rm-cockpit-rows">
              {c.rows.map((r) => {
                const open = go(r.link);
                return (
                  <li key={`${r.text}${r.sub ?? ''}`} className={r.tone ? `rm-cockpit-${r.tone}` : undefined}>
                    {open ? (
                      <button type="button" className="rm-link-button" onClick={open}>
                        {r.text}
                      </button>
                    ) : (
                      <span>{r.text}</span>
                    )}
                    {r.sub && <small>{r.sub}</small>}
                  </li>
                );
              })}
            </ul>
          )}
        </PageCard>
      ))}
    </div>
  );
}
