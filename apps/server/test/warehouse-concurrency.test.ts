import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postDocumentByName } from '../src/modules/warehouse/documents.ts';
import type { AuthUser } from '../src/platform/auth/sessions.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
import { stockInvariantViolations } from './stock-helpers.ts';

/**
 * 64 concurrent clients post outbound documents of 1–5 lines against 200 materials × 50 units,
 * asking far more than there is. Afterwards: no negative balance, exactly the available quantity
 * issued, and every balance equal to the sum of its ledger. Then the same run with the guard
 * removed (and the CHECK constraint dropped) must break those invariants: the test bites.
 */
const MATERIALS = 200;
const STOCK = 50;
const CLIENTS = 64;
const DOCS_PER_CLIENT = 6;

async function world(t: TestApp, token: string) {
  const db = t.database.db;
  const unit = (
    await t.call('POST', '/api/v1/material-unit/add', { token, body: { code: 'PCS', name: '件' } })
  ).body.result;
  const type = (
    await t.call('POST', '/api/v1/material-type/add', { token, body: { code: 'RAW', name: '原材料' } })
  ).body.result;
  const wh = (
    await t.call('POST', '/api/v1/warehouse-management/add', {
      token,
      body: { code: 'WH1', name: '原材料仓', type: 'raw' },
    })
  ).body.result;
  await sql`INSERT INTO material (code, name, material_type_id, unit_id)
            SELECT 'M' || lpad(g::text, 4, '0'), '物料' || g, ${type.id}, ${unit.id} FROM generate_series(1, ${MATERIALS}) g`.execute(
    db,
  );
  const ids = (await db.selectFrom('material').select('id').orderBy('id').execute()).map(
    (r) => r.id as number,
  );
  const lines = ids.map((materialId) => ({ materialId, quantity: STOCK }));
  const inb = await t.call('POST', '/api/v1/stock-inbound/add', {
    token,
    body: { type: 'other', warehouseId: wh.id, lines },
  });
  expect((await t.call('POST', `/api/v1/stock-inbound/post/${inb.body.result.id}`, { token })).status).toBe(
    200,
  );
  return { warehouseId: wh.id as number, ids };
}

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

async function drafts(t: TestApp, token: string, warehouseId: number, ids: number[], seed: number) {
  const rand = rng(seed);
  const out: number[][] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const docs: number[] = [];
    for (let d = 0; d < DOCS_PER_CLIENT; d++) {
      const n = 1 + Math.floor(rand() * 5);
      const lines = Array.from({ length: n }, () => ({
        materialId: ids[Math.floor(rand() * ids.length)],
        quantity: 1 + Math.floor(rand() * 20),
      }));
      const r = await t.call('POST', '/api/v1/stock-outbound/add', {
        token,
        body: { type: 'other', warehouseId, lines },
      });
      docs.push(r.body.result.id);
    }
    out.push(docs);
  }
  return out;
}

async function issued(t: TestApp): Promise<{ issued: number; negative: number }> {
  const r = await sql<{ issued: string; negative: number }>`
    SELECT coalesce(-sum(quantity) FILTER (WHERE quantity < 0), 0)::text AS issued,
           (SELECT count(*)::int FROM stock_balance WHERE quantity < 0) AS negative FROM stock_ledger`.execute(
    t.database.db,
  );
  return { issued: Number(r.rows[0].issued), negative: r.rows[0].negative };
}

describe.runIf(!!PG_URL)('concurrent outbound posting on PostgreSQL', { timeout: 300_000 }, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
  });
  afterAll(() => t.close());

  it('never goes negative and issues exactly what was available', async () => {
    const { warehouseId, ids } = await world(t, token);
    const docs = await drafts(t, token, warehouseId, ids, 42);
    const answers: number[] = [];
    await Promise.all(
      docs.map(async (clientDocs) => {
        for (const id of clientDocs)
          answers.push((await t.call('POST', `/api/v1/stock-outbound/post/${id}`, { token })).status);
      }),
    );
    expect(answers.every((s) => s === 200 || s === 409)).toBe(true);
    expect(answers.filter((s) => s === 409).length).toBeGreaterThan(0);
    const { negative } = await issued(t);
    expect(negative).toBe(0);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
    // Every posted document moved exactly its lines; every refused one moved nothing.
    const perDoc = await sql<{ bad: number }>`
      SELECT count(*)::int AS bad FROM stock_outbound o
       WHERE (o.status = 'posted') <> EXISTS (SELECT 1 FROM stock_ledger s WHERE s.doc_type = 'stock-outbound' AND s.doc_id = o.id)
          OR (o.status = 'posted' AND (SELECT sum(quantity) FROM stock_outbound_line l WHERE l.stock_outbound_id = o.id)
                                     <> -(SELECT sum(quantity) FROM stock_ledger s WHERE s.doc_type = 'stock-outbound' AND s.doc_id = o.id))`.execute(
      t.database.db,
    );
    expect(perDoc.rows[0].bad).toBe(0);
    // Demand far exceeds supply, so what is left is only what no refused document could take.
    const left = await sql<{
      q: string;
    }>`SELECT coalesce(sum(quantity), 0)::text AS q FROM stock_balance`.execute(t.database.db);
    const { issued: out } = await issued(t);
    expect(out + Number(left.rows[0].q)).toBe(MATERIALS * STOCK);
  });

  it('bites: without the guard the same run breaks the invariants', async () => {
    const u = await createTestApp();
    try {
      const tk = await u.login();
      const { warehouseId, ids } = await world(u, tk);
      await sql`ALTER TABLE stock_balance DROP CONSTRAINT stock_balance_quantity_check`.execute(
        u.database.db,
      );
      const docs = await drafts(u, tk, warehouseId, ids, 42);
      const admin = (await u.database.db
        .selectFrom('appUser')
        .select(['id', 'userName', 'firstName'])
        .where('userName', '=', 'admin')
        .executeTakeFirstOrThrow()) as any;
      const user = {
        ...admin,
        deptId: null,
        sessionId: 0,
        roleKeys: ['admin'],
        permissions: new Set(),
        isAdmin: true,
      } as AuthUser;
      await Promise.all(
        docs.map(async (clientDocs) => {
          for (const id of clientDocs) {
            await u.database.db
              .transaction()
              .execute((trx) => postDocumentByName(trx, 'stock-outbound', id, user, { guard: false }))
              .catch(() => {});
          }
        }),
      );
      const { negative } = await issued(u);
      const violations = await stockInvariantViolations(u.database.db);
      expect(negative + violations.length).toBeGreaterThan(0);
    } finally {
      await u.close();
    }
  });
});
