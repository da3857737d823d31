import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Reads that may be a moment behind — reports, exports, every-row lists (the heavy reads of
 * `http/heavy-reads.ts`) — go to a PostgreSQL streaming replica (DATABASE_REPLICA_URL) while it
 * is up and caught up within `maxLagMs`; otherwise to the primary, as every other statement.
 *
 * The choice is per connection use, inside the request pool: a heavy read runs its handler in
 * `readsFromReplica`, and a statement there goes to the replica only when it is a plain read
 * (SELECT / WITH without a write, a lock, a sequence or a notification) outside a transaction. A
 * write in the same handler (an export's job row) goes to the primary. A statement the replica
 * fails with a lost connection runs again on the primary (a read is safe to repeat).
 *
 * Lag: every `checkMs` the primary's WAL position is sampled and the replica's replay position
 * read; the replica is as fresh as the newest primary sample it has replayed, so its lag is the
 * age of that sample (0 when it has replayed the latest).
 */

const scope = new AsyncLocalStorage<true>();

/** Runs `fn` with its plain reads allowed on the replica. */
export const readsFromReplica = <T>(fn: () => T): T => scope.run(true, fn);

const WRITES =
  /\b(insert|update|delete|merge|truncate|copy|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|nextval|setval|pg_notify|pg_advisory\w*|lock|set_config|txid_current|pg_current_xact_id)\b/i;

/** A statement the replica can answer: a read that writes, locks and notifies nothing. */
export function isPlainRead(text: string): boolean {
  const head = text.trimStart().slice(0, 6).toLowerCase();
  return (head === 'select' || head.startsWith('with')) && !WRITES.test(text);
}

/** Ends of a statement's text: a string, or a query config / cursor with `text`. */
const textOf = (arg: unknown): string | undefined =>
  typeof arg === 'string'
    ? arg
    : typeof (arg as { text?: unknown })?.text === 'string'
      ? (arg as any).text
      : undefined;

/** A connection lost or refused: the statement never ran on the replica. */
function lostConnection(err: any): boolean {
  return (
    [
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
      'ECONNREFUSED',
      'ECONNRESET',
    ].includes(err?.code) ||
    /Connection terminated|not queryable|Client was closed|connect ECONNREFUSED|timeout/i.test(
      String(err?.message ?? ''),
    )
  );
}

interface PoolLike {
  connect(): Promise<any>;
  end(): Promise<void>;
}

export interface ReplicaStats {
  /** The replica answered its last check. */
  up: boolean;
  /** How far behind the primary it was at its last check, in ms (−1 when down). */
  lagMs: number;
  /** Statements answered by the replica. */
  reads: number;
  /** Statements that could have gone to the replica and went to the primary (down, behind, failed). */
  fallbacks: number;
}

/** The replica's health, checked on a timer. */
export class ReplicaMonitor {
  up = false;
  lagMs = -1;
  reads = 0;
  fallbacks = 0;
  private readonly samples: { at: number; lsn: bigint }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly primary: pg.Pool,
    private readonly replica: pg.Pool,
    readonly maxLagMs: number,
    private readonly checkMs = 500,
    private readonly log?: (msg: string, err?: unknown) => void,
  ) {}

  start(): Promise<void> {
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
    return this.check();
  }

  stop() {
    clearInterval(this.timer);
  }

  /** The replica may answer now. */
  usable(): boolean {
    return this.up && this.lagMs >= 0 && this.lagMs <= this.maxLagMs;
  }

  stats(): ReplicaStats {
    return { up: this.up, lagMs: this.lagMs, reads: this.reads, fallbacks: this.fallbacks };
  }

  /** One look at both servers (also after a statement found the replica gone). */
  async check(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const now = Date.now();
    try {
      const p = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.samples.push({ at: now, lsn: lsnOf(p.rows[0]!.lsn) });
      // Samples older than the bound tell nothing more: a replica behind them is too far behind.
      while (this.samples.length > 2 && this.samples[1]!.at < now - this.maxLagMs - this.checkMs)
        this.samples.shift();
    } catch (err) {
      this.log?.('只读副本检查：主库无应答', err);
      this.running = false;
      return;
    }
    try {
      const r = await this.replica.query<{ lsn: string | null; recovery: boolean }>(
        'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovery',
      );
      const replayed = r.rows[0]?.lsn ? lsnOf(r.rows[0].lsn) : -1n;
      const wasUp = this.up;
      this.up = true;
      // The newest primary sample the replica has replayed: it is that old.
      let fresh: number | undefined;
      for (let i = this.samples.length - 1; i >= 0; i--)
        if (this.samples[i]!.lsn <= replayed) {
          fresh = this.samples[i]!.at;
          break;
        }
      // Not a standby (promoted, or pointed at the primary itself): as fresh as the primary.
      if (!r.rows[0]?.recovery) fresh = now;
      this.lagMs = fresh === undefined ? Number.POSITIVE_INFINITY : now - fresh;
      if (!wasUp) this.log?.('只读副本已连接');
    } catch (err) {
      if (this.up) this.log?.('只读副本不可用，读请求改由主库应答', err);
      this.up = false;
      this.lagMs = -1;
    } finally {
      this.running = false;
    }
  }
}

