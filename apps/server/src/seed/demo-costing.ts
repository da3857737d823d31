import type { Db } from '../platform/db/db.ts';
import { SETTING_KEYS } from '../platform/settings.ts';

/**
 * 系统设置 › 成本核算 of the demo factory (issue 37 §4), before any order is worked: overhead per
 * standard minute by workshop kind — turning 0.08 元, grinding 0.12 元 (the dearest machines),
 * inspection 0.04 元, assembly 0.06 元 — and bearing-steel scrap at 2.60 元/kg. The orders' 成本
 * tab, their 生产入库 at actual cost and the 成本差异 / 产品成本 reports read them.
 */
const RATE_BY_TYPE: Record<string, string> = {
  machine: '0.08',
  grinding: '0.12',
  inspect: '0.04',
  assembly: '0.06',
};

export async function seedDemoCosting(db: Db): Promise<void> {
  const shops = await db.selectFrom('workshop').select(['id', 'type']).orderBy('id').execute();
  const rates = shops
    .filter((w) => RATE_BY_TYPE[w.type])
    .map((w) => ({ workshopId: Number(w.id), basis: 'standard-minute', rate: RATE_BY_TYPE[w.type] }));
  await db
    .insertInto('sysSetting')
    .values([
      { key: SETTING_KEYS.costingOverheadRates, value: JSON.stringify(rates) },
      { key: SETTING_KEYS.costingScrapPricePerKg, value: JSON.stringify('2.60') },
    ])
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}
