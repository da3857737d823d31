/**
 * Webhooks of third-party apps (issue 44 §4; 第三方应用 → 订阅 and 投递记录): an app's subscriptions
 * to events, and the log of their deliveries with 重发. The events are written by the changes
 * themselves (platform/events/outbox.ts); `deliverWebhook` is the queue's job for one delivery.
 */
import { RESOURCES } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { conflict, fieldError, notFound, STALE_VERSION } from '../../platform/errors.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../platform/events/outbox.ts';
import type { App, AppContext } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { paginate, pagingFields } from '../../platform/paging.ts';
import { answerPageSchema } from '../../platform/resource/schema.ts';
import { outboundQueue, QUEUES, webhookSignature } from './outbound-queue.ts';

/** The event names and their labels, as the subscription form offers them. */
const EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as [WebhookEvent, ...WebhookEvent[]];

/** The documents a subscription may be narrowed to: every resource with a lifecycle. */
const DOCUMENTS = RESOURCES.filter((r) => r.lifecycle).map((r) => ({ value: r.name, label: r.label }));
const DOCUMENT_NAMES = new Set(DOCUMENTS.map((d) => d.value));

const url = z
  .string({ error: '请输入接收地址' })
  .trim()
  .min(1, '请输入接收地址')
  .max(500, '接收地址不能超过 500 个字符')
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, '接收地址必须是 http:// 或 https:// 开头的网址（不含用户名和密码）');

const fields = {
  event: z.enum(EVENT_NAMES, { error: `事件只能是：${EVENT_NAMES.join('、')}` }),
  resource: z
    .string()
    .trim()
    .max(60)
    .nullable()
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || DOCUMENT_NAMES.has(v), '单据类型不存在或没有状态流转'),
  url,
  status: zx.flag,
  remark: zx.text(200).nullable().optional(),
};

const subscriptionRow = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  event: z.string(),
  resource: z.string().nullable(),
  url: z.string(),
  status: z.string(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});

