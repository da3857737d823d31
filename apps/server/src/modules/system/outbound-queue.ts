/**
 * The outbound queue (issue 44 §4, §7): webhook deliveries to third-party apps and notifications to
 * outside channels (email, 企业微信, 钉钉), sent by pg-boss — a durable job queue in the same
 * PostgreSQL (schema `pgboss`), on the embedded PGlite too, through a `db.executeSql` adapter over
 * the server's own connection. Changes write outbox rows in their own transaction
 * (`webhook_delivery`, `notify_send`); the relay here turns each row into a job in one transaction
 * with marking it queued, woken at commit by `pg_notify` and swept every few seconds (a missed
 * wake-up, a row of a process that died). A job that fails is retried by pg-boss with exponential
 * backoff; a row gives up after 24 hours (`failed`). Jobs survive restarts: one a stopped process
 * held is failed on stop (or expires) and retried by whichever process runs next.
 *
 * The queue starts with the first subscription, channel preference or pending row of a database
 * (a server without any never starts pg-boss); a process that finds none looks again every
 * 30 seconds.
 */
import crypto from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/db.ts';
import { OUTBOX_CHANNEL } from '../../platform/events/outbox.ts';
import type { App, AppContext } from '../../platform/http/route.ts';

/** How the queue runs; the environment may shorten it (tests: seconds instead of minutes). */
export function queueTuning() {
  const num = (name: string, fallback: number) => {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    /** First retry after 1–2 × this, doubling each time (pg-boss `retryBackoff`). */
    retryDelaySeconds: num('OUTBOUND_RETRY_DELAY_SECONDS', 30),
    /** 30 s doubling 12 times passes 24 h; `giveUpHours` ends it. */
    retryLimit: num('OUTBOUND_RETRY_LIMIT', 16),
    giveUpHours: num('OUTBOUND_GIVE_UP_HOURS', 24),
    /** One attempt's HTTP (or SMTP) time limit. */
    timeoutMs: num('OUTBOUND_TIMEOUT_MS', 10_000),
    pollingSeconds: num('OUTBOUND_POLLING_SECONDS', 2),
    sweepMs: num('OUTBOUND_SWEEP_MS', 5_000),
  };
}

export const QUEUES = {
  webhook: 'ringmes-webhook',
  notify: 'ringmes-notify',
  digest: 'ringmes-digest',
} as const;

/** pg-boss's database adapter: its SQL over the server's connection, rows as PostgreSQL names them. */
export function bossDb(db: Db) {
  const raw = db.withoutPlugins();
  return {
    async executeSql(text: string, values?: unknown[]) {
      const r = await raw.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: r.rows as any[], rowCount: Number(r.numAffectedRows ?? r.rows.length) };
    },
  };
}

type Handler = (ctx: AppContext, id: number, signal: AbortSignal) => Promise<void>;

/** What a relay takes from one outbox table: its rows not yet queued, each a job of one queue. */
interface Outbox {
  table: 'webhook_delivery' | 'notify_send';
  queue: string;
}
const OUTBOXES: Outbox[] = [
  { table: 'webhook_delivery', queue: QUEUES.webhook },
  { table: 'notify_send', queue: QUEUES.notify },
];

export class OutboundQueue {
  boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  private timers: NodeJS.Timeout[] = [];
  private unlisten?: () => Promise<void>;
  private relaying?: Promise<void>;
  private relayAgain = false;
  private workers: string[] = [];
  private inflight = new Set<AbortController>();
  private stopped = false;
  readonly tuning = queueTuning();

  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: Record<string, Handler>,
    private readonly onDigest: (ctx: AppContext) => Promise<void>,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {}

  /** Starts pg-boss if this database has anything to send (or will: a subscription, a preference). */
  async startIfNeeded(): Promise<void> {
    if (this.boss || this.starting || this.stopped) return;
    const r = await sql<{ needed: boolean }>`
      SELECT EXISTS (SELECT 1 FROM webhook_subscription)
          OR EXISTS (SELECT 1 FROM notify_pref WHERE digest OR cardinality(channels) > 0)
          OR EXISTS (SELECT 1 FROM webhook_delivery WHERE status = 'pending')
          OR EXISTS (SELECT 1 FROM notify_send WHERE status = 'pending') AS needed`.execute(this.ctx.db);
    if (r.rows[0]?.needed) await this.start();
  }

