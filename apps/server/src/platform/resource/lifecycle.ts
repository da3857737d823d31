import {
  type LifecycleDef,
  type ResourceDef,
  stateLabel,
  type TransitionDef,
  transitionAction,
  transitionApplies,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { auditInsert } from '../audit.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { Db } from '../db/db.ts';
import { prepared } from '../db/prepared.ts';
import { AppError, conflict, fieldError, fromDatabaseError, STALE_VERSION } from '../errors.ts';
import { recordEvent, transitionEvents } from '../events/outbox.ts';
import type { App } from '../http/route.ts';
import { route } from '../http/route.ts';
import { makeSerializer } from '../http/serialize.ts';
import { idParams } from '../http/validation.ts';
import { once, withRetry } from '../idempotency.ts';
import type { HookCtx, ResourceHooks } from './crud.ts';
import { checkReferences, getRecord } from './crud.ts';
import { targetOfResource } from './refs.ts';
import { fieldSchema } from './schema.ts';
import { assertInScope, gate } from './scope.ts';

/** What a transition's guard and effect receive: the locked record (with its lines) and the request. */
export interface TransitionCtx extends HookCtx {
  record: Record<string, any>;
  transition: TransitionDef;
  reason?: string;
  /** The values the transition declares in `input` (派工的维修人…), validated. */
  input: Record<string, any>;
  requestId?: string;
  /**
   * Set by an effect that leaves the document in a state of its own (审核 → 已入账) without
   * touching its version: the answer is built from it, without reading the row back.
   */
  settled?: string;
  /**
   * The transition's audit-log INSERT. An effect may embed it in a statement of its own (a
   * data-modifying CTE) and set `audited`, saving a round-trip; else the runner writes it.
   */
  audit: RawBuilder<unknown>;
  audited?: boolean;
  /**
   * What the runner's own UPDATE would set beside the state (who, when, the version, the reason),
   * for an effect that writes the state itself (`movesState`): `SET status = …, ${ctx.stamp}, …`.
   */
  stamp: RawBuilder<unknown>;
}

/**
 * The behaviour of one transition beyond moving the state. `guard` refuses (throws an AppError)
 * before anything changes; `effect` runs after the state moved, in the same transaction.
 */
export interface TransitionHandlers {
  guard?(ctx: TransitionCtx): Promise<void>;
  effect?(ctx: TransitionCtx): Promise<void>;
  /**
   * The effect writes the document's state itself, with `ctx.stamp`, in an UPDATE of its own that
   * sets other columns too, and says where it left it in `settled`; the runner's UPDATE is skipped.
   * The row is written once rather than twice (a new row version and an entry in every index
   * each time: a posted work report in a table of a million). The row is locked from the start.
   */
  movesState?: boolean;
  /**
   * The record's own locked read, in place of the runner's (which reads it with its reference
   * labels): a hot transition reads and locks what its effect needs with it, in one statement
   * (审核 of a work report: the report, its card and step, the wage close lock). It must lock the
   * row, answer its columns camel-cased, and answer 404 when it is missing.
   */
  read?(db: Db, id: number): Promise<Record<string, any>>;
  /**
   * The refusal when the document is not in a state the transition starts from, in place of the
   * runner's 「…当前为…，不能…」 (a stock document's 已过账，不能重复过账).
   */
  wrongState?(record: Record<string, any>): Error;
}

/** The answer of every transition: the document's new state. */
export interface TransitionResult {
  id: number;
  docNo: string | null;
  status: string;
  version: number;
}

/** A transition's body: version, reason and the values it declares (each optional here, required ones checked in `runTransition`). */
function bodyOf(t: TransitionDef) {
  const extra: Record<string, z.ZodType> = {};
  for (const f of t.input ?? [])
    extra[f.name] = z.preprocess((v) => (v === '' ? null : v), fieldSchema(f).nullable()).optional();
  return z
    .strictObject({
      version: z.number().int().min(0).optional(),
      reason: z.string().trim().max(500).optional(),
      ...extra,
    })
    .optional();
}

function lifecycleOf(def: ResourceDef): LifecycleDef {
  if (!def.lifecycle) throw new Error(`${def.name} declares no lifecycle`);
  return def.lifecycle;
}

/**
 * Runs one transition inside the caller's transaction: locks the document, checks the version,
 * the starting state and the reason, runs the guard, moves the state with a conditional update,
 * runs the effect and writes the audit row. Commands (and tests) call it directly.
 */
export async function runTransition(
  db: Db,
  user: AuthUser,
  def: ResourceDef,
  name: string,
  id: number,
  input: { version?: number; reason?: string; [field: string]: unknown } = {},
  handlers: TransitionHandlers = {},
  requestId?: string,
): Promise<TransitionResult> {
  const lifecycle = lifecycleOf(def);
  const transition = lifecycle.transitions.find((t) => t.name === name);
  if (!transition) throw new Error(`${def.name} has no transition ${name}`);
  // Locked and read in one statement (404 when missing).
  const record = handlers.read ? await handlers.read(db, id) : await getRecord(db, def, id, { lock: true });
  // Scoped documents (a workshop's dispatches): the user's permission must cover this record's kind.
  assertInScope(user, def, transitionAction(transition), record);
  if (input.version !== undefined && record.version !== input.version) throw conflict(STALE_VERSION);
  if (!transition.from.includes(record.status)) {
    if (handlers.wrongState) throw handlers.wrongState(record);
    throw conflict(`${def.label}当前为「${stateLabel(lifecycle, record.status)}」，不能${transition.label}`);
  }
  if (!transitionApplies(transition, record)) throw conflict(transition.when?.message ?? '');
  if (transition.reason && !input.reason) throw fieldError('reason', `请填写${transition.label}原因`);
  const values: Record<string, any> = {};
  for (const f of transition.input ?? []) {
    const v = input[f.name];
    if (f.required && (v === undefined || v === null || (typeof v === 'string' && !v.trim())))
      throw fieldError(f.name, `${f.kind === 'ref' ? '请选择' : '请填写'}${f.label}`);
    if (v !== undefined) values[f.name] = v;
  }
  await checkReferences(db, transition.input ?? [], values);
  const ctx: TransitionCtx = {
    db,
    user,
    def,
    record,
    transition,
    reason: input.reason,
    input: values,
    requestId,
    audit: auditInsert(
      user,
      {
        entity: def.name,
        entityId: id,
        action: name,
        before: { status: record.status },
        after: { status: transition.to, ...(input.reason ? { reason: input.reason } : {}), ...values },
      },
      requestId,
    ),
    stamp: sql`${transition.reason ? sql`status_reason = ${input.reason}, ` : sql``}updated_by = ${user.id},
               updated_at = now(), version = version + 1`,
  };
  await handlers.guard?.(ctx);
  const docNo = (record.docNo as string | undefined) ?? null;
  if (handlers.movesState && handlers.effect) {
    await handlers.effect(ctx);
    if (!ctx.settled) throw new Error(`${def.name} ${name}: an effect that moves the state must settle it`);
    if (!ctx.audited) await ctx.audit.execute(db);
    await announce(db, def, name, id, record.status, docNo, ctx.settled);
    return { id, docNo, status: ctx.settled, version: Number(record.version) + 1 };
  }
  const moved = (
    await prepared(sql<{ version: number }>`
      UPDATE ${sql.table(def.table)} SET status = ${transition.to}, ${ctx.stamp}
       WHERE id = ${id} AND status = ${record.status}
       RETURNING version`).execute(db)
  ).rows[0];
  if (!moved) throw conflict('数据正被他人同时修改，请重试');
  await handlers.effect?.(ctx);
  if (!ctx.audited) await ctx.audit.execute(db);
  // Without an effect, or with one that says where it left the document, the answer is known.
  if (!handlers.effect || ctx.settled) {
    await announce(db, def, name, id, record.status, docNo, ctx.settled ?? transition.to);
    return { id, docNo, status: ctx.settled ?? transition.to, version: Number(moved.version) };
  }
  // An effect may move the state on again (approved → completed): answer what is stored.
  const now = await db
    .selectFrom(def.table)
    .select(['status', 'version'] as any)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await announce(db, def, name, id, record.status, docNo, (now as any).status);
  return { id, docNo, status: (now as any).status, version: (now as any).version };
}

/**
 * The transition's webhook events (a state change; a stock posting, an inspection's result, an
 * approved report), written in its transaction (platform/events/outbox.ts): nothing is sent for
 * one that rolls back. One delivery order per document.
 */
function announce(
  db: Db,
  def: ResourceDef,
  name: string,
  id: number,
  from: string,
  docNo: string | null,
  to: string,
) {
  return recordEvent(db, {
    events: transitionEvents(def.name, name, to),
    resource: def.name,
    key: `${def.name}:${id}`,
    permission: `${def.permission}:list`,
    data: { id, docNo, type: def.label, transition: name, from, to },
  });
}

/**
 * `POST /api/v1/<resource>/<transition>/{id}` for every declared transition, body
 * `{ version?, reason?, …input }`, header `Idempotency-Key` honoured, retried on deadlocks. The route needs
 * `${permission}:${action}`, or a scoped permission of the action for records of its kind.
 */
export function registerLifecycle(
  app: App,
  def: ResourceDef,
  handlers: Record<string, TransitionHandlers> = {},
) {
  const lifecycle = lifecycleOf(def);
  const serialize = makeSerializer(app.ringmes.config.timeZone);
  for (const t of lifecycle.transitions) {
    route(app, {
      method: 'POST',
      url: `/api/v1/${def.name}/${t.name}/:id`,
      ...gate(def, transitionAction(t)),
      params: idParams,
      body: bodyOf(t),
      async handler({ params, body, user, req, app: { db } }) {
        const key = req.headers['idempotency-key'];
        return withRetry(() =>
          db
            .transaction()
            .execute((trx) =>
              once(
                trx,
                `${def.name}:${t.name}:${params.id}`,
                typeof key === 'string' ? key : undefined,
                serialize,
                () => runTransition(trx, user, def, t.name, params.id, body ?? {}, handlers[t.name], req.id),
              ),
            ),
        );
      },
    });
    registerBatch(app, def, t, handlers[t.name]);
  }
}

/** Rows one batch call may carry. */
export const BATCH_MAX = 200;

/** A batch transition's body: the rows (each with the version the user saw) and the transition's reason and input. */
function batchBodyOf(t: TransitionDef) {
  const one = bodyOf(t).unwrap();
  return one.omit({ version: true }).extend({
    rows: z
      .array(
        z.strictObject({
          id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
          version: z.number().int().min(0).optional(),
        }),
        {
          error: '请选择要处理的单据',
        },
      )
      .min(1, '请选择要处理的单据')
      .max(BATCH_MAX, `一次最多处理 ${BATCH_MAX} 条`)
      .refine((rows) => new Set(rows.map((r) => r.id)).size === rows.length, '单据重复'),
  });
}

const batchAnswer = z.object({
  total: z.number().int(),
  succeeded: z.number().int().describe('成功条数'),
  failed: z.number().int().describe('失败条数'),
  results: z.array(
    z.object({
      id: z.number().int(),
      docNo: z.string().nullable(),
      ok: z.boolean(),
      status: z.string().nullable().describe('成功后的状态'),
      message: z.string().nullable().describe('失败原因'),
    }),
  ),
});
export type BatchAnswer = z.infer<typeof batchAnswer>;

/**
 * `POST /api/v1/<resource>/<transition>/batch`, body `{ rows: [{ id, version? }], reason?, …input }`:
 * the same transition on each row, each in its own transaction (one refused row leaves the others
 * done), answering per row ok with its new state or the refusal's message. The route needs the
 * transition's permission; each row is checked as the single call checks it (scope, owner, state).
 */
function registerBatch(
  app: App,
  def: ResourceDef,
  t: TransitionDef,
  handlers: TransitionHandlers | undefined,
) {
  const code = targetOfResource(def).code;
  route(app, {
    method: 'POST',
    url: `/api/v1/${def.name}/${t.name}/batch`,
    ...gate(def, transitionAction(t)),
    body: batchBodyOf(t),
    response: batchAnswer,
    async handler({ body, user, req, app: { db } }) {
      const { rows, ...input } = body;
      // The rows' numbers, to name the refused ones too.
      const numbers = new Map<number, string | null>();
      if (code) {
        const found = await sql<{ id: number; code: string | null }>`
          SELECT id, ${sql.ref(code)}::text AS code FROM ${sql.table(def.table)}
           WHERE id = ANY(${sql.val(rows.map((r) => r.id))}::bigint[])`.execute(db);
        for (const r of found.rows) numbers.set(Number(r.id), r.code);
      }
      const results: BatchAnswer['results'] = [];
      for (const row of rows) {
        try {
          const done = await withRetry(() =>
            db
              .transaction()
              .execute((trx) =>
                runTransition(
                  trx,
                  user,
                  def,
                  t.name,
                  row.id,
                  { ...input, version: row.version },
                  handlers,
                  req.id,
                ),
              ),
          );
          results.push({
            id: row.id,
            docNo: done.docNo ?? numbers.get(row.id) ?? null,
            ok: true,
            status: done.status,
            message: null,
          });
        } catch (err) {
          const e = err instanceof AppError ? err : fromDatabaseError(err);
          if (!e) throw err;
          results.push({
            id: row.id,
            // A row the user may not see (out of his scope, or gone) is not named.
            docNo: e.status === 403 || e.status === 404 ? null : (numbers.get(row.id) ?? null),
            ok: false,
            status: null,
            message: e.message,
          });
        }
      }
      const succeeded = results.filter((r) => r.ok).length;
      return { total: results.length, succeeded, failed: results.length - succeeded, results };
    },
  });
}

/**
 * The generic calls' share of a lifecycle: a new document starts in the initial state, and only
 * documents in an editable state may be edited or deleted. Wraps the resource's own hooks.
 */
export function lifecycleHooks(def: ResourceDef, hooks: ResourceHooks = {}): ResourceHooks {
  const lifecycle = lifecycleOf(def);
  const refuse = (status: string, action: string) =>
    conflict(`${def.label}当前为「${stateLabel(lifecycle, status)}」，不能${action}`);
  return {
    ...hooks,
    async prepare(ctx, data) {
      return { ...(await hooks.prepare?.(ctx, data)), status: lifecycle.initial };
    },
    async validate(ctx, data, before) {
      if (before && !lifecycle.editable.includes(before.status)) throw refuse(before.status, '修改');
      await hooks.validate?.(ctx, data, before);
    },
    async beforeDelete(ctx, ids) {
      const rows = await ctx.db
        .selectFrom(def.table)
        .select(['status'] as any)
        .where('id', 'in', ids)
        .execute();
      const fixed = rows.find((r: any) => !lifecycle.editable.includes(r.status)) as any;
      if (fixed) throw refuse(fixed.status, '删除');
      await hooks.beforeDelete?.(ctx, ids);
    },
  };
}
