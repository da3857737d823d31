// Stock valuation, property-tested (issue 37 §2): random sequences of receipts (priced and
// unpriced), issues, transfers, stocktake differences and reversals (of 盘点单 too) go through the API and the
// real posting code; after every step the database must hold, per material and warehouse,
//   - the invariant: value = Σ ledger amounts, quantity = Σ balances, value ≥ 0, 0 when empty;
//   - the figures of a reference model written here, apart from the server's code: exact integer
//     arithmetic (quantities in 1/10,000, money in cents, averages in millionths) of the documented
//     convention (docs/architecture.md, "Valuation and reversals").
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { closeStockWorld, openStockWorld, type StockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let w: StockWorld;
beforeAll(async () => {
  ({ t, token, w } = await openStockWorld());
});
afterAll(() => closeStockWorld(t));

// ----------------------------------------------------------------- the reference model

/** n ÷ d rounded half away from zero (d > 0). */
function divRound(n: bigint, d: bigint): bigint {
  return n < 0n ? -divRound(-n, d) : (2n * n + d) / (2n * d);
}
const fromQty = (s: string) => BigInt(Math.round(Number(s) * 1e4));
const fromMoney = (s: string) => BigInt(Math.round(Number(s) * 100));
const fromRate = (s: string) => BigInt(Math.round(Number(s) * 1e6));

interface Bin {
  q: bigint; // 1/10,000 of a unit
  v: bigint; // cents
  avg: bigint | null; // millionths of a yuan per unit; null: never had one
}
interface Row {
  wh: number;
  q: bigint;
  v: bigint;
  cost: bigint;
}

class Model {
  bins = new Map<number, Bin>();

  /** A pair's row, made on first touch with the material's average in its other warehouse. */
  touch(wh: number): Bin {
    let b = this.bins.get(wh);
    if (!b) {
      const other = [...this.bins.values()][0];
      const avg = !other ? null : other.q > 0n ? divRound(other.v * 100_000_000n, other.q) : other.avg;
      b = { q: 0n, v: 0n, avg };
      this.bins.set(wh, b);
    }
    return b;
  }
  private settle(b: Bin) {
    if (b.q > 0n) b.avg = divRound(b.v * 100_000_000n, b.q);
  }
  /** Rows of one posting; each touches a pair once. Issues first, then receipts; then adjustments. */
  post(
    moves: {
      wh: number;
      q: bigint;
      kind: 'issue' | 'priced' | 'unpriced' | 'fixed';
      price?: bigint;
      v?: bigint;
      cost?: bigint;
    }[],
  ): Row[] {
    const rows: Row[] = [];
    for (const m of [...moves.filter((x) => x.q < 0n), ...moves.filter((x) => x.q > 0n)]) {
      const b = this.touch(m.wh);
      let v: bigint;
      let cost: bigint;
      if (m.kind === 'fixed') {
        v = m.v as bigint;
        cost = m.cost as bigint;
      } else if (m.kind === 'priced') {
        cost = m.price as bigint;
        v = divRound(m.q * cost, 100_000_000n);
      } else if (m.kind === 'issue') {
        cost = divRound(b.v * 100_000_000n, b.q);
        v = -m.q >= b.q ? -b.v : -divRound(-m.q * b.v, b.q);
      } else if (b.q > 0n) {
        cost = divRound(b.v * 100_000_000n, b.q);
        v = divRound(m.q * b.v, b.q);
      } else {
        cost = b.avg ?? 0n;
        v = divRound(m.q * cost, 100_000_000n);
      }
      b.q += m.q;
      b.v += v;
      rows.push({ wh: m.wh, q: m.q, v, cost });
    }
    for (const m of moves) {
      const b = this.touch(m.wh);
      if ((b.q <= 0n && b.v !== 0n) || b.v < 0n) {
        rows.push({ wh: m.wh, q: 0n, v: -b.v, cost: 0n });
        b.v = 0n;
      }
      this.settle(b);
    }
    return rows;
  }
}

// ----------------------------------------------------------------- the operations

type Op =
  | { op: 'receive'; wh: number; q: number; price: number | null }
  | { op: 'issue'; wh: number; part: number }
  | { op: 'transfer'; from: number; part: number }
  | { op: 'count'; wh: number; delta: number }
  | { op: 'reverse'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('receive' as const),
      wh: fc.nat(1),
      // Tenths of a unit: a few pieces, or up to 200,000 (where an average rounded to 6 places,
      // times the quantity, is cents away from the share).
      q: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 2_000_000 })),
      price: fc.option(fc.integer({ min: 0, max: 99_999_999 }), { freq: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('issue' as const),
      wh: fc.nat(1),
      part: fc.integer({ min: 1, max: 100 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('transfer' as const),
      from: fc.nat(1),
      part: fc.integer({ min: 1, max: 100 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('count' as const),
      wh: fc.nat(1),
      delta: fc.integer({ min: -100, max: 100 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('reverse' as const), pick: fc.nat(1000) }) },
);

/** A posted document the sequence may reverse, with the rows the model gave it. */
interface Posted {
  kind: 'stock-inbound' | 'stock-outbound' | 'stock-transfer' | 'stocktake';
  id: number;
  rows: Row[];
  /** A count's warehouse: a later count there blocks its reversal until that one is reversed. */
  countedIn?: number;
}

const tenths = (n: bigint) => (Number(n) / 1e4).toString();
/** Part (1–100 %) of a quantity, in tenths of a unit, at least one tenth. */
const partOf = (q: bigint, part: number) => {
  const t10 = q / 1000n;
  return t10 <= 0n ? 0n : ((t10 * BigInt(part) + 99n) / 100n) * 1000n;
};

async function created(kind: string, body: Record<string, unknown>) {
  const r = await t.call('POST', `/api/v1/${kind}/add`, { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result.id as number;
}
async function posted(kind: string, id: number) {
  const r = await w.post(kind, id);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The database's valuation rows and the ledger rows after `afterId` of one material. */
async function db(materialId: number, afterId: number) {
  const bins = await sql<{ warehouseId: number; quantity: string; value: string; avgCost: string | null }>`
    SELECT warehouse_id, quantity::text, value::text, avg_cost::text FROM stock_value WHERE material_id = ${materialId}`.execute(
    t.database.db,
  );
  const rows = await sql<{
    id: number;
    warehouseId: number;
    quantity: string;
    amount: string;
    unitCost: string;
  }>`
    SELECT id, warehouse_id, quantity::text, amount::text, unit_cost::text FROM stock_ledger
     WHERE material_id = ${materialId} AND id > ${afterId} ORDER BY id`.execute(t.database.db);
  const bad = await sql<{ warehouseId: number }>`
    SELECT v.warehouse_id FROM stock_value v
     WHERE v.material_id = ${materialId}
       AND (v.value <> (SELECT coalesce(sum(s.amount), 0) FROM stock_ledger s WHERE s.material_id = v.material_id AND s.warehouse_id = v.warehouse_id)
         OR v.quantity <> (SELECT coalesce(sum(b.quantity), 0) FROM stock_balance b WHERE b.material_id = v.material_id AND b.warehouse_id = v.warehouse_id)
         OR v.value < 0 OR (v.quantity = 0 AND v.value <> 0))`.execute(t.database.db);
  return { bins: bins.rows, rows: rows.rows, bad: bad.rows };
}

async function run(ops: Op[]) {
  const m = await w.material();
  const whs = [w.warehouseId, w.otherWarehouseId];
  const model = new Model();
  const docs: Posted[] = [];
  let seen = 0;
  const log: string[] = [];
  for (const op of ops) {
    let expected: Row[] | null = null;
    if (op.op === 'receive') {
      const wh = whs[op.wh];
      const q = BigInt(op.q) * 1000n;
      const line: Record<string, unknown> = { materialId: m.id, quantity: tenths(q) };
      if (op.price !== null) line.unitPrice = (op.price / 1e6).toFixed(6);
      const id = await created('stock-inbound', { type: 'purchase', warehouseId: wh, lines: [line] });
      await posted('stock-inbound', id);
      expected = model.post([
        op.price === null ? { wh, q, kind: 'unpriced' } : { wh, q, kind: 'priced', price: BigInt(op.price) },
      ]);
      docs.push({ kind: 'stock-inbound', id, rows: expected });
    } else if (op.op === 'issue') {
      const wh = whs[op.wh];
      const q = partOf(model.bins.get(wh)?.q ?? 0n, op.part);
      if (q <= 0n) continue;
      const id = await created('stock-outbound', {
        type: 'requisition',
        warehouseId: wh,
        lines: [{ materialId: m.id, quantity: tenths(q) }],
      });
      await posted('stock-outbound', id);
      expected = model.post([{ wh, q: -q, kind: 'issue' }]);
      docs.push({ kind: 'stock-outbound', id, rows: expected });
    } else if (op.op === 'transfer') {
      const [from, to] = op.from === 0 ? whs : [whs[1], whs[0]];
      const q = partOf(model.bins.get(from)?.q ?? 0n, op.part);
      if (q <= 0n) continue;
      const id = await created('stock-transfer', {
        fromWarehouseId: from,
        toWarehouseId: to,
        lines: [{ materialId: m.id, quantity: tenths(q) }],
      });
      await posted('stock-transfer', id);
      model.touch(from);
      model.touch(to);
      const out = model.post([{ wh: from, q: -q, kind: 'issue' }]);
      const into = model.post([{ wh: to, q, kind: 'fixed', v: -out[0].v, cost: out[0].cost }]);
      expected = [...out, ...into];
      docs.push({ kind: 'stock-transfer', id, rows: expected });
    } else if (op.op === 'count') {
      const wh = whs[op.wh];
      const book = model.bins.get(wh)?.q ?? 0n;
      const delta = BigInt(op.delta) * 1000n;
      const counted = book + delta < 0n ? 0n : book + delta;
      if (counted === book) continue;
      const id = await created('stocktake', {
        warehouseId: wh,
        lines: [{ materialId: m.id, countedQuantity: tenths(counted) }],
      });
      await posted('stocktake', id);
      model.touch(wh);
      expected = model.post([{ wh, q: counted - book, kind: counted < book ? 'issue' : 'unpriced' }]);
      docs.push({ kind: 'stocktake', id, rows: expected, countedIn: wh });
    } else {
      const open = docs.filter((d) => d.rows.length);
      if (!open.length) continue;
      const doc = open[op.pick % open.length];
      // A count is taken back only while no later count of its warehouse stands (冲销 that first).
      const counted =
        doc.countedIn !== undefined &&
        open.some((d) => d.countedIn === doc.countedIn && d.id > doc.id && d.kind === 'stocktake');
      // A mirror takes back out what came in: refused (库存不足) when that stock has left since.
      const short = doc.rows.some((r) => r.q > 0n && (model.bins.get(r.wh)?.q ?? 0n) < r.q);
      const r = await t.call('POST', `/api/v1/${doc.kind}/reverse/${doc.id}`, { token });
      log.push(`reverse ${doc.kind} ${doc.id}: ${r.status}`);
      if (counted) {
        expect(r.status, JSON.stringify(r.body)).toBe(409);
        expect(r.body.message).toMatch(/请先冲销/);
        continue;
      }
      if (short) {
        expect(r.status, JSON.stringify(r.body)).toBe(409);
        expect(r.body.message).toMatch(/库存不足/);
        continue;
      }
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const originals = doc.rows.filter((x) => x.q !== 0n);
      for (const x of originals) model.touch(x.wh);
      expected = model.post(
        originals.map((x) => ({ wh: x.wh, q: -x.q, kind: 'fixed' as const, v: -x.v, cost: x.cost })),
      );
      doc.rows = [];
    }
    log.push(JSON.stringify(op));
    const now = await db(m.id, seen);
    expect(now.bad, log.join('\n')).toEqual([]);
    // The rows this step wrote, in the model's order (a posting writes issues, receipts, adjustments).
    const got = now.rows.map((r) => ({
      wh: Number(r.warehouseId),
      q: fromQty(r.quantity),
      v: fromMoney(r.amount),
      cost: fromRate(r.unitCost),
    }));
    expect(got, log.join('\n')).toEqual(expected);
    if (now.rows.length) seen = Number(now.rows.at(-1)?.id);
    const bins = Object.fromEntries(
      now.bins.map((b) => [
        Number(b.warehouseId),
        {
          q: fromQty(b.quantity),
          v: fromMoney(b.value),
          avg: b.avgCost === null ? null : fromRate(b.avgCost),
        },
      ]),
    );
    expect(bins, log.join('\n')).toEqual(Object.fromEntries(model.bins));
  }
}

describe('stock valuation under random sequences', () => {
  it('holds value = Σ ledger amounts per material and warehouse, and agrees with the reference model', async () => {
    // Each sequence starts from nothing on a material of its own. The first runs are the cases a
    // reversal leaves a value to adjust: empty stock with value, stock with a negative value, and
    // a transfer reversed after its goods were issued and replaced at a lower price.
    const rec = (wh: number, q: number, price: number | null): Op => ({ op: 'receive', wh, q, price });
    const examples: [Op[]][] = [
      [[rec(0, 100, 1e6), rec(0, 100, 4e6), { op: 'issue', wh: 0, part: 50 }, { op: 'reverse', pick: 1 }]],
      [
        [
          rec(0, 100, 1e6),
          rec(0, 100, 4e6),
          { op: 'issue', wh: 0, part: 50 },
          rec(0, 50, 1e6),
          { op: 'reverse', pick: 1 },
        ],
      ],
      [
        [
          rec(0, 100, 1e6),
          { op: 'transfer', from: 0, part: 50 },
          { op: 'issue', wh: 1, part: 100 },
          rec(1, 50, 5e5),
          { op: 'reverse', pick: 1 },
          { op: 'count', wh: 1, delta: 20 },
          { op: 'reverse', pick: 2 },
        ],
      ],
      // 盘亏 then 盘盈 of one warehouse: the first count waits for the second's 冲销, then goes back.
      [
        [
          rec(0, 100, 3e6),
          { op: 'count', wh: 0, delta: -10 },
          rec(0, 50, 1e6),
          { op: 'count', wh: 0, delta: 5 },
          { op: 'reverse', pick: 1 },
          { op: 'reverse', pick: 3 },
          { op: 'reverse', pick: 1 },
        ],
      ],
    ];
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 14, size: 'max' }), run), {
      numRuns: 50,
      examples,
    });
  }, 600_000);
});
