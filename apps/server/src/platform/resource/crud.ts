import { columnOf, type FieldDef, type ResourceDef, refLabelKey } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../audit.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { Db } from '../db/db.ts';
import { PREPARED } from '../db/prepared.ts';
import { AppError, conflict, fieldError, notFound, REFERENCED, STALE_VERSION } from '../errors.ts';
import type { App } from '../http/route.ts';
import { route } from '../http/route.ts';
import { makeSerializer } from '../http/serialize.ts';
import { refuseChanged, zx } from '../http/validation.ts';
import { once } from '../idempotency.ts';
import { dayInstant, nextDocNoOf } from '../numbering.ts';
import { paginate } from '../paging.ts';
import { allRowsAsJson } from './all-rows-json.ts';
import { registerOptions } from './options.ts';
import { checkRecordPrecision } from './precision.ts';
import { applyFilters, baseQuery, loadLines, sortableColumns, totalOrderColumns } from './query.ts';
import { arrayReferencesTo, labelOfTable, type RefTarget, refTarget, targetOfResource } from './refs.ts';
import { answerPageSchema, answerRowSchema, lazyResourceSchemas, resourceRoundTrip } from './schema.ts';
import { assertInScope, gate, hideFields, inScope } from './scope.ts';
import { registerSync } from './sync.ts';

export interface HookCtx {
  db: Db;
  user: AuthUser;
  def: ResourceDef;
}

/** Business rules of one resource beyond its declaration; each runs inside the saving transaction. */
export interface ResourceHooks {
  /**
   * Values the server sets on a new record (document number, initial status, defaults), including
   * readonly fields; runs before `validate`.
   */
  prepare?(ctx: HookCtx, data: Record<string, any>): Promise<Record<string, unknown>>;
  /** Checks the merged record (`before` is the stored row on edit); throw an AppError to refuse. */
  validate?(ctx: HookCtx, data: Record<string, any>, before?: Record<string, any>): Promise<void>;
  /**
   * After `validate`, on create and edit: values the server derives from the record (a linked
   * order's customer), stored with it. It may also fill in the record's line objects in place.
   */
  derive?(
    ctx: HookCtx,
    data: Record<string, any>,
    before?: Record<string, any>,
  ): Promise<Record<string, unknown>>;
  afterSave?(ctx: HookCtx, id: number, action: 'create' | 'update'): Promise<void>;
  beforeDelete?(ctx: HookCtx, ids: number[]): Promise<void>;
}

/** Converts a validated body to column values (snake_case keys; JSON as text); readonly fields only when `withReadonly`. */
function toColumns(
  fields: FieldDef[],
  body: Record<string, any>,
  withReadonly = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f.name in body) || (f.readonly && !withReadonly)) continue;
    const v = body[f.name];
    // Cleared json and id-array values are stored empty, not NULL.
    if (f.kind === 'json') out[columnOf(f.name)] = JSON.stringify(v ?? {});
    else if (f.kind === 'refs') out[columnOf(f.name)] = v ?? [];
    else out[columnOf(f.name)] = v;
  }
  return out;
}

function withDefaults(fields: FieldDef[], body: Record<string, any>) {
  const out = { ...body };
  for (const f of fields) if (out[f.name] === undefined && f.default !== undefined) out[f.name] = f.default;
  return out;
}

/** One reference field's new ids, to be found (and found active) in its target table. */
interface RefCheck {
  field: string;
  label: string;
  target: RefTarget;
  activeOnly: boolean;
  ids: number[];
}

