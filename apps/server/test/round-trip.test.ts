import { editableLines, type FieldDef, RESOURCES, type ResourceDef } from '@ringmes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The round trip a client makes to edit: read a record (info, a page row, a tree node), change
 * one field, send the whole object back. What the server answered must be accepted back:
 * read-only and derived values are ignored, a changed fixed field is refused by name, an unknown
 * field stays refused, and nothing the server manages is ever taken from the body.
 */
let t: TestApp;
let token: string;
let f: Factory;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t.close());

let n = 0;

/** A writable field of `fields` and a fresh value for it: text where there is one, else a number. */
function changeOf(fields: FieldDef[]): [string, string] {
  const x =
    fields.find((d) => d.kind === 'textarea' && !d.readonly && !d.hidden) ??
    // A free note before a required name, which the server may copy from a master (a check item's).
    fields.find(
      (d) => d.kind === 'text' && !d.readonly && !d.hidden && !d.pattern && !d.unique && !d.required,
    ) ??
    fields.find((d) => d.kind === 'text' && !d.readonly && !d.hidden && !d.pattern && !d.unique);
  if (x) return [x.name, `回写${++n}`.slice(0, x.max ?? 100)];
  const num = fields.find((d) => ['decimal', 'quantity'].includes(d.kind) && !d.readonly && !d.hidden);
  if (!num) throw new Error(`nothing to change among ${fields.map((d) => d.name)}`);
  return [num.name, String(7 + (++n % 3))];
}

/** A stored value equals the one sent (decimals compare as numbers). */
const same = (stored: unknown, sent: string) =>
  /^\d+$/.test(sent) ? Number(stored) === Number(sent) : stored === sent;

function editCall(def: ResourceDef, id: number, rec: Record<string, any>) {
  if (def.api?.edit?.method === 'POST')
    return t.call('POST', `/api/v1/${def.name}/${def.api.edit.path}`, { token, body: rec });
  return t.call('PUT', `/api/v1/${def.name}/${def.api?.edit?.path ?? 'edit'}/${id}`, { token, body: rec });
}

const info = async (def: ResourceDef, id: number) =>
  (await t.call('GET', `/api/v1/${def.name}/info/${id}`, { token })).body.result as Record<string, any>;

const editable = RESOURCES.filter((d) => !d.readonlyApi);

describe.each(editable.map((d) => [d.name, d] as const))('round trip of %s', (_name, def) => {
  it('info → change one field → send the whole record back → stored', async () => {
    const rec = await f.create(def.name);
    const read = await info(def, rec.id);
    const [field, value] = changeOf(def.fields);
    const r = await editCall(def, rec.id, { ...read, [field]: value });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await info(def, rec.id);
    expect(same(after[field], value), `${field}: ${after[field]}`).toBe(true);
    expect(after.version).toBe(read.version + 1);
  });

  it('a page row → change one field → send it back → stored', async () => {
    const rec = await f.create(def.name);
    const page = await t.call('GET', `/api/v1/${def.name}/${def.api?.page ?? 'page'}`, {
      token,
      query: { sortField: 'id', sortOrder: 'desc', pageSize: 50 },
    });
    const row = page.body.result.list.find((x: any) => x.id === rec.id);
    expect(row).toBeDefined();
    const [field, value] = changeOf(def.fields);
    const r = await editCall(def, rec.id, { ...row, [field]: value });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(same((await info(def, rec.id))[field], value)).toBe(true);
  });

  // Server-written lines (a production order's frozen BOM…) come back in the record and are dropped.
  for (const line of editableLines(def)) {
    it(`changes one field of a ${line.label} line and sends the lines back with their labels`, async () => {
      const rec = await f.create(def.name, { [line.name]: await f.lines(line) });
      const read = await info(def, rec.id);
      expect(read[line.name].length).toBeGreaterThan(0);
      const [field, value] = changeOf(line.fields);
      const lines = read[line.name].map((l: any, i: number) => (i === 0 ? { ...l, [field]: value } : l));
      const r = await editCall(def, rec.id, { ...read, [line.name]: lines });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const after = await info(def, rec.id);
      expect(same(after[line.name][0][field], value), field).toBe(true);
      expect(after[line.name]).toHaveLength(read[line.name].length);
    });
  }
});

