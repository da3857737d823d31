import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

// Issue 34 §1: maker ≠ checker where money moves. Who entered a receipt or a payment does not
// confirm it while 系统设置 → 职责分离 「收付款确认人不得为制单人」 is on — and it is on until
// switched off. Its sibling 「报工审核人不得为报工人」 is stored beside it (production reads it).
let t: TestApp;
let admin: string;
let f: Factory;
let fin: { token: string; userId: number };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  f = factory(t, async () => admin);
  fin = await t.userWith([
    'finance:receipt:list',
    'finance:receipt:add',
    'finance:receipt:approve',
    'finance:payment:list',
    'finance:payment:add',
    'finance:payment:approve',
  ]);
});
afterAll(() => t.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const setSegregation = (body: Record<string, unknown>) =>
  t.call('PUT', '/api/v1/sysSetting/segregation', { token: admin, body });

/** An approved 应收单 / 应付单 of 100.00 and the lines of a settlement paying 40.00 of it. */
async function openItem(item: 'receivable' | 'payable') {
  const partyField = item === 'receivable' ? 'customerId' : 'supplierId';
  const party = await f.create(item === 'receivable' ? 'customer' : 'supplier');
  const made = await f.create(item, { [partyField]: party.id, amount: '100' });
  ok(await t.call('POST', `/api/v1/${item}/approve/${made.id}`, { token: admin, body: {} }));
  return {
    itemId: made.id,
    body: {
      [partyField]: party.id,
      kind: 'normal',
      method: 'bank',
      lines: [{ [`${item}Id`]: made.id, amount: '40' }],
    },
  };
}
const settledOf = async (item: string, id: number) =>
  ok(await t.call('GET', `/api/v1/${item}/info/${id}`, { token: admin })).settledAmount;

describe('收付款确认人不得为制单人', () => {
  it('is on by default, beside 报工审核人不得为报工人, and only system:setting:edit switches them', async () => {
    const r = ok(await t.call('GET', '/api/v1/sysSetting/segregation', { token: fin.token }));
    expect(r).toEqual({ approverNotReporter: true, checkerNotMaker: true });
    const bad = await setSegregation({ approverNotReporter: 'yes', checkerNotMaker: true });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0].field).toBe('approverNotReporter');
    const denied = await t.call('PUT', '/api/v1/sysSetting/segregation', {
      token: fin.token,
      body: { approverNotReporter: true, checkerNotMaker: false },
    });
    expect(denied.status).toBe(403);
  });

  it.each(['receivable', 'payable'] as const)(
    'refuses (409) the maker of a %s settlement confirming it; another user confirms it',
    async (item) => {
      const settle = item === 'receivable' ? 'receipt' : 'payment';
      const { itemId, body } = await openItem(item);
      const doc = ok(await t.call('POST', `/api/v1/${settle}/add`, { token: fin.token, body }));
      const self = await t.call('POST', `/api/v1/${settle}/approve/${doc.id}`, {
        token: fin.token,
        body: {},
      });
      expect(self).toMatchObject({ status: 409, body: { code: '409' } });
      expect(self.body.message).toContain('收付款确认人不得为制单人（系统设置 → 职责分离）');
      expect(await settledOf(item, itemId)).toBe('0.00');
      const other = ok(
        await t.call('POST', `/api/v1/${settle}/approve/${doc.id}`, { token: admin, body: {} }),
      );
      expect(other.status).toBe('confirmed');
      expect(await settledOf(item, itemId)).toBe('40.00');
    },
  );

  it('收款 in one step leaves the receipt a draft for someone else to confirm, and confirms it when the rule is off', async () => {
    const first = await openItem('receivable');
    const draft = ok(await t.call('POST', '/api/v1/receipt/quick', { token: fin.token, body: first.body }));
    expect(draft).toMatchObject({ status: 'draft' });
    expect(draft.docNo).toMatch(/^SK\d{8}-\d{4}$/);
    expect(await settledOf('receivable', first.itemId)).toBe('0.00');
    expect(
      ok(await t.call('POST', `/api/v1/receipt/approve/${draft.id}`, { token: admin, body: {} })).status,
    ).toBe('confirmed');

    ok(await setSegregation({ approverNotReporter: true, checkerNotMaker: false }));
    try {
      const second = await openItem('receivable');
      const done = ok(await t.call('POST', '/api/v1/receipt/quick', { token: fin.token, body: second.body }));
      expect(done.status).toBe('confirmed');
      expect(await settledOf('receivable', second.itemId)).toBe('40.00');
      // And a maker confirms his own entered document.
      const third = await openItem('payable');
      const doc = ok(await t.call('POST', '/api/v1/payment/add', { token: fin.token, body: third.body }));
      ok(await t.call('POST', `/api/v1/payment/approve/${doc.id}`, { token: fin.token, body: {} }));
      expect(ok(await t.call('GET', '/api/v1/sysSetting/segregation', { token: admin }))).toEqual({
        approverNotReporter: true,
        checkerNotMaker: false,
      });
    } finally {
      ok(await setSegregation({ approverNotReporter: true, checkerNotMaker: true }));
    }
  });
});