/** The checks of a record's (or a line's) reference fields: new or changed references only. */
function refChecks(fields: FieldDef[], data: Record<string, any>, before?: Record<string, any>, prefix = '') {
  const checks: RefCheck[] = [];
  for (const f of fields) {
    if ((f.kind !== 'ref' && f.kind !== 'refs') || data[f.name] === undefined || data[f.name] === null)
      continue;
    const ids: number[] = f.kind === 'ref' ? [data[f.name]] : [...new Set<number>(data[f.name])];
    const old = new Set<number>(before ? (f.kind === 'ref' ? [before[f.name]] : (before[f.name] ?? [])) : []);
    const fresh = ids.filter((id) => !old.has(id)).map(Number);
    if (!fresh.length) continue;
    checks.push({
      field: prefix + f.name,
      label: f.label,
      target: refTarget(f),
      activeOnly: f.refActiveOnly !== false,
      ids: fresh,
    });
  }
  return checks;
}

/** Runs reference checks in one statement (one SELECT per target table, joined by UNION ALL), in field order. */
async function runRefChecks(db: Db, checks: RefCheck[]) {
  if (!checks.length) return;
  const targets = [...new Map(checks.map((c) => [c.target.table, c.target])).values()];
  const parts = targets.map((t, i) => {
    const ids = [...new Set(checks.filter((c) => c.target.table === t.table).flatMap((c) => c.ids))];
    const active = t.active ? sql`${sql.ref(t.active.column)}::text` : sql`NULL::text`;
    return sql`SELECT ${i}::int AS t, id, ${active} AS active FROM ${sql.table(t.table)}
                WHERE id = ANY(${sql.val(ids)}::bigint[])`;
  });
  const r = await sql<{
    t: number;
    id: number;
    active: string | null;
  }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  const found = new Map(r.rows.map((x) => [`${targets[x.t].table}:${Number(x.id)}`, x.active]));
  for (const c of checks) {
    const keys = c.ids.map((id) => `${c.target.table}:${id}`);
    if (keys.some((k) => !found.has(k))) throw fieldError(c.field, `所选${c.label}不存在或已被删除`);
    const active = c.target.active;
    if (active && c.activeOnly && keys.some((k) => String(found.get(k)) !== String(active.value)))
      throw fieldError(c.field, `所选${c.label}已停用，不能选择`);
  }
}

/**
 * References must exist; a new or changed reference must also point at an active record.
 * `before` holds the stored values so unchanged references to since-disabled records stay valid.
 * One statement for all the fields.
 */
export async function checkReferences(
  db: Db,
  fields: FieldDef[],
  data: Record<string, any>,
  before?: Record<string, any>,
  prefix = '',
) {
  await runRefChecks(db, refChecks(fields, data, before, prefix));
}

/**
 * A record with its reference labels and lines. `lock` also takes the record's row lock (FOR
 * UPDATE) in the same statement. Read on every transition and edit: a named statement per
 * resource (parsed and planned once per connection).
 */
export async function getRecord(db: Db, def: ResourceDef, id: number, opts: { lock?: boolean } = {}) {
  const q = baseQuery(db, def).modifyFront(PREPARED).where('t.id', '=', id);
  const row = await (opts.lock ? q.forUpdate('t' as any) : q).executeTakeFirst();
  if (!row) throw notFound(`${def.label}不存在或已被删除`);
  for (const line of def.lines ?? []) {
    (row as any)[line.name] = (await loadLines(db, line, [id])).get(id) ?? [];
  }
  return row as Record<string, any>;
}

/** Writes the lines given in `body` (each list replaces the stored one; a new record has none to delete). */
async function saveLines(db: Db, def: ResourceDef, id: number, body: Record<string, any>, isNew = false) {
  for (const line of def.lines ?? []) {
    const items: Record<string, any>[] | undefined = body[line.name];
    if (!items) continue;
    // Every line's references in one statement.
    await runRefChecks(
      db,
      items.flatMap((item, i) => refChecks(line.fields, item, undefined, `${line.name}.${i}.`)),
    );
    if (!isNew)
      await db
        .deleteFrom(line.table)
        .where(line.parentColumn as any, '=', id)
        .execute();
    if (!items.length) continue;
    await db
      .insertInto(line.table)
      .values(
        items.map((item, i) => ({
          [line.parentColumn]: id,
          line_no: i + 1,
          ...toColumns(line.fields, withDefaults(line.fields, item)),
        })),
      )
      .execute();
  }
}

