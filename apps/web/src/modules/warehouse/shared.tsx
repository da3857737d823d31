import { QUALITY_STATUS, type ResourceDef, STOCK_DOC_STATUS } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Tag } from 'antd';
import { totalsByUnit } from './quantities.ts';
import { qty } from './warehouse.api.ts';

const tagOf = (options: typeof STOCK_DOC_STATUS, value: unknown) => {
  const o = options.find((x) => x.value === value);
  return o ? <Tag color={o.color}>{o.label}</Tag> : <span className="rm-muted">-</span>;
};

/** 草稿 / 已过账 / 已冲销 */
export const StatusTag = ({ value }: { value: unknown }) => tagOf(STOCK_DOC_STATUS, value);
/** 合格 / 待检 / 不合格 */
export const QualityTag = ({ value }: { value: unknown }) => tagOf(QUALITY_STATUS, value);

/** Refreshes every list and record of the document, and the stock views (after 过账, 冲销, 删除). */
export function useRefreshDocs(def: ResourceDef) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['resource', def.name] });
    void client.invalidateQueries({ queryKey: ['warehouse'] });
  };
}

export const Dash = () => <span className="rm-muted">-</span>;

/** A signed quantity coloured: gains green, losses red. */
export function SignedQty({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <Dash />;
  const n = Number(value);
  const cls = n > 0 ? 'wh-gain' : n < 0 ? 'wh-loss' : '';
  return <span className={cls}>{n > 0 ? `+${qty(value)}` : qty(value)}</span>;
}

export const QUALITY_OPTIONS = QUALITY_STATUS.map((o) => ({ value: o.value, label: o.label }));
export const STATUS_OPTIONS = STOCK_DOC_STATUS.map((o) => ({ value: o.value, label: o.label }));

/**
 * A quantity total per unit: one figure when one unit is shown, otherwise one per unit (粒, 件, g
 * and 套 are never added up). Items of the same unit are summed here.
 */
export function UnitTotals({
  label = '数量合计',
  totals,
}: {
  label?: string;
  totals: readonly { unitName?: string | null; quantity?: string | number | null }[];
}) {
  const sums = totalsByUnit(totals);
  return (
    <span className="wh-unit-totals" data-testid="total-quantity">
      {label}
      {sums.length === 0 ? (
        <b>0</b>
      ) : (
        sums.map((u) => (
          <span key={u.unitName} className="wh-unit-total">
            <b>{qty(u.quantity)}</b> {u.unitName}
          </span>
        ))
      )}
    </span>
  );
}