describe('round trip of the system calls', () => {
  it('user: a list row with deptName, roleNames and audit columns goes back', async () => {
    const dept = await t.call('POST', '/api/v1/dept/addDept', { token, body: { deptName: '回写部门' } });
    const add = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: {
        userName: 'roundtrip1',
        firstName: '回写',
        passWord: 'Rt-secret-1',
        deptId: dept.body.result.id,
      },
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const list = await t.call('GET', '/api/v1/user/list', { token, query: { userName: 'roundtrip1' } });
    const row = list.body.result.list[0];
    expect(row.deptName).toBe('回写部门');
    const r = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { ...row, firstName: '回写改' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({
      firstName: '回写改',
      userName: 'roundtrip1',
      version: row.version + 1,
    });
  });

  it('dept: a tree node with childDept goes back', async () => {
    const parent = await t.call('POST', '/api/v1/dept/addDept', { token, body: { deptName: '回写上级' } });
    await t.call('POST', '/api/v1/dept/addDept', {
      token,
      body: { deptName: '回写下级', parentId: parent.body.result.id },
    });
    const tree = await t.call('POST', '/api/v1/dept/listDeptTree', { token, body: {} });
    const node = tree.body.result.find((d: any) => d.id === parent.body.result.id);
    expect(node.childDept).toHaveLength(1);
    const r = await t.call('PUT', '/api/v1/dept/updateDept', { token, body: { ...node, leader: '张三' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({ leader: '张三', deptName: '回写上级' });
    // The answer of an edit goes back too (audit columns and all).
    const again = await t.call('PUT', '/api/v1/dept/updateDept', {
      token,
      body: { ...r.body.result, phone: '12345' },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result.phone).toBe('12345');
  });

  it('role: info and a page row go back', async () => {
    const add = await t.call('POST', '/api/v1/role/add', {
      token,
      body: { roleName: '回写角色', roleKey: 'roundtrip' },
    });
    const id = add.body.result.id;
    const read = (await t.call('GET', `/api/v1/role/info/${id}`, { token })).body.result;
    const r = await t.call('PUT', `/api/v1/role/edit/${id}`, {
      token,
      body: { ...read, remark: '回写备注' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result.remark).toBe('回写备注');
    const page = await t.call('GET', '/api/v1/role/page', { token, query: { roleKey: 'roundtrip' } });
    const row = page.body.result.list[0];
    expect(row.userCount).toBe(0);
    const r2 = await t.call('PUT', `/api/v1/role/edit/${id}`, { token, body: { ...row, orderNum: 7 } });
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(r2.body.result.orderNum).toBe(7);
  });

  it('menu: info and a tree node with children go back', async () => {
    const dir = await t.call('POST', '/api/v1/menu/add', {
      token,
      body: { menuName: '回写目录', nodeType: '1', menuPath: '/round-trip' },
    });
    const id = dir.body.result.id;
    await t.call('POST', '/api/v1/menu/add', {
      token,
      body: { menuName: '回写页面', nodeType: '2', menuPath: '/round-trip/page', parentId: id },
    });
    const read = (await t.call('GET', `/api/v1/menu/info/${id}`, { token })).body.result;
    const r = await t.call('PUT', `/api/v1/menu/edit/${id}`, {
      token,
      body: { ...read, menuIco: 'setting' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result.menuIco).toBe('setting');
    const tree = (await t.call('GET', '/api/v1/menu/tree', { token })).body.result;
    const node = tree.find((m: any) => m.id === id);
    expect(node.children).toHaveLength(1);
    const r2 = await t.call('PUT', `/api/v1/menu/edit/${id}`, { token, body: { ...node, location: 99 } });
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(r2.body.result.location).toBe(99);
  });
});

describe('what a round trip may not do', () => {
  it('refuses a changed user name, naming the field', async () => {
    const list = await t.call('GET', '/api/v1/user/list', { token, query: { userName: 'admin' } });
    const row = list.body.result.list.find((u: any) => u.userName === 'admin');
    const r = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { ...row, userName: 'boss' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/用户名/);
    expect(r.body.errors).toEqual([
      { field: 'userName', message: expect.stringMatching(/用户名.*不能修改/) },
    ]);
  });

  it('refuses an id that is not the record edited', async () => {
    const def = RESOURCES.find((d) => d.name === 'workshop') as ResourceDef;
    const a = await f.create(def.name);
    const b = await f.create(def.name);
    const read = await info(def, a.id);
    const r = await editCall(def, b.id, read);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].field).toBe('id');
    const role = (await t.call('GET', '/api/v1/role/info/1', { token })).body.result;
    const r2 = await t.call('PUT', '/api/v1/role/edit/2', { token, body: role });
    expect(r2.status).toBe(400);
    expect(r2.body.errors?.[0].field).toBe('id');
  });

  it('still refuses unknown fields on every edit, on lines too', async () => {
    const so = RESOURCES.find((d) => d.name === 'sale-order') as ResourceDef;
    const rec = await f.create(so.name);
    const read = await info(so, rec.id);
    const calls: [string, string, Record<string, unknown>][] = [
      ['PUT', `/api/v1/sale-order/edit/${rec.id}`, { ...read, bogus: 1 }],
      [
        'PUT',
        `/api/v1/sale-order/edit/${rec.id}`,
        { ...read, lines: read.lines.map((l: any) => ({ ...l, bogus: 1 })) },
      ],
      ['PUT', '/api/v1/user/newUpdateUser', { userId: 1, bogus: 1 }],
      ['PUT', '/api/v1/dept/updateDept', { id: 1, bogus: 1 }],
      ['PUT', '/api/v1/role/edit/1', { bogus: 1 }],
      ['PUT', '/api/v1/menu/edit/1', { bogus: 1 }],
      ['PUT', '/api/v1/user/newUpdateUser', { userId: 1, passwordHash: 'x' }],
    ];
    for (const [method, url, body] of calls) {
      const r = await t.call(method, url, { token, body });
      expect(r.status, url).toBe(400);
      expect(r.body.message, url).toMatch(/不允许提交字段 (bogus|passwordHash)/);
    }
  });

  it('never takes server-managed values from a body', async () => {
    const so = RESOURCES.find((d) => d.name === 'sale-order') as ResourceDef;
    const rec = await f.create(so.name);
    const read = await info(so, rec.id);
    const forged = {
      ...read,
      docNo: 'XS-FORGED',
      amount: '999999.00',
      taxAmount: '1.00',
      createdBy: 999,
      updatedBy: 999,
      createdAt: '2000-01-01 00:00:00',
      approvedById: 1,
      overCredit: true,
      lines: read.lines.map((l: any) => ({
        ...l,
        amount: '999999.00',
        shippedQuantity: '5',
        baseQuantity: '9',
      })),
    };
    // A state never moves through an edit: sent changed it is refused by name, sent back as read it is kept.
    const moved = await editCall(so, rec.id, { ...forged, status: 'approved' });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ message: '状态不能修改', errors: [{ field: 'status' }] });
    const r = await editCall(so, rec.id, forged);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await info(so, rec.id);
    expect(after).toMatchObject({
      docNo: read.docNo,
      status: 'draft',
      amount: read.amount,
      taxAmount: read.taxAmount,
      createdBy: read.createdBy,
      createdAt: read.createdAt,
      approvedById: null,
      version: read.version + 1,
    });
    expect(after.lines[0]).toMatchObject({
      amount: read.lines[0].amount,
      shippedQuantity: read.lines[0].shippedQuantity,
      baseQuantity: read.lines[0].baseQuantity,
    });
    // A version sent back is the optimistic lock, never a value to store.
    const stale = await editCall(so, rec.id, { ...after, version: after.version + 5 });
    expect(stale.status).toBe(409);

    // A stock document sent back as posted is refused and stays a draft: posting moves stock, an
    // edit never does; its posting stamps are ignored.
    const inbound = RESOURCES.find((d) => d.name === 'stock-inbound') as ResourceDef;
    const doc = await f.create(inbound.name);
    const docRead = await info(inbound, doc.id);
    const stamped = {
      ...docRead,
      postedAt: '2026-01-01 00:00:00',
      postedById: 1,
      lines: docRead.lines.map((l: any) => ({ ...l, baseQuantity: '999' })),
    };
    const posted = await editCall(inbound, doc.id, { ...stamped, status: 'posted' });
    expect(posted.status).toBe(400);
    expect(posted.body.errors).toEqual([{ field: 'status', message: '状态不能修改' }]);
    const kept = await editCall(inbound, doc.id, stamped);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(await info(inbound, doc.id)).toMatchObject({ status: 'draft', postedAt: null, postedById: null });
    const balance = await t.call('GET', '/api/v1/stock-balance/page', {
      token,
      query: { materialId: docRead.lines[0].materialId },
    });
    expect(balance.body.result.total).toBe(0);

    const u = (await t.call('GET', '/api/v1/user/list', { token, query: { userName: 'admin' } })).body.result
      .list[0];
    const ur = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { ...u, createdAt: '2000-01-01 00:00:00', updatedAt: '2000-01-01 00:00:00', deptName: '伪造' },
    });
    expect(ur.status, JSON.stringify(ur.body)).toBe(200);
    expect(ur.body.result.createdAt).toBe(u.createdAt);
    expect(ur.body.result.deptName).toBe(u.deptName);
  });
});
