import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Bulk actions on documents (issue 41 §6): `POST /api/v1/<resource>/<transition>/batch` runs the
 * declared transition on each selected row in its own transaction and answers each row's result —
 * a row refused (wrong state, someone else's change, outside the user's permission) leaves the
 * others done.
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

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

async function draftOrder() {
  const c = await f.create('customer', { name: '洛阳轴研' });
  const m = await f.create('material-info', { salePrice: '12' });
  return ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: {
        customerId: c.id,
        orderDate: '2026-10-08',
        deliveryDate: '2026-11-20',
        lines: [{ materialId: m.id, quantity: 10 }],
      },
    }),
  );
}

const batch = (transition: string, body: unknown, as = token) =>
  t.call('POST', `/api/v1/sale-order/${transition}/batch`, { token: as, body });

describe('批量操作单据', () => {
  it('approves the selected orders one by one; the one already approved is refused with its reason', async () => {
    const [a, b, c] = [await draftOrder(), await draftOrder(), await draftOrder()];
    ok(await t.call('POST', `/api/v1/sale-order/approve/${b.id}`, { token, body: {} }));
    const r = ok(
      await batch('approve', {
        rows: [
          { id: a.id, version: a.version },
          { id: b.id, version: b.version },
          { id: c.id, version: c.version },
        ],
      }),
    );
    expect(r).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    expect(r.results).toEqual([
      { id: a.id, docNo: a.docNo, ok: true, status: 'approved', message: null },
      {
        id: b.id,
        docNo: b.docNo,
        ok: false,
        status: null,
        message: expect.stringMatching(/数据已被他人修改|当前为「已审核」，不能审核/),
      },
      { id: c.id, docNo: c.docNo, ok: true, status: 'approved', message: null },
    ]);
    for (const o of [a, c])
      expect(ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token })).status).toBe('approved');

    // Without versions: the state alone refuses the approved rows.
    const again = ok(await batch('approve', { rows: [{ id: a.id }, { id: 99999999 }] }));
    expect(again).toMatchObject({ succeeded: 0, failed: 2 });
    expect(again.results[0].message).toBe('销售订单当前为「已审核」，不能审核');
    expect(again.results[1].message).toContain('不存在');
  });

  it('asks the reason a transition requires once for all rows, and refuses bad input in Chinese', async () => {
    const o = await draftOrder();
    const close = ok(await batch('close', { rows: [{ id: o.id }] }));
    expect(close.results[0]).toMatchObject({ ok: false, message: expect.stringContaining('原因') });
    const closed = ok(await batch('close', { rows: [{ id: o.id }], reason: '客户取消' }));
    expect(closed.results[0]).toMatchObject({ ok: true, status: 'closed' });

    for (const [body, message] of [
      [{}, 'rows 不能为空'],
      [{ rows: [] }, '请选择要处理的单据'],
      [{ rows: [{ id: o.id }, { id: o.id }] }, '单据重复'],
      [{ rows: Array.from({ length: 201 }, (_, i) => ({ id: i + 1 })) }, '一次最多处理 200 条'],
    ] as const) {
      const r = await batch('approve', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(r.body)).toContain(message);
    }
  });

  it('lists and exports only the selected rows (ids)', async () => {
    const [a, , c] = [await draftOrder(), await draftOrder(), await draftOrder()];
    const page = ok(
      await t.call('GET', '/api/v1/sale-order/page', { token, query: { ids: `${a.id},${c.id}` } }),
    );
    expect(page.list.map((r: any) => r.id).sort()).toEqual([a.id, c.id].sort());
    const file = ok(await t.call('GET', '/api/v1/sale-order/export', { token, query: { ids: `${c.id}` } }));
    expect(file.rows).toBe(1);
    const bad = await t.call('GET', '/api/v1/sale-order/page', { token, query: { ids: '1,x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('所选记录应为以逗号分隔的编号');
  });

  it('needs the transition’s permission', async () => {
    const o = await draftOrder();
    const reader = await t.userWith(['sale:order:list']);
    expect((await batch('approve', { rows: [{ id: o.id }] }, reader.token)).status).toBe(403);
  });
});
