import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'antd';
import { useEffect, useRef } from 'react';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { toBaseQuantity } from '../warehouse/quantities.ts';
import { lineAmount } from './line-amount.ts';

/** GET /api/v1/sale-order/line-defaults (what saving will set on the line). */
type LineDefaults = ApiResult<'/api/v1/sale-order/line-defaults'>;

type Line = Record<string, any> | undefined;

/**
 * The sales order form's lines, filled as they are typed the way saving fills them (the server's
 * `priceOrder`): a product's unit (its base unit unless another is chosen), the price a line
 * without one takes (the customer's last price in that unit, else the product's sale price) and
 * the amount and base quantity — so 单位, 含税单价 and 含税金额 show before 保存. A price the user
 * typed is never replaced; one filled here follows the customer and unit when they change.
 * Renders nothing; lives inside the form (ResourceFormPage's `extra`).
 */
export function SaleOrderLinePricing({ orderId }: { orderId?: number }) {
  const form = Form.useFormInstance();
  const client = useQueryClient();
  const customerId = Form.useWatch('customerId', form) as number | undefined;
  const lines = Form.useWatch('lines', form) as Line[] | undefined;
  // The price this component put on each line (by row): replaced when the defaults change, unless
  // the user has typed another since.
  const filled = useRef(new Map<number, string>());
  const inputs = JSON.stringify(
    (lines ?? []).map((l) => [l?.materialId, l?.unitId, l?.quantity, l?.unitPrice]),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lines' inputs, as a string, are what matter
  useEffect(() => {
    let cancelled = false;
    const current = (form.getFieldValue('lines') ?? []) as Line[];
    void (async () => {
      for (const [i, l] of current.entries()) {
        if (!l?.materialId) continue;
        const query = {
          customerId: customerId ?? undefined,
          materialId: l.materialId,
          unitId: l.unitId ?? undefined,
          orderId,
        };
        let d: LineDefaults;
        try {
          d = await client.fetchQuery({
            queryKey: ['sale-order', 'line-defaults', query],
            queryFn: () => api.get('/api/v1/sale-order/line-defaults', { query, silent: true }),
            staleTime: 30_000,
          });
        } catch {
          continue; // the server says why on 保存
        }
        if (cancelled) return;
        const patch: Record<string, unknown> = {};
        if (l.unitId == null && d.unitId) {
          patch.unitId = d.unitId;
          patch.unitName = d.unitName;
        }
        const typed =
          l.unitPrice != null && l.unitPrice !== '' && String(l.unitPrice) !== filled.current.get(i);
        let price = l.unitPrice;
        if (!typed) {
          price = d.unitPrice ?? null;
          if (price == null) filled.current.delete(i);
          else filled.current.set(i, String(price));
          patch.unitPrice = price;
        }
        const ratio =
          d.unitQuantity != null && d.baseQuantity != null
            ? { unitQuantity: d.unitQuantity, baseQuantity: d.baseQuantity }
            : undefined;
        patch.baseQuantity = toBaseQuantity(l.quantity, ratio, d.basePrecision ?? 4) ?? null;
        patch.amount = lineAmount(l.quantity, price) ?? null;
        const changed = Object.entries(patch).filter(([k, v]) => String(l[k] ?? '') !== String(v ?? ''));
        if (changed.length) form.setFieldValue(['lines', i], { ...l, ...Object.fromEntries(changed) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [customerId, inputs, orderId]);
  return null;
}
