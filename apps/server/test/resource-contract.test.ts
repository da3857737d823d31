import {
  editableLines,
  type FieldDef,
  lineFilters,
  RESOURCES,
  type ResourceDef,
  refLabelKey,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The contract every declared resource keeps, generated from its definition: create valid,
 * reject invalid with field errors, list with each filter and sort, get, update with version,
 * delete, 403 without the permission, 409 for duplicates and for deleting referenced records.
 */
let t: TestApp;
let token: string;
let f: Factory;
let noRole: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  noRole = (await t.userWith([])).token;
});
afterAll(() => t.close());

const paths = (def: ResourceDef) => ({
  page: `/api/v1/${def.name}/${def.api?.page ?? 'page'}`,
  info: (id: number) => `/api/v1/${def.name}/info/${id}`,
  edit: (id: number) =>
    def.api?.edit?.method === 'POST'
      ? { method: 'POST', url: `/api/v1/${def.name}/${def.api.edit.path}`, id }
      : { method: 'PUT', url: `/api/v1/${def.name}/${def.api?.edit?.path ?? 'edit'}/${id}` },
  del: (id: number) =>
    def.api?.delete?.method === 'POST'
      ? { method: 'POST', url: `/api/v1/${def.name}/${def.api.delete.path}`, body: { id } }
      : { method: 'DELETE', url: `/api/v1/${def.name}/${def.api?.delete?.path ?? 'delete'}/${id}` },
});

function filterQuery(field: FieldDef, rec: Record<string, any>): Record<string, unknown> | undefined {
  const v = rec[field.name];
  if (v === null || v === undefined) return undefined;
  if (field.filter === 'range')
    return { [`${field.name}From`]: String(v).slice(0, 10), [`${field.name}To`]: String(v).slice(0, 10) };
  if (field.kind === 'refs') return v.length ? { [field.name]: v[0] } : undefined;
  if (field.kind === 'boolean') return { [field.name]: String(v) };
  if (field.filter === 'like') return { [field.name]: String(v).slice(1, 6) || String(v) };
  return { [field.name]: v };
}