/** Deletes records, answering 409 naming what still references them. */
export async function deleteRecords(ctx: HookCtx, ids: number[], hooks?: ResourceHooks, requestId?: string) {
  const { db, def, user } = ctx;
  const rows = await db.selectFrom(def.table).selectAll().where('id', 'in', ids).forUpdate().execute();
  if (rows.length !== ids.length) throw notFound(`${def.label}不存在或已被删除`);
  for (const r of rows) assertInScope(user, def, 'delete', r);
  for (const ref of arrayReferencesTo(def.name)) {
    const used = await db
      .selectFrom(ref.table)
      .select('id')
      .where(sql<boolean>`${sql.ref(ref.column)} && ${sql.val(ids)}::bigint[]`)
      .limit(1)
      .executeTakeFirst();
    if (used) throw conflict(`该记录已被「${ref.label}」引用，无法删除`);
  }
  await hooks?.beforeDelete?.(ctx, ids);
  try {
    await db.deleteFrom(def.table).where('id', 'in', ids).execute();
  } catch (err: any) {
    if (err?.code !== '23503') throw err;
    const m = /referenced from table "(\w+)"/.exec(err.detail ?? '');
    const by = labelOfTable(m?.[1]);
    throw conflict(by ? `该记录已被「${by}」引用，无法删除` : REFERENCED);
  }
  for (const r of rows)
    await audit(db, user, { entity: def.name, entityId: r.id, action: 'delete', before: r }, requestId);
}

function parseIds(raw: string): number[] {
  const ids = raw.split(',').map((s) => Number(s.trim()));
  if (!ids.length || ids.length > 500 || ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
    throw new AppError(400, '400', '记录编号不正确', [
      { field: 'id', message: '必须是正整数，多个用逗号分隔' },
    ]);
  }
  return [...new Set(ids)];
}

/**
 * The instant a new document's number is dated by: its declared `numbering.dateField` (a business
 * date), else now. A numbered document whose hooks set no `docNo` is numbered by `createRecord`
 * from its declaration, after every check, so a refused save takes no number.
 */
function docNoDate(def: ResourceDef, data: Record<string, any>) {
  const day = def.numbering?.dateField ? data[def.numbering.dateField] : undefined;
  return typeof day === 'string' ? dayInstant(day) : new Date();
}

export interface CreatedRecord {
  id: number;
}