const deliveryRow = z.object({
  id: z.number().int(),
  deliveryId: z.string(),
  subscriptionId: z.number().int(),
  clientId: z.number().int(),
  event: z.string(),
  docKey: z.string(),
  url: z.string(),
  payload: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const SUBSCRIPTION_COLUMNS = [
  'id',
  'clientId',
  'event',
  'resource',
  'url',
  'status',
  'remark',
  'createdAt',
  'version',
] as const;

async function getSubscription(db: AppContext['db'], id: number) {
  const row = await db
    .selectFrom('webhookSubscription')
    .select(SUBSCRIPTION_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('订阅不存在或已被删除');
  return row;
}

async function assertClient(db: AppContext['db'], clientId: number) {
  const c = await db.selectFrom('apiClient').select('id').where('id', '=', clientId).executeTakeFirst();
  if (!c) throw fieldError('clientId', '应用不存在或已被删除');
}

/**
 * Sends one delivery (the queue's job): in order — an earlier pending delivery of the same
 * subscription and document goes first (this job is retried after it) —, by one sender at a time
 * (a lease on the row), signed with the app's secret. A 2xx answer delivers it; anything else is
 * retried with backoff until 24 hours after it was written, then it is `failed`. Either way the
 * next delivery of the document is queued at once.
 */
export async function deliverWebhook(ctx: AppContext, id: number, signal: AbortSignal): Promise<void> {
  const { db } = ctx;
  const q = outboundQueue(ctx);
  const row = (
    await sql<Record<string, any>>`
      SELECT d.id, d.delivery_id, d.subscription_id, d.doc_key, d.event, d.payload, d.status,
             d.created_at < now() - make_interval(secs => ${q.tuning.giveUpHours * 3600}) AS expired,
             s.url, s.status AS subscription_status, c.status AS client_status, c.secret_enc, c.secret_hash,
             EXISTS (SELECT 1 FROM webhook_delivery e
                      WHERE e.subscription_id = d.subscription_id AND e.doc_key = d.doc_key
                        AND e.status = 'pending' AND e.id < d.id) AS waiting
        FROM webhook_delivery d
        JOIN webhook_subscription s ON s.id = d.subscription_id
        JOIN api_client c ON c.id = d.client_id
       WHERE d.id = ${id}`.execute(db)
  ).rows[0];
  if (row?.status !== 'pending') return;
  if (row.waiting) throw new Error('同一单据的前一条投递尚未完成');
  // One sender at a time: the lease outlives one attempt; a crashed sender's runs out.
  const lease = Math.ceil(q.tuning.timeoutMs / 1000) + 10;
  const taken = await sql`
    UPDATE webhook_delivery SET locked_until = now() + make_interval(secs => ${lease})
     WHERE id = ${id} AND status = 'pending' AND (locked_until IS NULL OR locked_until < now())
     RETURNING id`.execute(db);
  if (!taken.rows.length) return;

  let code: number | null = null;
  let error: string | null = null;
  const secret =
    row.clientStatus === '1' && row.subscriptionStatus === '1'
      ? ctx.secrets.open(row.secretEnc, row.secretHash)
      : undefined;
  if (row.clientStatus !== '1' || row.subscriptionStatus !== '1') error = '应用或订阅已停用';
  else if (!secret) error = '应用密钥无法解密（服务器密钥已更换），请重置密钥';
  else {
    const timestamp = String(Date.now());
    const body = JSON.stringify({ deliveryId: row.deliveryId, ...row.payload });
    try {
      const res = await fetch(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'RingMES-Webhook',
          'x-ringmes-event': row.event,
          'x-ringmes-delivery': row.deliveryId,
          'x-timestamp': timestamp,
          'x-signature': webhookSignature(secret, timestamp, body),
        },
        body,
        signal,
        redirect: 'manual',
      });
      code = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (code < 200 || code > 299) error = `接收方答复 HTTP ${code}`;
    } catch (err: any) {
      error = signal.aborted
        ? '发送超时或服务停止'
        : `无法连接接收方：${err?.cause?.code ?? err?.message ?? err}`;
    }
  }
  const done = error === null;
  const give = !done && row.expired;
  await sql`
    UPDATE webhook_delivery
       SET attempts = attempts + 1, response_code = ${code}, last_error = ${error?.slice(0, 500) ?? null},
           locked_until = NULL,
           status = ${done ? 'sent' : give ? 'failed' : 'pending'},
           sent_at = ${done ? sql`now()` : sql`sent_at`}
     WHERE id = ${id}`.execute(db);
  if (done || give) {
    // The document's next delivery, without waiting for its own job's backoff.
    const next = (
      await sql<{ id: number }>`
        SELECT id FROM webhook_delivery
         WHERE subscription_id = ${row.subscriptionId} AND doc_key = ${row.docKey} AND status = 'pending'
         ORDER BY id LIMIT 1`.execute(db)
    ).rows[0];
    if (next) await q.enqueue(QUEUES.webhook, Number(next.id));
    return;
  }
  throw new Error(error as string);
}

/** 第三方应用's 订阅 and 投递记录 (permissions of 第三方应用: list to read, edit to change). */
export function webhookRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/webhook/options',
    permission: 'system:app:list',
    response: z.object({
      events: z.array(z.object({ value: z.string(), label: z.string() })),
      documents: z.array(z.object({ value: z.string(), label: z.string() })),
    }),
    handler: async () => ({
      events: EVENT_NAMES.map((value) => ({ value, label: WEBHOOK_EVENTS[value] })),
      documents: DOCUMENTS,
    }),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/webhook/list',
    permission: 'system:app:list',
    query: z.strictObject({ clientId: zx.id }),
    response: z.array(subscriptionRow),
    handler: ({ query, app: { db } }) =>
      db
        .selectFrom('webhookSubscription')
        .select(SUBSCRIPTION_COLUMNS)
        .where('clientId', '=', query.clientId)
        .orderBy('id')
        .execute(),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/threeApp/webhook/add',
    permission: 'system:app:edit',
    body: z.strictObject({
      clientId: z.number({ error: '请选择应用' }).int('请选择应用').positive('请选择应用'),
      ...fields,
      status: fields.status.default('1'),
    }),
    response: subscriptionRow,
    async handler({ body, user, req, app: ctx }) {
      const id = await ctx.db.transaction().execute(async (trx) => {
        await assertClient(trx, body.clientId);
        const row = await trx
          .insertInto('webhookSubscription')
          .values({
            clientId: body.clientId,
            event: body.event,
            resource: body.resource,
            url: body.url,
            status: body.status,
            remark: body.remark ?? null,
            createdBy: user.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(
          trx,
          user,
          { entity: 'webhookSubscription', entityId: row.id, action: 'create', after: body },
          req.id,
        );
        return Number(row.id);
      });
      // The first subscription of a database starts the queue.
      await outboundQueue(ctx).start();
      return getSubscription(ctx.db, id);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/threeApp/webhook/edit/:id',
    permission: 'system:app:edit',
    params: idParams,
    body: z.strictObject({
      event: fields.event.optional(),
      resource: fields.resource,
      url: fields.url.optional(),
      status: fields.status.optional(),
      remark: fields.remark,
      version: zx.version,
    }),
    response: subscriptionRow,
    async handler({ params, body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getSubscription(trx, params.id);
        const { version, resource, ...data } = body;
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        await trx
          .updateTable('webhookSubscription')
          .set({
            ...data,
            ...('resource' in body ? { resource } : {}),
            updatedAt: sql`now()`,
            version: sql`version + 1`,
          })
          .where('id', '=', params.id)
          .execute();
        await audit(
          trx,
          user,
          { entity: 'webhookSubscription', entityId: params.id, action: 'update', before, after: body },
          req.id,
        );
      });
      return getSubscription(db, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/threeApp/webhook/delete/:id',
    permission: 'system:app:edit',
    params: idParams,
    response: z.null(),
    async handler({ params, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getSubscription(trx, params.id);
        await trx.deleteFrom('webhookSubscription').where('id', '=', params.id).execute();
        await audit(
          trx,
          user,
          { entity: 'webhookSubscription', entityId: params.id, action: 'delete', before },
          req.id,
        );
      });
      return null;
    },
  });

  // 投递记录: newest first, by app, status and event.
  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/delivery/page',
    permission: 'system:app:list',
    query: z.strictObject({
      ...pagingFields,
      clientId: zx.id,
      status: z
        .enum(['pending', 'sent', 'failed'], { error: '状态只能是 pending、sent 或 failed' })
        .optional(),
      event: fields.event.optional(),
    }),
    response: answerPageSchema(deliveryRow),
    async handler({ query, app: { db } }) {
      let q = db
        .selectFrom('webhookDelivery as d')
        .innerJoin('webhookSubscription as s', 's.id', 'd.subscriptionId')
        .select([
          'd.id',
          'd.deliveryId',
          'd.subscriptionId',
          'd.clientId',
          'd.event',
          'd.docKey',
          's.url',
          'd.payload',
          'd.status',
          'd.attempts',
          'd.responseCode',
          'd.lastError',
          'd.createdAt',
          'd.sentAt',
        ])
        .where('d.clientId', '=', query.clientId);
      if (query.status) q = q.where('d.status', '=', query.status);
      if (query.event) q = q.where('d.event', '=', query.event);
      return paginate(q, query, { createdAt: 'd.id' }, { column: 'd.id', desc: true }, 'd.id');
    },
  });

  // 重发: the same delivery (same delivery id) again, with a new 24 hours of retries.
  route(app, {
    method: 'POST',
    url: '/api/v1/threeApp/delivery/resend/:id',
    permission: 'system:app:edit',
    params: idParams,
    response: z.null(),
    async handler({ params, user, req, app: ctx }) {
      await ctx.db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('webhookDelivery')
          .select(['id', 'status', 'deliveryId'])
          .where('id', '=', params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('投递记录不存在或已被删除');
        if (before.status === 'pending') throw conflict('该投递正在发送或等待重试，不能重发');
        await sql`
          UPDATE webhook_delivery SET status = 'pending', queued = false, created_at = now(),
                 locked_until = NULL, last_error = NULL
           WHERE id = ${params.id}`.execute(trx);
        await audit(
          trx,
          user,
          { entity: 'webhookDelivery', entityId: params.id, action: 'resend', before },
          req.id,
        );
      });
      const q = outboundQueue(ctx);
      await q.start();
      await q.relay();
      return null;
    },
  });
}
