import { docTypesOf, RESOURCES } from '@ringmes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDocNo, nextDocNos } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

interface Row {
  docType: string;
  defaultPrefix: string;
  prefix: string;
  pattern: 'daily' | 'monthly' | 'yearly';
  example: string;
}

let t: TestApp;
let token: string;
let f: Factory;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const list = async (): Promise<Row[]> => {
  const r = await t.call('GET', '/api/v1/sysSetting/docPrefixes', { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const save = (body: unknown, as = token) =>
  t.call('PUT', '/api/v1/sysSetting/docPrefixes', { token: as, body });
/** The list as GET answers it, with some types changed (by default prefix). */
const changed = async (changes: Record<string, Partial<Row>>) =>
  (await list()).map((r) => ({ ...r, ...changes[r.defaultPrefix] }));
const saleOrderNo = async (orderDate: string) =>
  (await f.create('sale-order', { orderDate, deliveryDate: '2027-12-31' })).docNo as string;

describe('document numbers: defaults', () => {
  it('lists every numbered type with its default prefix, the daily pattern and an example', async () => {
    const rows = await list();
    // Exactly the types the resource declarations number (`numbering`), refunds included.
    expect(rows.map((r) => [r.docType, r.defaultPrefix])).toEqual(
      docTypesOf(RESOURCES).map((d) => [d.docType, d.defaultPrefix]),
    );
    expect(rows.length).toBeGreaterThanOrEqual(24);
    expect(new Set(rows.map((r) => r.defaultPrefix)).size).toBe(rows.length);
    expect(rows.find((r) => r.defaultPrefix === 'TK')).toMatchObject({ docType: '退款单' });
    const sale = rows.find((r) => r.defaultPrefix === 'XS');
    expect(sale).toMatchObject({ docType: '销售订单', prefix: 'XS', pattern: 'daily' });
    expect(sale?.example).toMatch(/^XS\d{8}-0001$/);
    for (const r of rows) expect(r).toMatchObject({ prefix: r.defaultPrefix, pattern: 'daily' });
  });

  it('numbers a sales order as before when nothing is set', async () => {
    expect(await saleOrderNo('2026-11-22')).toBe('XS20261122-0001');
    expect(await saleOrderNo('2026-11-22')).toBe('XS20261122-0002');
  });

  it('hands out a block of numbers in one step, continuing the same count (documents made in bulk)', async () => {
    const at = new Date('2026-11-23T04:00:00Z');
    const db = t.database.db;
    expect(await nextDocNos(db, 'BG', 3, undefined, at)).toEqual([
      'BG20261123-0001',
      'BG20261123-0002',
      'BG20261123-0003',
    ]);
    expect(await nextDocNo(db, 'BG', undefined, at)).toBe('BG20261123-0004');
    expect(await nextDocNos(db, 'BG', 2, undefined, at)).toEqual(['BG20261123-0005', 'BG20261123-0006']);
    expect(await nextDocNos(db, 'BG', 0, undefined, at)).toEqual([]);
  });
});

describe('document numbers: no saving transaction holds the day’s counter', () => {
  it('on PostgreSQL a number taken in an open transaction does not hold up the next; a rolled-back one stays unused', async () => {
    const db = t.database.db;
    const at = new Date('2026-11-24T04:00:00Z');
    if (t.database.kind !== 'postgres') {
      // PGlite: one transaction at a time; the number is part of it and an aborted save gives it back.
      await expect(
        db.transaction().execute(async (trx) => {
          expect(await nextDocNo(trx, 'CK', undefined, at)).toBe('CK20261124-0001');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await nextDocNo(db, 'CK', undefined, at)).toBe('CK20261124-0001');
      return;
    }
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let first = '';
    const slow = db.transaction().execute(async (trx) => {
      first = await nextDocNo(trx, 'CK', undefined, at);
      await held; // still saving
      throw new Error('rolled back');
    });
    while (!first) await new Promise((r) => setTimeout(r, 5));
    expect(first).toBe('CK20261124-0001');
    // Another save of the same day takes the next number and commits while the first is open.
    const started = Date.now();
    const second = await db.transaction().execute((trx) => nextDocNo(trx, 'CK', undefined, at));
    expect(second).toBe('CK20261124-0002');
    expect(Date.now() - started).toBeLessThan(2_000);
    release();
    await expect(slow).rejects.toThrow('rolled back');
    // The first save failed after taking 0001: that number stays unused.
    expect(await nextDocNo(db, 'CK', undefined, at)).toBe('CK20261124-0003');
  });
});

describe('document numbers: refusals', () => {
  it('refuses bad and clashing prefixes with a Chinese message, changing nothing', async () => {
    const cases: [Record<string, Partial<Row>>, RegExp][] = [
      [{ XS: { prefix: 'so' } }, /前缀须为 1–6 位大写字母或数字，以字母开头/],
      [{ XS: { prefix: '1SO' } }, /前缀须为 1–6 位大写字母或数字，以字母开头/],
      [{ XS: { prefix: 'ABCDEFG' } }, /前缀须为 1–6 位大写字母或数字，以字母开头/],
      [{ XS: { prefix: ' ' } }, /请输入前缀/],
      [{ XS: { prefix: 'SC' } }, /销售订单：前缀 SC 已被生产订单使用，各类单据的前缀不能相同/],
      [{ XS: { prefix: 'SC1' } }, /前缀 SC1 与生产订单的前缀 SC 只差末尾数字/],
      [{ XS: { pattern: 'weekly' as Row['pattern'] } }, /编号格式只能是/],
    ];
    for (const [change, message] of cases) {
      const r = await save(await changed(change));
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(r.body.message).toMatch(message);
      expect(r.body.errors?.[0].field).toMatch(/^\d+\.(prefix|pattern)$/);
    }
    // Two types swapped to the same new prefix.
    const both = await save(await changed({ XS: { prefix: 'AA' }, CG: { prefix: 'AA' } }));
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('前缀 AA 已被采购订单使用');

    const rows = await list();
    const missing = await save(rows.filter((r) => r.defaultPrefix !== 'BH'));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('缺少单据类型：备货单');
    const twice = await save([...rows, rows[0]]);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toContain('销售订单只能出现一次');
    const unknown = await save([...rows, { defaultPrefix: 'ZZ', prefix: 'ZZ', pattern: 'daily' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.map((e) => e.field)).toContain(`${rows.length}.defaultPrefix`);
    expect((await save(rows.map((r) => ({ ...r, extra: 1 })))).status).toBe(400);

    expect(await list()).toEqual(rows);
  });

  it('needs system:setting:edit to change', async () => {
    const reader = await t.userWith(['system:setting:list']);
    expect((await t.call('GET', '/api/v1/sysSetting/docPrefixes', { token: reader.token })).status).toBe(200);
    expect((await save(await list(), reader.token)).status).toBe(403);
  });
});

describe('document numbers: a changed prefix and pattern', () => {
  it('numbers the next sales order by the new prefix and a monthly count, and audits the change', async () => {
    const r = await save(await changed({ XS: { prefix: 'SO', pattern: 'monthly' } }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sale = (r.body.result as Row[]).find((x) => x.defaultPrefix === 'XS');
    expect(sale).toMatchObject({ docType: '销售订单', prefix: 'SO', pattern: 'monthly' });
    expect(sale?.example).toMatch(/^SO\d{6}-00001$/);

    // The monthly count is its own: it starts at 1 and runs across the days of a month.
    expect(await saleOrderNo('2026-11-22')).toBe('SO202611-00001');
    expect(await saleOrderNo('2026-11-30')).toBe('SO202611-00002');
    expect(await saleOrderNo('2026-12-01')).toBe('SO202612-00001');
    expect(await saleOrderNo('2026-11-03')).toBe('SO202611-00003');
    // Other types keep theirs.
    expect((await f.create('purchase-order', { orderDate: '2026-11-22' })).docNo).toMatch(
      /^CG20261122-\d{4}$/,
    );

    const audit = await t.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('entity', '=', 'setting')
      .where('entityId', '=', 'docPrefixes')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.userName).toBe('admin');
    expect(audit.beforeData).toEqual({});
    expect(audit.afterData).toEqual({ XS: { prefix: 'SO', pattern: 'monthly' } });
  });

  it('hands out monthly and yearly numbers atomically under concurrency', async () => {
    expect(
      (await save(await changed({ XS: { prefix: 'SO', pattern: 'monthly' }, BH: { pattern: 'yearly' } })))
        .status,
    ).toBe(200);
    const db = t.database.db;
    const at = new Date('2027-03-15T04:00:00Z');
    const monthly = await Promise.all(
      Array.from({ length: 30 }, () =>
        db.transaction().execute((trx) => nextDocNo(trx, 'XS', 'Asia/Shanghai', at)),
      ),
    );
    expect(new Set(monthly).size).toBe(30);
    expect(monthly.sort()[0]).toBe('SO202703-00001');
    expect(monthly.sort()[29]).toBe('SO202703-00030');
    const yearly = await Promise.all(
      Array.from({ length: 30 }, () =>
        db.transaction().execute((trx) => nextDocNo(trx, 'BH', 'Asia/Shanghai', at)),
      ),
    );
    expect(new Set(yearly).size).toBe(30);
    expect(yearly.sort()[29]).toBe('BH2027-000030');
    expect(await nextDocNo(db, 'BH', 'Asia/Shanghai', new Date('2027-12-31T04:00:00Z'))).toBe(
      'BH2027-000031',
    );
  });

  it('goes back to the daily numbers, continuing the day count, when reset to the defaults', async () => {
    const rows = await list();
    const r = await save(rows.map((x) => ({ ...x, prefix: x.defaultPrefix, pattern: 'daily' })));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.result as Row[]).every((x) => x.prefix === x.defaultPrefix && x.pattern === 'daily')).toBe(
      true,
    );
    expect(await saleOrderNo('2026-11-22')).toBe('XS20261122-0003');
  });
});
