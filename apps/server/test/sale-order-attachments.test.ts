import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 销售订单附件: any file type, read with the order's read permission, changed with its edit
 * permission while the order is open (草稿 to 部分发货), frozen once it is completed or closed.
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

const PDF = Buffer.from('%PDF-1.4\n% 销售合同\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const DOCX = Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(64)]);

async function upload(orderId: number, fileName: string, content: Buffer, as = token) {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/attachment/upload/sale-order/${orderId}`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${as}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const list = (orderId: number, as = token) =>
  t.call('GET', `/api/v1/attachment/list/sale-order/${orderId}`, { token: as });
const remove = (id: number, as = token) => t.call('DELETE', `/api/v1/attachment/delete/${id}`, { token: as });
const download = (id: number, as = token) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/attachment/download/${id}?inline=true`,
    headers: { authorization: `Bearer ${as}` },
  });

async function draftOrder() {
  const c = await f.create('customer');
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
const act = (name: string, id: number, body: Record<string, unknown> = {}) =>
  t.call('POST', `/api/v1/sale-order/${name}/${id}`, { token, body });

describe('销售订单附件', () => {
  it('takes any file type on a draft and an approved order; lists, previews and deletes them', async () => {
    const o = await draftOrder();
    const contract = ok(await upload(o.id, '销售合同.pdf', PDF));
    expect(contract).toMatchObject({
      ownerResource: 'sale-order',
      ownerId: o.id,
      fileName: '销售合同.pdf',
      mimeType: 'application/pdf',
      size: PDF.length,
    });
    ok(await act('approve', o.id));
    const agreement = ok(await upload(o.id, '技术协议.docx', DOCX));
    expect(agreement.mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    // Executables stay refused whatever the owner.
    const exe = await upload(o.id, 'setup.exe', Buffer.from('MZ....'));
    expect(exe.status).toBe(400);
    expect(exe.body.message).toContain('.exe');

    const files = ok<any[]>(await list(o.id));
    expect(files.map((x) => x.fileName)).toEqual(['销售合同.pdf', '技术协议.docx']);
    expect(files[0].createdByName).toBeTruthy();
    const shown = await download(contract.id);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(/^inline; /);
    expect(shown.rawPayload.equals(PDF)).toBe(true);

    expect(ok(await remove(agreement.id))).toEqual({ id: agreement.id });
    expect(ok<any[]>(await list(o.id)).map((x) => x.id)).toEqual([contract.id]);
  });

  it('reads with sale:order:list, changes with sale:order:edit or :add; other users get 403', async () => {
    const o = await draftOrder();
    const file = ok(await upload(o.id, '图纸.pdf', PDF));
    const reader = await t.userWith(['sale:order:list']);
    const editor = await t.userWith(['sale:order:list', 'sale:order:edit']);
    // Drafts orders but may not edit them: attaches the customer's files all the same.
    const drafter = await t.userWith(['sale:order:list', 'sale:order:add']);
    // Holds another owner's permissions (报修照片) but nothing of sales.
    const stranger = await t.userWith(['factory:repair:list', 'factory:repair:add']);
    const nobody = await t.userWith([]);

    expect(ok<any[]>(await list(o.id, reader.token))).toHaveLength(1);
    expect((await download(file.id, reader.token)).statusCode).toBe(200);
    expect((await upload(o.id, 'b.pdf', PDF, reader.token)).status).toBe(403);
    expect((await remove(file.id, reader.token)).status).toBe(403);

    for (const u of [stranger, nobody]) {
      expect((await list(o.id, u.token)).status).toBe(403);
      expect((await download(file.id, u.token)).statusCode).toBe(403);
      expect((await upload(o.id, 'c.pdf', PDF, u.token)).status).toBe(403);
      expect((await remove(file.id, u.token)).status).toBe(403);
    }

    const more = ok(await upload(o.id, '补充.pdf', PDF, editor.token));
    ok(await remove(more.id, editor.token));
    const drafted = ok(await upload(o.id, '合同.pdf', PDF, drafter.token));
    ok(await remove(drafted.id, drafter.token));
    expect(ok<any[]>(await list(o.id))).toHaveLength(1);
  });

  it('refuses changes with 409 once the order is closed, and 404 for an order that does not exist', async () => {
    const o = await draftOrder();
    const file = ok(await upload(o.id, '合同.pdf', PDF));
    ok(await act('close', o.id, { reason: '客户取消' }));
    const late = await upload(o.id, '补充.pdf', PDF);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(`销售订单 ${o.docNo} 当前为「已关闭」，不能再上传或删除附件`);
    const del = await remove(file.id);
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('已关闭');
    // Still readable.
    expect(ok<any[]>(await list(o.id))).toHaveLength(1);
    expect((await download(file.id)).statusCode).toBe(200);

    const missing = await upload(999_999_999, '合同.pdf', PDF);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('销售订单不存在或已被删除');
  });

  it('deleting a draft order drops its files', async () => {
    const o = await draftOrder();
    ok(await upload(o.id, '合同.pdf', PDF));
    ok(await t.call('DELETE', `/api/v1/sale-order/delete/${o.id}`, { token }));
    const rows = await t.database.db
      .selectFrom('attachment')
      .select('id')
      .where('ownerResource', '=', 'sale-order')
      .where('ownerId', '=', o.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
