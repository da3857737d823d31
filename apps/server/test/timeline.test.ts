import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * A record's timeline (issue 41 §1), one API for every declared resource: its history from the
 * audit log in the declaration's words, comments whose @mentions send a message, files attached
 * to it; each call needs the read permission of the record.
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
const timeline = (resource: string, id: number, as = token) =>
  t.call('GET', `/api/v1/timeline/record/${resource}/${id}`, { token: as });
const comment = (resource: string, id: number, body: unknown, as = token) =>
  t.call('POST', `/api/v1/timeline/record/${resource}/${id}/comment`, { token: as, body });

async function upload(resource: string, id: number, fileName: string, content: Buffer, as = token) {
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
    url: `/api/v1/timeline/record/${resource}/${id}/file`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${as}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

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

describe('记录时间线', () => {
  it('shows a master record’s changes with the fields’ Chinese labels, values as users read them', async () => {
    const c = await f.create('customer', { name: '哈轴集团', state: '1' });
    const edit = await t.call('PUT', `/api/v1/customer/edit/${c.id}`, {
      token,
      body: { name: '哈尔滨轴承集团', state: '0', version: c.version },
    });
    ok(edit);
    const tl = ok(await timeline('customer', c.id));
    expect(tl).toMatchObject({ resource: 'customer', resourceLabel: '客户', id: c.id });
    expect(tl.title).toContain('哈尔滨轴承集团');
    const [update, create] = tl.entries;
    expect(create).toMatchObject({
      kind: 'history',
      action: 'create',
      actionLabel: '创建',
      userName: '系统管理员',
    });
    expect(update).toMatchObject({ kind: 'history', action: 'update', actionLabel: '修改' });
    expect(update.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', label: '客户名称', from: '哈轴集团', to: '哈尔滨轴承集团' },
        { field: 'state', label: '状态', from: '正常', to: '停用' },
      ]),
    );
    // Unchanged fields are not listed.
    expect(update.changes.map((x: any) => x.field)).not.toContain('code');
  });

  it('shows a document’s transitions with their states and reasons', async () => {
    const o = await draftOrder();
    ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
    ok(await t.call('POST', `/api/v1/sale-order/close/${o.id}`, { token, body: { reason: '客户取消订单' } }));
    const tl = ok(await timeline('sale-order', o.id));
    expect(tl.title).toBe(`销售订单 ${o.docNo}`);
    const history = tl.entries.filter((e: any) => e.kind === 'history');
    expect(history.map((e: any) => e.actionLabel)).toEqual(['关闭', '审核', '创建']);
    expect(history[0]).toMatchObject({ fromState: '已审核', toState: '已关闭', reason: '客户取消订单' });
    expect(history[1]).toMatchObject({ fromState: '草稿', toState: '已审核', reason: null });
  });

  it('a comment with an @mention reaches the mentioned user’s messages, with a link to the record', async () => {
    const o = await draftOrder();
    const reader = await t.userWith(['sale:order:list'], `sales${crypto.randomBytes(3).toString('hex')}`);
    const outsider = await t.userWith(['factory:customer:list']);
    // Who may be mentioned: users who may read sales orders (and administrators).
    const candidates = ok(
      await t.call('GET', `/api/v1/timeline/record/sale-order/${o.id}/mentionable`, { token }),
    );
    expect(candidates.map((u: any) => u.id)).toContain(reader.userId);
    expect(candidates.map((u: any) => u.id)).not.toContain(outsider.userId);

    const refused = await comment('sale-order', o.id, { content: '请确认', mentions: [outsider.userId] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({ field: 'mentions' });
    expect(refused.body.message).toMatch(/没有查看销售订单的权限/);

    const c = ok(
      await comment('sale-order', o.id, {
        content: '@测试用户 请确认交期是否能提前',
        mentions: [reader.userId],
      }),
    );
    expect(c).toMatchObject({ kind: 'comment', content: '@测试用户 请确认交期是否能提前', mine: true });
    expect(c.mentions).toEqual([{ id: reader.userId, name: '测试用户' }]);

    const inbox = ok(
      await t.call('GET', '/api/v1/message/page', { token: reader.token, query: { pageNum: 1 } }),
    );
    expect(inbox.list[0]).toMatchObject({
      kind: 'mention',
      title: `系统管理员 在销售订单 ${o.docNo}的评论中提到了你`,
      content: '@测试用户 请确认交期是否能提前',
      link: `/sale-manage/sale-order-detail?id=${o.id}`,
    });
    // The reader sees the comment in the order's timeline, not as his own.
    const seen = ok(await timeline('sale-order', o.id, reader.token));
    expect(seen.entries[0]).toMatchObject({ kind: 'comment', userName: '系统管理员', mine: false });
    // Only its author deletes a comment.
    const notHis = await t.call('DELETE', `/api/v1/timeline/comment/${c.id}`, { token: reader.token });
    expect(notHis.status).toBe(403);
    expect(notHis.body.message).toBe('只能删除本人的评论');
    ok(await t.call('DELETE', `/api/v1/timeline/comment/${c.id}`, { token }));
    expect(ok(await timeline('sale-order', o.id)).entries.some((e: any) => e.kind === 'comment')).toBe(false);
  });

  it('attaches files to any record, in the attachment store, read with the record’s permission', async () => {
    const m = await f.create('material-info');
    const pdf = Buffer.from('%PDF-1.4\n% 图纸\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const file = ok(await upload('material-info', m.id, '6204 图纸.pdf', pdf));
    expect(file).toMatchObject({
      kind: 'attachment',
      fileName: '6204 图纸.pdf',
      mimeType: 'application/pdf',
      removable: true,
    });
    const tl = ok(await timeline('material-info', m.id));
    expect(tl.entries[0]).toMatchObject({ kind: 'attachment', id: file.id, size: pdf.length });
    const down = await t.app.inject({
      method: 'GET',
      url: `/api/v1/timeline/file/${file.id}?inline=true`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(pdf)).toBe(true);
    expect(down.headers['content-disposition']).toMatch(/^inline/);
    // A reader of materials may download it but not remove someone else's file.
    const reader = await t.userWith(['factory:material:list']);
    const get = await t.app.inject({
      method: 'GET',
      url: `/api/v1/timeline/file/${file.id}`,
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(get.statusCode).toBe(200);
    const del = await t.call('DELETE', `/api/v1/timeline/file/${file.id}`, { token: reader.token });
    expect(del.status).toBe(403);
    // Someone who may not read materials gets nothing.
    const other = await t.userWith(['sale:order:list']);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/v1/timeline/file/${file.id}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(refused.statusCode).toBe(403);
    expect((await upload('material-info', m.id, 'x.pdf', pdf, other.token)).status).toBe(403);
    // Executables are refused as everywhere else.
    const exe = await upload('material-info', m.id, 'setup.exe', Buffer.from('MZ....'));
    expect(exe.status).toBe(400);
    expect(exe.body.message).toMatch(/不允许上传 \.exe/);
    ok(await t.call('DELETE', `/api/v1/timeline/file/${file.id}`, { token }));
    expect(ok(await timeline('material-info', m.id)).entries.some((e: any) => e.kind === 'attachment')).toBe(
      false,
    );
  });

  it('refuses: 401 without a session, 403 without the read permission, 404 for an unknown record, 400 in Chinese', async () => {
    const o = await draftOrder();
    const anon = await t.call('GET', `/api/v1/timeline/record/sale-order/${o.id}`);
    expect(anon.status).toBe(401);
    const other = await t.userWith(['factory:customer:list']);
    const forbidden = await timeline('sale-order', o.id, other.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe('没有查看销售订单的权限');
    expect((await comment('sale-order', o.id, { content: '看看' }, other.token)).status).toBe(403);
    expect((await timeline('sale-order', 99_999_999)).status).toBe(404);
    const unknown = await timeline('no-such-thing', 1);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('没有这类单据或档案');

    const empty = await comment('sale-order', o.id, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'content', message: '请填写评论内容' }]);
    const long = await comment('sale-order', o.id, { content: '长'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.errors?.[0].message).toBe('评论不能超过 2000 个字符');
    const extra = await comment('sale-order', o.id, { content: '好', urgent: true });
    expect(extra.status).toBe(400);
    const badId = await t.call('GET', '/api/v1/timeline/record/sale-order/abc', { token });
    expect(badId.status).toBe(400);
    expect(badId.body.errors?.[0].message).toBe('必须是数字');
  });

  it('keeps to the record’s scope: a reader of one kind of inbound document reads only that kind’s timelines', async () => {
    const w = await f.create('warehouse-management');
    const [purchase, other] = await t.database.db
      .insertInto('stockInbound')
      .values([
        { docNo: 'TL-RK-0001', type: 'purchase', warehouseId: w.id },
        { docNo: 'TL-RK-0002', type: 'other', warehouseId: w.id },
      ] as any)
      .returning('id')
      .execute();
    const reader = await t.userWith(['warehouse:purchaseInbound:list']);
    expect(ok(await timeline('stock-inbound', purchase.id, reader.token)).title).toBe('入库单 TL-RK-0001');
    const refused = await timeline('stock-inbound', other.id, reader.token);
    expect(refused.status).toBe(403);
    expect((await comment('stock-inbound', other.id, { content: '看看' }, reader.token)).status).toBe(403);
    ok(await comment('stock-inbound', purchase.id, { content: '到货单据已核对' }, reader.token));
  });
});
