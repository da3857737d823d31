import { type ResourceDef, resourceByName } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDateWindow } from '../src/platform/date-window.ts';
import { fieldSchema } from '../src/platform/resource/schema.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §2: bounds on numbers and dates (docs/architecture.md, "Bounds on numbers and dates").
 * One order of 9,999,999 × 999,999,999.999999 filled the month's sales rollup and blocked every
 * later approval of the material; documents, rates and measurements dated 1900 or 9999 went in.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const post = (url: string, body: unknown, as = token) => t.call('POST', url, { token: as, body });
const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const saleOrder = (
  customerId: number,
  lines: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) =>
  post('/api/v1/sale-order/add', {
    customerId,
    orderDate: '2026-10-08',
    deliveryDate: '2026-11-20',
    lines,
    ...extra,
  });
const errorOf = (r: { body: any }, field: string) =>
  (r.body.errors ?? []).find((e: { field: string }) => e.field === field)?.message;

/** Today in the factory's time zone, and the last day of the default window: five years on. */
const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
const yearsOn = (n: number) => `${Number(today.slice(0, 4)) + n}${today.slice(4)}`; // (not run on 29 February)

describe('bounds on numbers', () => {
  it('refuses the order that blocked a month: 9,999,999 × 999,999,999.999999 is past 10¹² a line', async () => {
    const c = await f.create('customer');
    const m = await f.create('material-info');
    const attack = await saleOrder(c.id, [
      { materialId: m.id, quantity: '9999999', unitPrice: '999999999.999999' },
    ]);
    expect(attack.status, JSON.stringify(attack.body)).toBe(400);
    expect(errorOf(attack, 'lines.0.amount')).toBe('第 1 行金额（数量 × 单价）不能超过 1,000,000,000,000');
    // Each figure past its own bound, named by its field.
    const qty = await saleOrder(c.id, [{ materialId: m.id, quantity: '1000000000.0001', unitPrice: '1' }]);
    expect(qty.status).toBe(400);
    expect(errorOf(qty, 'lines.0.quantity')).toBe('数量不能超过 1,000,000,000');
    const price = await saleOrder(c.id, [
      { materialId: m.id, quantity: '1', unitPrice: '1000000000.000001' },
    ]);
    expect(price.status).toBe(400);
    expect(errorOf(price, 'lines.0.unitPrice')).toBe('含税单价(元)不能超过 1,000,000,000');
    // Two lines of 600 × 1,000,000,000 = 6 × 10¹¹ each: the order's total 1.2 × 10¹² is past 10¹².
    const total = await saleOrder(c.id, [
      { materialId: m.id, quantity: '600', unitPrice: '1000000000' },
      { materialId: m.id, quantity: '600', unitPrice: '1000000000' },
    ]);
    expect(total.status).toBe(400);
    expect(errorOf(total, 'amount')).toContain('订单金额合计不能超过 1,000,000,000,000');
    // A purchase order is priced by the same code.
    const s = await f.create('supplier');
    const po = await post('/api/v1/purchase-order/add', {
      supplierId: s.id,
      orderDate: '2026-10-12',
      deliveryDate: '2026-10-30',
      lines: [{ materialId: m.id, quantity: '9999999', unitPrice: '999999999.999999' }],
    });
    expect(po.status).toBe(400);
    expect(errorOf(po, 'lines.0.amount')).toContain('不能超过 1,000,000,000,000');
    // Nothing was kept of the refused orders.
    const kept = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM sale_order WHERE customer_id = ${c.id}`.execute(t.database.db);
    expect(kept.rows[0].n).toBe(0);
  });

  it('bounds each numeric kind in the field schemas, a declared bound narrowing it', async () => {
    const issue = (f: Parameters<typeof fieldSchema>[0], v: string) => {
      const r = fieldSchema(f).safeParse(v);
      return r.success ? r.data : r.error.issues[0].message;
    };
    const q = { name: 'quantity', label: '数量', kind: 'quantity' } as const;
    expect(issue(q, '1000000000')).toBe('1000000000');
    expect(issue(q, '1000000000.0001')).toBe('数量不能超过 1,000,000,000');
    const money = { name: 'amount', label: '金额', kind: 'money', min: -999999999999.99 } as const;
    expect(issue(money, '1000000000000')).toBe('1000000000000');
    expect(issue(money, '1000000000000.01')).toBe('金额不能超过 1,000,000,000,000');
    expect(issue(money, '-1000000000000')).toBe('金额不能小于 -999999999999.99');
    const dec = { name: 'factor', label: '系数', kind: 'decimal', scale: 4 } as const;
    expect(issue(dec, '-1000000000000')).toBe('-1000000000000');
    expect(issue(dec, '-1000000000000.0001')).toBe('系数不能小于 -1,000,000,000,000');
    expect(issue({ ...dec, max: 100 }, '100.5')).toBe('系数不能大于 100');
    // Over HTTP on a master: a customer's credit limit is money.
    const c = await post('/api/v1/customer/add', {
      ...(await f.body(resourceByName('customer') as ResourceDef)),
      creditLimit: '1000000000000.01',
    });
    expect(c.status, JSON.stringify(c.body)).toBe(400);
    expect(errorOf(c, 'creditLimit')).toBe('信用额度(元)不能超过 1,000,000,000,000');
  });

  it('a month of orders at the bounds fits its rollup: later approvals of the material are never blocked', async () => {
    const c = await f.create('customer');
    const m = await f.create('material-info');
    // Two orders of 1,000 × 1,000,000,000 = 10¹² each (the largest total allowed) and a small third.
    const ids: number[] = [];
    for (const [quantity, unitPrice] of [
      ['1000', '1000000000'],
      ['1000', '1000000000'],
      ['1', '1'],
    ]) {
      const o = ok(await saleOrder(c.id, [{ materialId: m.id, quantity, unitPrice }]));
      ids.push(o.id);
    }
    for (const id of ids) ok(await post(`/api/v1/sale-order/approve/${id}`, {}));
    // By hand: 2 × 1,000,000,000,000.00 + 1.00 = 2,000,000,000,001.00; 1,000 + 1,000 + 1 = 2,001 pieces.
    const rollup = await sql<{ amount: string; quantity: string }>`
      SELECT ordered_amount::text AS amount, ordered_quantity::text AS quantity FROM order_report_month
       WHERE kind = 'sale' AND month = '2026-10-01' AND party_id = ${c.id} AND material_id = ${m.id}`.execute(
      t.database.db,
    );
    expect(rollup.rows).toEqual([{ amount: '2000000000001.00', quantity: '2001.0000' }]);
    // Every summing table has room for 10¹⁴ documents at the bounds in one row (numeric(28,x) at
    // least, or unconstrained): none is left at numeric(18,x).
    const narrow = await sql<{ table: string; column: string; precision: number }>`
      SELECT table_name AS table, column_name AS column, numeric_precision AS precision FROM information_schema.columns
       WHERE table_schema = current_schema() AND data_type = 'numeric' AND numeric_precision < 28
         AND table_name IN ('order_report_month', 'stock_ledger_month', 'work_report_rollup', 'work_report_day_rollup',
                            'work_report_process_rollup', 'flow_card_summary', 'flow_card_wip', 'sale_order_card_summary',
                            'wage_month', 'wage_sheet', 'wage_period')
       ORDER BY 1, 2`.execute(t.database.db);
    expect(narrow.rows).toEqual([]);
  });
});

describe('the business date window', () => {
  it('refuses documents, rates and receivables dated 1900-01-01 or 9999-12-31; filters stay open', async () => {
    const c = await f.create('customer');
    const m = await f.create('material-info');
    const window = `须在 2000-01-01 至 ${yearsOn(5)} 之间`;
    const old = await saleOrder(c.id, [{ materialId: m.id, quantity: 1, unitPrice: '1' }], {
      orderDate: '1900-01-01',
    });
    expect(old.status).toBe(400);
    expect(errorOf(old, 'orderDate')).toBe(`订单日期${window}`);
    const far = await saleOrder(c.id, [{ materialId: m.id, quantity: 1, unitPrice: '1' }], {
      deliveryDate: '9999-12-31',
    });
    expect(far.status).toBe(400);
    expect(errorOf(far, 'deliveryDate')).toBe(`交货日期${window}`);
    // The window's last day is in, the day after is out.
    const edge = await saleOrder(c.id, [{ materialId: m.id, quantity: 1, unitPrice: '1' }], {
      deliveryDate: yearsOn(5),
    });
    expect(edge.status, JSON.stringify(edge.body)).toBe(200);
    const process = await f.create('process-manage');
    const rate = await post('/api/v1/process-wage/add', {
      processId: process.id,
      validFrom: '1900-01-01',
      pieceRate: '0.1',
    });
    expect(rate.status).toBe(400);
    expect(errorOf(rate, 'validFrom')).toContain(window);
    const receivable = await post('/api/v1/receivable/add', { customerId: c.id, bizDate: '9999-12-31' });
    expect(receivable.status).toBe(400);
    expect(errorOf(receivable, 'bizDate')).toContain(window);
    const patrol = await post('/api/v1/inspection-task/patrol-plan', { planDate: '9999-12-31' });
    expect(patrol.status).toBe(400);
    expect(errorOf(patrol, 'planDate')).toBe(`计划日期${window}`);
    // Searching is not storing: any range may be asked for.
    const page = await t.call('GET', '/api/v1/sale-order/page', {
      token,
      query: { orderDateFrom: '1900-01-01', orderDateTo: '9999-12-31' },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
  });

  it('follows the two settings: dates.earliest and dates.yearsAhead, read again within seconds', async () => {
    const c = await f.create('customer');
    const m = await f.create('material-info');
    const db = t.database.db;
    await sql`INSERT INTO sys_setting (key, value) VALUES ('dates.earliest', '"1990-01-01"'), ('dates.yearsAhead', '1')
              ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`.execute(db);
    // A write more than 5 s after the window was last read reads the settings again (the hook).
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    try {
      const line = [{ materialId: m.id, quantity: 1, unitPrice: '1' }];
      ok(await saleOrder(c.id, line, { orderDate: '1995-05-05', deliveryDate: '1995-06-01' }));
      const late = await saleOrder(c.id, line, { deliveryDate: yearsOn(2) });
      expect(late.status).toBe(400);
      expect(errorOf(late, 'deliveryDate')).toBe(`交货日期须在 1990-01-01 至 ${yearsOn(1)} 之间`);
    } finally {
      await sql`DELETE FROM sys_setting WHERE key IN ('dates.earliest', 'dates.yearsAhead')`.execute(db);
      await readDateWindow(db);
    }
  });

  it('measurements: not in the future (a few minutes of skew allowed), not outside the window; a legacy one never breaks a chart', async () => {
    const product = await f.create('material-info');
    const equipment = await f.create('equipment');
    const me = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
    const at = (ms: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Asia/Shanghai',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(new Date(Date.now() + ms));
    const measure = (measuredAt: string) =>
      post('/api/v1/measurement-subgroup/add', {
        productId: product.id,
        characteristic: 'outside-diameter',
        equipmentId: equipment.id,
        operatorId: me,
        measuredAt,
        values: [{ value: '47.001' }, { value: '46.999' }],
      });
    const future = await measure(at(60 * 60_000));
    expect(future.status).toBe(400);
    expect(errorOf(future, 'measuredAt')).toBe('测量时间不能晚于当前时间');
    const far = await measure('9999-12-31 00:00:00');
    expect(far.status).toBe(400);
    expect(errorOf(far, 'measuredAt')).toBe(`测量时间须在 2000-01-01 至 ${yearsOn(5)} 之间`);
    expect((await measure('1900-01-01 08:00:00')).status).toBe(400);
    ok(await measure(at(2 * 60_000))); // a gauge's clock two minutes fast
    ok(await measure(at(-60 * 60_000)));

    // A gauge's file: a row measured in the future or in 9999 is refused with its row, and so is
    // the import's own default time; nothing is imported.
    const gauge = async (rows: string[], meta: Record<string, unknown> = {}) => {
      const boundary = 'ringmesbounds';
      const part = (name: string, value: string, file?: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${value}\r\n`;
      const metaJson = JSON.stringify({
        productId: product.id,
        characteristic: 'outside-diameter',
        equipmentId: equipment.id,
        operatorId: me,
        subgroupSize: 2,
        valueColumns: [1, 2],
        timeColumn: 0,
        ...meta,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/measurement-subgroup/importValues',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          authorization: `Bearer ${token}`,
        },
        payload: `${part('meta', metaJson)}${part('file', ['时间,X1,X2', ...rows].join('\r\n'), 'gauge.csv')}--${boundary}--\r\n`,
      });
      return { status: res.statusCode, body: res.json() };
    };
    const bad = await gauge([
      `${at(-60_000)},47.001,46.999`,
      `${at(60 * 60_000)},47.002,46.998`,
      '9999-12-31 08:00:00,47,47',
    ]);
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: '第3行', message: expect.stringContaining('测量时间不能晚于当前时间') },
      { field: '第4行', message: expect.stringContaining(`测量时间须在 2000-01-01 至 ${yearsOn(5)} 之间`) },
    ]);
    const defaultTime = await gauge(['', '47.001,46.999'], {
      timeColumn: null,
      measuredAt: '9999-12-31 08:00:00',
    });
    expect(defaultTime.status).toBe(400);
    expect(errorOf(defaultTime, 'measuredAt')).toBe(`测量时间须在 2000-01-01 至 ${yearsOn(5)} 之间`);
    const good = await gauge([`${at(-60_000)},47.001,46.999`]);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.result.imported).toBe(1);

    // One measurement stored in 9999 before the bound (written here directly) no longer breaks a
    // chart whose range contains it.
    await sql`
      INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, sample_size,
                                        mean, range, ss_dev)
      VALUES (${product.id}, 'outside-diameter', ${equipment.id}, ${me}, '9999-12-31 00:00:00+08', 2, 47, 0.002, 0.000002)`.execute(
      t.database.db,
    );
    const chart = await t.call('GET', '/api/v1/spc/chart', {
      token,
      query: {
        family: 'neiwaijing',
        characteristic: 'outside-diameter',
        equipmentId: equipment.id,
        productId: product.id,
        from: '2000-01-01',
        to: '9999-12-31',
      },
    });
    expect(chart.status, JSON.stringify(chart.body)).toBe(200);
  });
});