/** Inserts one record with its lines, checks and audit; used by the add route and by commands. */
export async function createRecord(
  ctx: HookCtx,
  body: Record<string, any>,
  hooks?: ResourceHooks,
  requestId?: string,
): Promise<number> {
  const { db, def, user } = ctx;
  let data = withDefaults(def.fields, body);
  // The scope a body names is checked at once; one derived from a source (a report's workshop,
  // from its dispatch) and the owner once derived.
  const scope = def.scopedPermissions?.field;
  if (scope && data[scope] != null) assertInScope(user, def, 'add', data);
  await checkReferences(db, def.fields, data);
  if (hooks?.prepare) data = { ...data, ...(await hooks.prepare(ctx, data)) };
  await hooks?.validate?.(ctx, data);
  data = { ...data, ...(await hooks?.derive?.(ctx, data)) };
  await checkRecordPrecision(db, def, data);
  assertInScope(user, def, 'add', data);
  if (def.numbering && data.docNo == null && def.fields.some((f) => f.name === 'docNo'))
    data = { ...data, docNo: await nextDocNoOf(db, def, docNoDate(def, data)) };
  const row = await db
    .insertInto(def.table)
    .values({ ...toColumns(def.fields, data, true), created_by: user.id, updated_by: user.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await saveLines(db, def, row.id, data, true);
  await hooks?.afterSave?.(ctx, row.id, 'create');
  await audit(db, user, { entity: def.name, entityId: row.id, action: 'create', after: data }, requestId);
  return row.id;
}

export async function updateRecord(
  ctx: HookCtx,
  id: number,
  body: Record<string, any>,
  hooks?: ResourceHooks,
  requestId?: string,
) {
  const { db, def, user } = ctx;
  const { version, ...changes } = body;
  const before = await db
    .selectFrom(def.table)
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound(`${def.label}不存在或已被删除`);
  const stored = await getRecord(db, def, id);
  refuseChanged(body, stored, resourceRoundTrip(def));
  if (version !== undefined && stored.version !== version) throw conflict(STALE_VERSION);
  const merged = { ...stored, ...changes };
  // Both the kind it is and the kind it becomes must be the user's.
  assertInScope(user, def, 'edit', stored);
  assertInScope(user, def, 'edit', merged);
  await checkReferences(db, def.fields, changes, stored);
  await hooks?.validate?.(ctx, merged, stored);
  Object.assign(changes, await hooks?.derive?.(ctx, merged, stored));
  await checkRecordPrecision(db, def, { ...merged, ...changes }, changes);
  await db
    .updateTable(def.table)
    .set({
      ...toColumns(def.fields, changes),
      updated_by: user.id,
      updated_at: sql`now()`,
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .execute();
  await saveLines(db, def, id, changes);
  await hooks?.afterSave?.(ctx, id, 'update');
  await audit(
    db,
    user,
    { entity: def.name, entityId: id, action: 'update', before: stored, after: changes },
    requestId,
  );
}

/**
 * The generic API of a resource: page, options (and tree), listAll, info, add, edit, delete (one id or a
 * comma-separated batch), at the spec's paths.
 */
export function registerResource(app: App, def: ResourceDef, hooks?: ResourceHooks) {
  const base = `/api/v1/${def.name}`;
  const schemas = lazyResourceSchemas(def);
  const sortable = sortableColumns(def);
  const totalOrder = totalOrderColumns(def);
  const defaultSort = def.defaultSort
    ? { column: sortable[def.defaultSort.field] ?? 't.id', desc: def.defaultSort.order === 'desc' }
    : { column: 't.id', desc: true };
  const idParam = z.strictObject({ id: zx.id });
  const serialize = makeSerializer(app.ringmes.config.timeZone);
  // Answers' shapes, built when the OpenAPI document is first asked for.
  const row = z.lazy(() => answerRowSchema(def));

  route(app, {
    method: 'GET',
    url: `${base}/${def.api?.page ?? 'page'}`,
    ...gate(def, 'list'),
    query: schemas.query,
    response: z.lazy(() => answerPageSchema(row)),
    async handler({ query, user, app: { db, config, heavyReads } }) {
      if ((query as any).pageNum === 0) {
        const q = inScope(applyFilters(baseQuery(db, def), def, query), user, def, 'list');
        const order = { args: query as any, sortable, defaultSort, idColumn: 't.id', totalOrder };
        const list = await allRowsAsJson(db, q, def, user, order, config.timeZone, () =>
          heavyReads.giveWay(),
        );
        if (list) return { list, total: list.length, pageNum: 0, pageSize: list.length };
      }
      const page = await paginate<Record<string, any>>(
        inScope(applyFilters(baseQuery(db, def), def, query), user, def, 'list'),
        query as any,
        sortable,
        defaultSort,
        't.id',
        db,
        totalOrder,
      );
      hideFields(user, def, page.list);
      return page;
    },
  });

  registerOptions(app, def);
  registerSync(app, def, row);

  // Every active record, whole: a read like `page`, so it needs the read permission, keeps to the
  // user's scope and to the all-rows cap.
  route(app, {
    method: 'GET',
    url: `${base}/listAll`,
    ...gate(def, 'list'),
    response: z.array(row),
    async handler({ user, app: { db, config, heavyReads } }) {
      const t = targetOfResource(def);
      let q = inScope(baseQuery(db, def), user, def, 'list');
      if (t.active) q = q.where(sql.ref(`t.${t.active.column}`), '=', t.active.value);
      const order = { args: {}, sortable, defaultSort, idColumn: 't.id' };
      const rows = await allRowsAsJson(db, q, def, user, order, config.timeZone, () => heavyReads.giveWay());
      if (rows) return rows;
      const all = await paginate(q, { pageNum: 0, pageSize: 1 }, sortable, defaultSort, 't.id');
      return hideFields(user, def, all.list as Record<string, any>[]);
    },
  });

  route(app, {
    method: 'GET',
    url: `${base}/info/:id`,
    ...gate(def, 'list'),
    params: idParam,
    response: row,
    async handler({ params, user, app: { db } }) {
      const row = await getRecord(db, def, params.id);
      assertInScope(user, def, 'list', row);
      return hideFields(user, def, [row])[0];
    },
  });

  if (def.readonlyApi) return;

  route(app, {
    method: 'POST',
    url: `${base}/add`,
    ...gate(def, 'add'),
    body: schemas.create,
    response: row,
    // A retried add with the same `Idempotency-Key` answers the record the first one made.
    async handler({ body, user, req, app: { db } }) {
      const key = req.headers['idempotency-key'];
      return db.transaction().execute((trx) =>
        once(
          trx,
          `${def.name}:add:${user.id}`,
          typeof key === 'string' ? key : undefined,
          serialize,
          async () => {
            const id = await createRecord({ db: trx, user, def }, body, hooks, req.id);
            return hideFields(user, def, [await getRecord(trx, def, id)])[0];
          },
        ),
      );
    },
  });

  const edit = def.api?.edit ?? { method: 'PUT' as const, path: 'edit' };
  if (edit.method === 'PUT') {
    route(app, {
      method: 'PUT',
      url: `${base}/${edit.path}/:id`,
      ...gate(def, 'edit'),
      params: idParam,
      body: schemas.update,
      response: row,
      async handler({ params, body, user, req, app: { db } }) {
        await db
          .transaction()
          .execute((trx) => updateRecord({ db: trx, user, def }, params.id, body, hooks, req.id));
        return hideFields(user, def, [await getRecord(db, def, params.id)])[0];
      },
    });
  } else {
    route(app, {
      method: 'POST',
      url: `${base}/${edit.path}`,
      ...gate(def, 'edit'),
      body: schemas.updateById,
      response: row,
      async handler({ body, user, req, app: { db } }) {
        const { id, ...rest } = body as Record<string, any>;
        await db
          .transaction()
          .execute((trx) => updateRecord({ db: trx, user, def }, id, rest, hooks, req.id));
        return hideFields(user, def, [await getRecord(db, def, id)])[0];
      },
    });
  }

  const del = def.api?.delete ?? { method: 'DELETE' as const, path: 'delete' };
  if (del.method === 'DELETE') {
    route(app, {
      method: 'DELETE',
      url: `${base}/${del.path}/:id`,
      ...gate(def, 'delete'),
      params: z.strictObject({ id: z.string().max(6000) }),
      response: z.null(),
      async handler({ params, user, req, app: { db } }) {
        const ids = parseIds(params.id);
        await db.transaction().execute((trx) => deleteRecords({ db: trx, user, def }, ids, hooks, req.id));
        return null;
      },
    });
  } else {
    route(app, {
      method: 'POST',
      url: `${base}/${del.path}`,
      ...gate(def, 'delete'),
      body: z.union(
        [z.strictObject({ id: zx.id }), z.strictObject({ ids: z.array(zx.id).min(1).max(500) })],
        { error: '请提供 id 或 ids' },
      ),
      response: z.null(),
      async handler({ body, user, req, app: { db } }) {
        const ids = 'id' in body ? [body.id] : [...new Set(body.ids)];
        await db.transaction().execute((trx) => deleteRecords({ db: trx, user, def }, ids, hooks, req.id));
        return null;
      },
    });
  }
}

export { refLabelKey };