/** `X/Y` (hex) → a comparable number. */
const lsnOf = (s: string) => {
  const [hi, lo] = s.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
};

/**
 * The request pool as Kysely sees it (`connect`/`end`), sending each use's statements to the
 * primary or, for plain reads in `readsFromReplica`, to the replica (module comment).
 */
export function routingPool(primary: PoolLike, replica: PoolLike, monitor: ReplicaMonitor): PoolLike {
  return {
    async connect() {
      if (!scope.getStore()) return primary.connect();
      // A statement in a replica scope: a replica connection at hand (a cursor needs one at once).
      let standby: any;
      if (monitor.usable()) {
        try {
          standby = await replica.connect();
          // A pooled connection may have died with the replica since it was last used; a cursor
          // opened on it could not be moved to the primary.
          await standby.query('SELECT 1');
        } catch (err) {
          standby?.release(err instanceof Error ? err : true);
          standby = undefined;
          void monitor.check();
          if (!lostConnection(err)) throw err;
        }
      }
      // No replica at hand: the primary, as outside the scope.
      if (!standby) {
        monitor.fallbacks++;
        return primary.connect();
      }
      let main: any;
      let bound: 'primary' | 'replica' | undefined;
      const onPrimary = async () => {
        main ??= await primary.connect();
        return main;
      };
      return {
        query(...args: any[]) {
          const text = textOf(args[0]);
          const read = text !== undefined && isPlainRead(text);
          if (bound !== 'primary' && standby && read && typeof args[0]?.read === 'function') {
            // A cursor (streamed rows) is answered where it is opened.
            bound = 'replica';
            monitor.reads++;
            return standby.query(...args);
          }
          if (bound !== 'primary' && standby && read) {
            bound = 'replica';
            monitor.reads++;
            return standby.query(...args).catch(async (err: unknown) => {
              if (!lostConnection(err)) throw err;
              void monitor.check();
              standby.release(err instanceof Error ? err : true);
              standby = undefined;
              monitor.reads--;
              monitor.fallbacks++;
              return (await onPrimary()).query(...args);
            });
          }
          // A transaction, a write, or a read once the use is on the primary: the primary (a
          // cursor in a transaction finds its connection there, opened by BEGIN).
          if (bound === undefined && !read) bound = 'primary';
          if (main) return main.query(...args);
          return onPrimary().then((c) => c.query(...args));
        },
        release(err?: Error | boolean) {
          standby?.release(err);
          main?.release(err);
          standby = undefined;
          main = undefined;
        },
      };
    },
    end: async () => {
      monitor.stop();
      await Promise.all([primary.end(), replica.end()]);
    },
  };
}
