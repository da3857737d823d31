import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { stockInvariantViolations } from './stock-helpers.ts';

/** The demo factory (`SEED=demo`) is consistent and shows every warehouse screen something. */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({}, 'demo');
  token = await t.login();
}, 120_000);
afterAll(() => t.close());

describe('demo data', () => {
  it('keeps every balance equal to the sum of its ledger', async () => {
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
    const docs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM stock_ledger`.execute(t.database.db);
    expect(docs.rows[0].n).toBeGreaterThan(20);
  });

  it('has a material below its safety minimum, and its keepers were told', async () => {
    const alerts = await t.call('GET', '/api/v1/stock-alert/page', { token, query: { kind: 'below' } });
    expect(alerts.status).toBe(200);
    expect(alerts.body.result.total).toBeGreaterThan(0);
    const low = alerts.body.result.list[0];
    const told = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM message
       WHERE kind = 'stock-alert' AND link = ${`/warehouse-logistics/inventory-details?materialId=${low.materialId}`}`.execute(
      t.database.db,
    );
    expect(told.rows[0].n).toBeGreaterThan(0);
  });

  it('has a posted stocktake with gains and losses in its difference report', async () => {
    const list = await t.call('GET', '/api/v1/stocktake/page', { token, query: { status: 'posted' } });
    expect(list.body.result.total).toBeGreaterThan(0);
    const report = await t.call('GET', `/api/v1/stocktake/difference/${list.body.result.list[0].id}`, {
      token,
    });
    expect(report.body.result.totals).toMatchObject({ gainQuantity: '2.0000', lossQuantity: '3.0000' });
  });
});