describe.each(RESOURCES.map((d) => [d.name, d] as const))('resource %s', (_name, def) => {
  const p = paths(def);

  // Records made by commands only (workshop tasks by 派单) have no add, edit or delete calls.
  it.skipIf(def.readonlyApi)('creates a valid record and answers it with reference labels', async () => {
    const body = await f.body(def);
    const r = await t.call('POST', `/api/v1/${def.name}/add`, { token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rec = r.body.result;
    for (const fd of def.fields) {
      if (body[fd.name] === undefined || fd.kind === 'json') continue;
      const stored = rec[fd.name];
      if (['decimal', 'quantity', 'money', 'price'].includes(fd.kind))
        expect(Number(stored)).toBe(Number(body[fd.name]));
      else expect(stored).toEqual(body[fd.name]);
      if (fd.kind === 'ref') expect(rec[refLabelKey(fd)], refLabelKey(fd)).toBeTruthy();
    }
    for (const l of def.lines ?? []) if (body[l.name]) expect(rec[l.name]).toHaveLength(body[l.name].length);
    expect(rec).toMatchObject({
      id: expect.any(Number),
      version: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
  });

  // A datetime typed without an offset (date picker, gauge export, API client) is a wall-clock time
  // of the factory (Asia/Shanghai), not UTC: 08:30 typed is 00:30 UTC stored and 08:30 shown.
  const writableDatetimes = def.fields.filter((x) => x.kind === 'datetime' && !x.readonly);
  it.skipIf(def.readonlyApi || !writableDatetimes.length)(
    'stores a datetime typed without an offset as business time',
    async () => {
      const body = await f.body(def);
      for (const fd of writableDatetimes) body[fd.name] = '2026-11-22 08:30';
      const r = await t.call('POST', `/api/v1/${def.name}/add`, { token, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      for (const fd of writableDatetimes) expect(r.body.result[fd.name], fd.name).toBe('2026-11-22 08:30:00');
      const table = def.table;
      for (const fd of writableDatetimes) {
        const col = fd.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        const row = await sql<{ utc: string }>`
          SELECT to_char(${sql.ref(col)} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS utc
            FROM ${sql.table(table)} WHERE id = ${r.body.result.id}`.execute(t.database.db);
        expect(row.rows[0].utc, fd.name).toBe('2026-11-22 00:30');
      }
      // An explicit offset is kept as given.
      const withZone = await f.body(def);
      for (const fd of writableDatetimes) withZone[fd.name] = '2026-11-22T08:30:00Z';
      const z = await t.call('POST', `/api/v1/${def.name}/add`, { token, body: withZone });
      expect(z.status, JSON.stringify(z.body)).toBe(200);
      for (const fd of writableDatetimes) expect(z.body.result[fd.name], fd.name).toBe('2026-11-22 16:30:00');
    },
  );

  // Records made by commands only (workshop tasks by 派单) have no add, edit or delete calls.
  it.skipIf(def.readonlyApi)('rejects a body missing every required field, naming each one', async () => {
    const required = def.fields
      .filter((x) => x.required && x.default === undefined && !x.readonly)
      .map((x) => x.name);
    const r = await t.call('POST', `/api/v1/${def.name}/add`, { token, body: {} });
    if (!required.length && !(def.lines ?? []).some((l) => l.min)) {
      expect(r.status).toBe(200);
      return;
    }
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('400');
    const fields = r.body.errors!.map((e) => e.field);
    for (const name of required) expect(fields).toContain(name);
    const bad = await t.call('POST', `/api/v1/${def.name}/add`, {
      token,
      body: { ...(await f.body(def)), notAField: 1 },
    });
    expect(bad.body.errors?.map((e) => e.field)).toEqual(['notAField']);
  });

  it('lists with each declared filter and sort', async () => {
    const rec = await f.create(def.name);
    for (const fd of def.fields.filter((x) => x.filter)) {
      const q = filterQuery(fd, rec);
      if (!q) continue;
      const r = await t.call('GET', p.page, { token, query: { pageNum: 1, pageSize: 500, ...q } });
      expect(r.status, `${fd.name} ${JSON.stringify(q)} ${JSON.stringify(r.body)}`).toBe(200);
      expect(
        r.body.result.list.map((x: any) => x.id),
        `filter ${fd.name}=${JSON.stringify(q)}`,
      ).toContain(rec.id);
    }
    // A line filter lists the records having a matching line, and no others.
    for (const { line, field } of lineFilters(def)) {
      const q = filterQuery(field, rec[line.name]?.[0] ?? {});
      expect(q, `${def.name} test record has a ${line.name}.${field.name}`).toBeDefined();
      const r = await t.call('GET', p.page, { token, query: { pageNum: 0, ...q } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.result.list.map((x: any) => x.id)).toContain(rec.id);
      for (const x of r.body.result.list) {
        const info = await t.call('GET', p.info(x.id), { token });
        const values = info.body.result[line.name].map((l: any) => l[field.name]);
        expect(values, `${def.name} ${x.id} has a line with ${JSON.stringify(q)}`).toContain(
          rec[line.name][0][field.name],
        );
      }
      if (field.kind === 'ref') {
        const none = await t.call('GET', p.page, { token, query: { [field.name]: 2 ** 40 } });
        expect(none.body.result.total, `${field.name}=unknown`).toBe(0);
      }
    }
    const sortable = def.fields.filter((x) => x.sortable);
    for (const fd of sortable) {
      for (const order of ['asc', 'desc']) {
        const r = await t.call('GET', p.page, {
          token,
          query: { pageNum: 1, pageSize: 500, sortField: fd.name, sortOrder: order },
        });
        expect(r.status).toBe(200);
        const values = r.body.result.list.map((x: any) => x[fd.name]).filter((v: unknown) => v !== null);
        const numeric = ['int', 'decimal', 'quantity', 'money', 'price'].includes(fd.kind);
        const sorted = [...values].sort((a, b) =>
          numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0,
        );
        if (order === 'desc') sorted.reverse();
        if (fd.kind !== 'text') expect(values, `${fd.name} ${order}`).toEqual(sorted);
      }
    }
    const all = await t.call('GET', p.page, { token, query: { pageNum: 0 } });
    expect(all.body.result.total).toBeGreaterThanOrEqual(1);
    const unknown = await t.call('GET', p.page, { token, query: { bogus: 1 } });
    expect(unknown.status).toBe(400);
  });

  // Records made by commands only (workshop tasks by 派单) have no add, edit or delete calls.
  it.skipIf(def.readonlyApi)('gets, updates with the version and refuses a stale version', async () => {
    const rec = await f.create(def.name);
    const info = await t.call('GET', p.info(rec.id), { token });
    expect(info.body.result.id).toBe(rec.id);
    const text = def.fields.find(
      (x) => x.kind === 'text' && !x.unique && !x.pattern && !x.readonly && x.name !== 'version',
    );
    const e = p.edit(rec.id);
    const change = text ? { [text.name]: `改${rec.id}` } : {};
    const upd = await t.call(e.method, e.url, {
      token,
      body: { ...('id' in e ? { id: rec.id } : {}), ...change, version: 1 },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.result.version).toBe(2);
    if (text) expect(upd.body.result[text.name]).toBe(`改${rec.id}`);
    const stale = await t.call(e.method, e.url, {
      token,
      body: { ...('id' in e ? { id: rec.id } : {}), version: 1 },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: '409' } });
  });

  // Records made by commands only (workshop tasks by 派单) have no add, edit or delete calls.
  it.skipIf(def.readonlyApi)('deletes, then answers 404', async () => {
    const rec = await f.create(def.name);
    const d = p.del(rec.id);
    expect((await t.call(d.method, d.url, { token, body: d.body })).status).toBe(200);
    expect((await t.call('GET', p.info(rec.id), { token })).status).toBe(404);
    expect((await t.call(d.method, d.url, { token, body: d.body })).status).toBe(404);
  });

  it('answers 403 without the permission', async () => {
    expect((await t.call('GET', p.page, { token: noRole })).status).toBe(403);
    const add = await t.call('POST', `/api/v1/${def.name}/add`, { token: noRole, body: {} });
    expect(add.status).toBe(def.readonlyApi ? 404 : 403);
  });

  // Records made by commands only (workshop tasks by 派单) have no add, edit or delete calls.
  it.skipIf(def.readonlyApi)('refuses duplicates of unique fields with 409', async () => {
    const unique = def.fields.find((x) => x.unique && !x.readonly);
    if (!unique) return;
    const rec = await f.create(def.name);
    const body = await f.body(def, { [unique.name]: rec[unique.name] });
    const r = await t.call('POST', `/api/v1/${def.name}/add`, { token, body });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/已存在|重复/);
  });

  const referrers = RESOURCES.flatMap((other) =>
    [
      ...other.fields
        .filter((x) => !x.readonly)
        .map((x) => ({ other, field: x, line: undefined as string | undefined })),
      ...editableLines(other).flatMap((l) => l.fields.map((x) => ({ other, field: x, line: l.name }))),
    ].filter(
      (x) =>
        (x.field.kind === 'ref' || x.field.kind === 'refs') &&
        x.field.ref === def.name &&
        x.other.name !== def.name,
    ),
  );
  // A document with a lifecycle is referenced only past its editable states (a 销售出库 names an
  // approved order), where its state already refuses deletion (lifecycle tests cover that).
  it.runIf(referrers.length > 0 && !def.lifecycle)(
    'refuses to delete a referenced record with 409',
    async () => {
      const rec = await f.create(def.name);
      // The first referrer whose own rules accept a generated record (a stock line's location must
      // belong to the document's warehouse, for example, so a plain header reference is tried first).
      const ordered = [...referrers].sort((a, b) => Number(!!a.line) - Number(!!b.line));
      let made = false;
      for (const { other, field, line } of ordered) {
        const value = field.kind === 'ref' ? rec.id : [rec.id];
        let overrides: Record<string, unknown> = { [field.name]: value };
        // Keep products consistent: a production order names a BOM or route of its own product.
        if (!line && rec.productId && other.fields.some((x) => x.name === 'productId'))
          overrides.productId = rec.productId;
        if (line) {
          const l = other.lines!.find((x) => x.name === line)!;
          overrides = {
            [line]: [{ ...(await f.body({ ...other, fields: l.fields, lines: [] })), [field.name]: value }],
          };
          // Keep parents consistent: a location goes on a document of its own warehouse.
          for (const w of ['warehouseId', 'fromWarehouseId', 'toWarehouseId']) {
            if (rec.warehouseId && other.fields.some((x) => x.name === w)) overrides[w] = rec.warehouseId;
          }
        }
        try {
          await f.create(other.name, overrides);
          made = true;
          break;
        } catch {
          // try the next referrer
        }
      }
      expect(made, 'some referrer accepted the reference').toBe(true);
      const d = p.del(rec.id);
      const r = await t.call(d.method, d.url, { token, body: d.body });
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.message).toMatch(/已被.*引用，无法删除/);
      expect((await t.call('GET', p.info(rec.id), { token })).status).toBe(200);
    },
  );
});