  start(): Promise<PgBoss> {
    if (this.boss) return Promise.resolve(this.boss);
    this.starting ??= this.open().catch((err) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private async open(): Promise<PgBoss> {
    const t = this.tuning;
    const boss = new PgBoss({
      db: bossDb(this.ctx.db),
      schema: 'pgboss',
      // Expired jobs (a process that died holding one) are found within this interval.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.round(t.timeoutMs / 1000) * 2)),
    } as any);
    boss.on('error', (err) => this.log('发送队列出错', err));
    await boss.start();
    const common = {
      retryLimit: t.retryLimit,
      retryDelay: t.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: Math.ceil(t.timeoutMs / 1000) + 30,
    };
    await boss.createQueue(QUEUES.webhook, { name: QUEUES.webhook, ...common });
    await boss.createQueue(QUEUES.notify, { name: QUEUES.notify, ...common });
    await boss.createQueue(QUEUES.digest, { name: QUEUES.digest, retryLimit: 3 });
    for (const [queue, handler] of Object.entries(this.handlers))
      this.workers.push(
        await boss.work(queue, { pollingIntervalSeconds: t.pollingSeconds }, async (jobs: any[]) => {
          for (const job of jobs) await this.run(handler, Number(job.data.id));
        }),
      );
    this.workers.push(
      await boss.work(QUEUES.digest, { pollingIntervalSeconds: t.pollingSeconds }, async () =>
        this.onDigest(this.ctx),
      ),
    );
    // 待检验 and the other digests: one message per user and kind at the top of each hour.
    await boss.schedule(QUEUES.digest, '0 * * * *');
    this.boss = boss;
    this.unlisten = await this.ctx.listen(OUTBOX_CHANNEL, () => this.relay());
    this.timers.push(setInterval(() => this.relay(), t.sweepMs).unref());
    await this.relay();
    return boss;
  }

  /** One attempt, aborted when the process stops (the job is then retried by the next process). */
  private async run(handler: Handler, id: number) {
    const abort = new AbortController();
    this.inflight.add(abort);
    try {
      await handler(
        this.ctx,
        id,
        AbortSignal.any([abort.signal, AbortSignal.timeout(this.tuning.timeoutMs)]),
      );
    } finally {
      this.inflight.delete(abort);
    }
  }

  /** Turns the outbox rows not yet queued into jobs (at most one relay at a time; asked again, it runs again). */
  relay(): Promise<void> {
    if (!this.boss || this.stopped) return Promise.resolve();
    if (this.relaying) {
      this.relayAgain = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      try {
        do {
          this.relayAgain = false;
          for (const o of OUTBOXES) while ((await this.relayBatch(o)) === 200);
        } while (this.relayAgain && !this.stopped);
      } catch (err) {
        if (!this.stopped) this.log('发送队列转存失败', err);
      } finally {
        this.relaying = undefined;
      }
    })();
    return this.relaying;
  }

  private async relayBatch(o: Outbox): Promise<number> {
    const boss = this.boss as PgBoss;
    const ids = await this.ctx.db.transaction().execute(async (trx) => {
      const rows = (
        await sql<{ id: number }>`
          SELECT id FROM ${sql.table(o.table)} WHERE NOT queued ORDER BY id LIMIT 200
             FOR UPDATE SKIP LOCKED`.execute(trx)
      ).rows.map((r) => Number(r.id));
      if (!rows.length) return rows;
      const db = bossDb(trx);
      for (const id of rows) await boss.send(o.queue, { id }, { db } as any);
      await sql`UPDATE ${sql.table(o.table)} SET queued = true WHERE id = ANY(${rows}::bigint[])`.execute(
        trx,
      );
      return rows;
    });
    return ids.length;
  }

  /** A job for one row now (重发, the next delivery of a document once the one before it is done). */
  async enqueue(queue: string, id: number): Promise<void> {
    const boss = await this.start();
    await boss.send(queue, { id });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const a of this.inflight) a.abort();
    await this.relaying;
    await this.unlisten?.().catch(() => undefined);
    const boss = this.boss ?? (await this.starting?.catch(() => undefined));
    // The jobs in hand fail at once (retried by the next process), without waiting for them.
    await boss?.stop({ graceful: false, wait: true, close: false, timeout: 1000 });
  }
}

const queues = new WeakMap<AppContext, OutboundQueue>();

/** The queue of an app (one per server process and database). */
export function outboundQueue(ctx: AppContext): OutboundQueue {
  const q = queues.get(ctx);
  if (!q) throw new Error('outbound queue not registered');
  return q;
}

/**
 * Registers the queue with its workers: started when the app is ready (if needed), stopped before
 * it closes (in-flight sends aborted, their jobs failed for a retry).
 */
export function registerOutboundQueue(
  app: App,
  handlers: Record<string, Handler>,
  onDigest: (ctx: AppContext) => Promise<void>,
) {
  const ctx = app.ringmes;
  const queue = new OutboundQueue(ctx, handlers, onDigest, (msg, err) => app.log.warn({ err }, msg));
  queues.set(ctx, queue);
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const check = () => queue.startIfNeeded().catch((err) => app.log.warn({ err }, '发送队列启动失败'));
    await check();
    if (!queue.boss)
      timer = setInterval(() => {
        if (queue.boss) clearInterval(timer);
        else void check();
      }, 30_000).unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await queue.stop();
  });
}

/** The hex HMAC-SHA256 a webhook carries: keyed with the app's secret, of `${timestamp}\n${body}`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}\n${body}`).digest('hex');
}
