import { defaultLayout } from '@ringmes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 打印模板 (issue 41 §3): templates per document type with a JSON layout checked on the server, one
 * default per type (else the code's layout), edited with 系统设置's edit permission, read by anyone
 * signed in; bad input answers 400 in Chinese naming the field.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t?.close());

const label = {
  page: 'label60x40',
  elements: [
    { id: 'no', kind: 'field', field: 'docNo', x: 2, y: 2, w: 56, h: 5, fontSize: 9, bold: true },
    {
      id: 'bc',
      kind: 'barcode',
      field: 'docNo',
      symbology: 'code128',
      showText: true,
      x: 4,
      y: 20,
      w: 52,
      h: 15,
    },
  ],
};

describe('打印模板', () => {
  it('creates, lists, edits, makes default and deletes templates; the default of a type is its own or the code’s', async () => {
    // No template yet: the code's layout, named 系统默认.
    const none = await t.call('GET', '/api/v1/print-template/default', {
      token,
      query: { docType: 'flow-card' },
    });
    expect(none.status).toBe(200);
    expect(none.body.result).toEqual({ id: null, name: '系统默认', layout: defaultLayout('flow-card') });

    const a = await t.call('POST', '/api/v1/print-template/add', {
      token,
      body: { docType: 'flow-card', name: '车间标签', layout: label, isDefault: true },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.result).toMatchObject({
      docType: 'flow-card',
      name: '车间标签',
      isDefault: true,
      version: 1,
    });
    expect(a.body.result.layout).toEqual(label);

    const b = await t.call('POST', '/api/v1/print-template/add', {
      token,
      body: { docType: 'flow-card', name: '大标签', layout: { ...label, page: 'A5' } },
    });
    expect(b.body.result.isDefault).toBe(false);

    let d = await t.call('GET', '/api/v1/print-template/default', { token, query: { docType: 'flow-card' } });
    expect(d.body.result).toMatchObject({ id: a.body.result.id, name: '车间标签', layout: label });

    // Another becomes the default: the first is no longer one.
    const sd = await t.call('POST', `/api/v1/print-template/set-default/${b.body.result.id}`, { token });
    expect(sd.status).toBe(200);
    const list = await t.call('GET', '/api/v1/print-template/list', {
      token,
      query: { docType: 'flow-card' },
    });
    expect(list.body.result.map((r: any) => [r.name, r.isDefault, r.page])).toEqual([
      ['车间标签', false, 'label60x40'],
      ['大标签', true, 'A5'],
    ]);

    // Edit: name and layout, with the version; a stale version is a 409.
    const moved = { ...label, elements: [{ ...label.elements[0], x: 3 }] };
    const e = await t.call('PUT', `/api/v1/print-template/edit/${a.body.result.id}`, {
      token,
      body: { name: '车间小标签', layout: moved, version: a.body.result.version },
    });
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    expect(e.body.result).toMatchObject({ name: '车间小标签', layout: moved, version: 2 });
    const stale = await t.call('PUT', `/api/v1/print-template/edit/${a.body.result.id}`, {
      token,
      body: { name: 'x', version: 1 },
    });
    expect(stale.status).toBe(409);
    // A second template of one type and name: 409 in words.
    const dup = await t.call('POST', '/api/v1/print-template/add', {
      token,
      body: { docType: 'flow-card', name: '大标签', layout: label },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('该单据类型已有名为「大标签」的模板');

    // Deleting the default: the type prints with the code's layout again.
    expect(
      (await t.call('DELETE', `/api/v1/print-template/delete/${b.body.result.id}`, { token })).status,
    ).toBe(200);
    d = await t.call('GET', '/api/v1/print-template/default', { token, query: { docType: 'flow-card' } });
    expect(d.body.result.id).toBeNull();
    expect((await t.call('GET', `/api/v1/print-template/info/${b.body.result.id}`, { token })).status).toBe(
      404,
    );
  });

  it('refuses bad input with 400 and a Chinese message naming the field', async () => {
    const bad = async (body: unknown) => {
      const r = await t.call('POST', '/api/v1/print-template/add', { token, body });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body.errors?.[0];
    };
    expect(await bad({ docType: 'rocket', name: 'x', layout: label })).toMatchObject({
      field: 'docType',
      message: expect.stringContaining('单据类型只能是：流转卡'),
    });
    expect(await bad({ docType: 'material', name: ' ', layout: label })).toMatchObject({
      field: 'name',
      message: '请输入模板名称',
    });
    expect(
      await bad({
        docType: 'material',
        name: 'x',
        layout: { page: 'label60x40', elements: [{ ...label.elements[1], symbology: 'pdf417' }] },
      }),
    ).toMatchObject({ field: 'layout.elements.0.symbology', message: '条码类型只能是 Code 128 或 EAN-13' });
    expect(
      await bad({
        docType: 'material',
        name: 'x',
        layout: { page: 'label60x40', elements: [{ ...label.elements[0], x: 30, w: 40 }] },
      }),
    ).toMatchObject({ field: 'layout.elements.0', message: '第 1 个元素超出了纸张（60×40 mm）' });
    expect(await bad({ docType: 'material', name: 'x', layout: { page: 'B5', elements: [] } })).toMatchObject(
      {
        field: 'layout.page',
        message: '纸张只能是 A4、A5 或 60×40 mm 标签',
      },
    );
    const q = await t.call('GET', '/api/v1/print-template/default', { token, query: { docType: 'x' } });
    expect(q.status).toBe(400);
  });

  it('lets anyone signed in read templates and only 系统设置 edit change them', async () => {
    const reader = (await t.userWith([])).token;
    expect((await t.call('GET', '/api/v1/print-template/list', { token: reader })).status).toBe(200);
    const add = await t.call('POST', '/api/v1/print-template/add', {
      token: reader,
      body: { docType: 'material', name: '物料', layout: label },
    });
    expect(add.status).toBe(403);
    const editor = (await t.userWith(['system:setting:edit'])).token;
    const ok = await t.call('POST', '/api/v1/print-template/add', {
      token: editor,
      body: { docType: 'material', name: '物料', layout: label },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await t.call('GET', '/api/v1/print-template/list')).status).toBe(401);
  });
});
