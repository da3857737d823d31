import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CamelCasePlugin,
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { AutonomousConnection } from './autonomous.ts';
import { pgListener } from './listen.ts';
import { acquireDataDirLock } from './lock.ts';
import { NAMES, PgliteCursor, pglitePool } from './pglite-pool.ts';
import { namePreparedStatements } from './prepared.ts';
import { ReplicaMonitor, type ReplicaStats, routingPool } from './replica.ts';
import { parseTimestamptz, TIMESTAMPTZ } from './timestamp.ts';

/** The schema is defined by the SQL migrations; queries are typed at their call sites. */
export type Db = Kysely<any>;
export type DbKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
  /**
   * LISTEN on a channel (`platform/live`, session revocations): PostgreSQL on one dedicated
   * connection for every channel (`pgListener`), reconnected after a loss (`onReconnect` then
   * runs, as notifications may have been missed); PGlite in process. Answers the function that
   * stops listening.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * PostgreSQL only: two connections of their own for the live views (车间看板), which are computed
   * while requests run. On the shared pool their queries queued behind the transactions of 16
   * operators posting, and the screens lagged several times longer than with connections to
   * spare (bench dashboard).
   */
  liveDb?: Db;
  /** PGlite only: the data directory as a tarball, to open copies of it (`loadDataDir`). */
  dumpDataDir?(): Promise<Blob>;
  /** PostgreSQL only: the request pool's connections now (for `/metrics`). */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
  /** With a read replica: its state and the reads it answered (for `/metrics`). */
  replicaStats?(): ReplicaStats;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for a throw-away in-memory database. */
  dataDir?: string;
  /** PGlite: start from this data directory tarball (`dumpDataDir` of another database). */
  loadDataDir?: Blob;
  /**
   * PGlite: a directory holding an empty database with the migrations applied (`npm run build`
   * makes `dist/pgdata-template`). A new data directory starts as a copy of it instead of running
   * initdb and every migration (a much shorter cold start); migrations added since still run.
   */
  template?: string;
  poolMax?: number;
  /**
   * PostgreSQL only: a streaming replica for the reads that may be a moment behind
   * (DATABASE_REPLICA_URL; `replica.ts`), used while it lags at most `replicaMaxLagMs`.
   */
  replicaUrl?: string;
  replicaMaxLagMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

const INT8 = 20;
const NUMERIC = 1700;
const INT8_ARRAY = 1016;
const INT4_ARRAY = 1007;
const DATE = 1082;

/**
 * One value shape on both drivers: ids (int8) as numbers, numeric as exact strings, dates as
 * 'YYYY-MM-DD' strings (a JS Date would shift with the time zone), timestamptz as Date.
 */
function pgParser(oid: number, format: any) {
  if (oid === INT8) return (v: string) => Number(v);
  if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
  if (oid === INT8_ARRAY) return pg.types.getTypeParser(INT4_ARRAY as any, format);
  if (oid === DATE) return (v: string) => v;
  return pg.types.getTypeParser(oid, format);
}

/**
 * A read of every row (`paginate`'s pageNum 0) fetched `ROWS_PER_FETCH` rows at a time through a
 * portal (Kysely's `stream`): each batch is parsed as it arrives and the event loop turns between
 * batches, where a whole result of thousands of rows was parsed in one stretch that held every
 * other request back. The rows are typed as the pool's (`pgParser`).
 */
class TypedCursor extends Cursor {
  constructor(text: string, values: unknown[]) {
    super(text, values as any[], { types: { getTypeParser: pgParser } } as any);
  }
}

/** What a pooled connection that the server ended while it sat idle answers to its next statement. */
function diedIdle(err: any): boolean {
  return (
    ['57P01', '57P02', '57P03'].includes(err?.code) ||
    /Connection terminated unexpectedly|not queryable|Client was closed/i.test(String(err?.message ?? '')) ||
    ['ECONNRESET', 'EPIPE'].includes(err?.code)
  );
}

/**
 * A connection PostgreSQL ended while it sat idle in the pool (a restart, a failover,
 * pg_terminate_backend, a firewall dropping idle connections) is found out only when it is next
 * used, and after a restart every idle connection is such a one. So when the first statement on
 * a connection that had been used before fails that way, the connection is discarded and the
 * statement run again on the next one, until one answers or a connection never used before fails
 * too: that statement never ran (a transaction's first statement is its BEGIN). Later statements
 * are never retried; they answer 503.
 */
function revivingPool(pool: pg.Pool) {
  const used = new WeakSet<object>();
  return {
    async connect() {
      // `null` once discarded and no other could be had: Kysely still releases the connection.
      let client: pg.PoolClient | null = await pool.connect();
      let first = true;
      return {
        query(...args: any[]) {
          const run = () => (client as any).query(...args);
          const retry = first && used.has(client as pg.PoolClient);
          first = false;
          const r = run();
          if (!retry || typeof r?.then !== 'function') return r;
          const again = async (err: unknown): Promise<unknown> => {
            if (!client || !used.has(client) || !diedIdle(err)) throw err;
            client.release(err instanceof Error ? err : true);
            client = null;
            client = await pool.connect();
            return run().catch(again);
          };
          return r.catch(again);
        },
        release(err?: Error | boolean) {
          if (!client) return;
          if (!err) used.add(client);
          client.release(err);
          client = null;
        },
      };
    },
    end: () => pool.end(),
  };
}

/**
 * Kysely's camel-case plugin with rows mapped in one loop over their keys, each column name
 * converted once (nested objects keep their keys, as `maintainNestedObjectKeys` asks). The
 * plugin's own mapping tested every value for a plain object and copied every array, a visible
 * share of a list request's CPU.
 */
/** Rows camel-cased between two turns of the event loop in a long result. */
const ROWS_PER_TURN = 500;

class RowCamelCase extends CamelCasePlugin {
  readonly #keys = new Map<string, string>();
  /**
   * A raw statement (sql`…`) is written in column names throughout: it runs as written (the
   * plugin would copy its whole tree to snake-case identifiers that are already snake_case, on
   * every work report's posting). Query-builder statements are converted as before.
   */
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node.kind === 'RawNode' ? args.node : super.transformQuery(args);
  }
  /**
   * Long results (all rows, exports) are mapped ROWS_PER_TURN rows at a time with a turn of the
   * event loop between: 3,200 work reports in one go held every other request back.
   */
  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (!Array.isArray(rows) || rows.length <= ROWS_PER_TURN) return super.transformResult(args);
    const out: UnknownRow[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (i > 0 && i % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      out[i] = this.mapRow(rows[i] as Record<string, unknown>) as UnknownRow;
    }
    return { ...args.result, rows: out };
  }
  override mapRow(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key in row) {
      let name = this.#keys.get(key);
      if (name === undefined) {
        name = this.camelCase(key);
        this.#keys.set(key, name);
      }
      out[name] = row[key];
    }
    return out;
  }
}

/**
 * The same rows camel-cased, the query left as it is: for queries written in column names
 * (snake_case) throughout, such as the resource reads (`platform/resource/query.ts`). The
 * camel-case plugin otherwise copies every query's tree to snake-case its identifiers, on every
 * page read.
 */
class RowsOnlyCamelCase extends RowCamelCase {
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
}
const snakeWritten = new WeakMap<Db, Db>();

/** `db` for a query that names its columns as the database does (snake_case) everywhere. */
export function inColumnNames(db: Db): Db {
  let out = snakeWritten.get(db);
  if (!out) {
    out = db.withoutPlugins().withPlugin(new RowsOnlyCamelCase({ maintainNestedObjectKeys: true }));
    snakeWritten.set(db, out);
  }
  return out;
}

/** The planner's random page cost on every connection (see the pool's options). */
const RANDOM_PAGE_COST = 1.1;

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const plugins = [new RowCamelCase({ maintainNestedObjectKeys: true })];
  if (opts.databaseUrl) {
    const pools = new Map<string, pg.Pool>();
    const pgPool = (url: string, max: number, name: string) => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
        statement_timeout: 30_000,
        lock_timeout: 10_000,
        idle_in_transaction_session_timeout: 60_000,
        application_name: name,
        // The planner's cost of a random page read as for storage that reads at random nearly as
        // fast as in sequence, and a working set held in memory (PostgreSQL's own advice for SSDs;
        // the default 4 models spinning disks). With 4 it sorted 20,000 customers by name for page
        // 500 rather than walk the (name, id) index, the slower plan (bench master-list).
        options: `-c random_page_cost=${RANDOM_PAGE_COST}`,
        types: { getTypeParser: pgParser as any },
      });
      pools.set(name, pool);
      // A database restart must not kill the process: idle clients that die emit here.
      pool.on('error', (err) => opts.log?.('PostgreSQL 连接池中的空闲连接出错', err));
      // A client that is checked out when its connection dies emits 'error' too, and pg-pool only
      // listens while the client is idle: without this listener the process crashes. The query in
      // flight fails on its own (→ 503) and the pool discards the broken client on release.
      pool.on('connect', (client) => {
        client.on('error', (err) => opts.log?.('PostgreSQL 连接中断', err));
        namePreparedStatements(client);
      });
      return pool;
    };
    let monitor: ReplicaMonitor | undefined;
    const poolOf = (max: number, name: string, extra: KyselyPlugin[] = [], replicaUrl?: string) => {
      const pool = pgPool(opts.databaseUrl as string, max, name);
      let routed: ReturnType<typeof revivingPool> = revivingPool(pool);
      if (replicaUrl) {
        const replica = pgPool(replicaUrl, max, `${name}-replica`);
        monitor = new ReplicaMonitor(pool, replica, opts.replicaMaxLagMs ?? 2_000, 500, opts.log);
        routed = routingPool(routed, replica, monitor) as ReturnType<typeof revivingPool>;
      }
      return new Kysely<any>({
        dialect: new PostgresDialect({ pool: routed, cursor: TypedCursor }),
        plugins: [...plugins, ...extra],
      });
    };
    // Document numbers are taken on connections of their own and committed at once, so no saving
    // transaction holds a day's counter row until it commits (platform/numbering.ts).
    const numberingDb = poolOf(2, 'ringmes-numbering');
    const db = poolOf(
      opts.poolMax ?? 10,
      'ringmes',
      [new AutonomousConnection(numberingDb)],
      opts.replicaUrl,
    );
    await monitor?.start();
    const liveDb = poolOf(2, 'ringmes-live');
    const listener = pgListener(opts.databaseUrl, opts.log);
    return {
      db,
      liveDb,
      kind: 'postgres',
      poolStats() {
        const p = pools.get('ringmes') as pg.Pool;
        return { max: p.options.max, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount };
      },
      ...(monitor ? { replicaStats: () => (monitor as ReplicaMonitor).stats() } : {}),
      close: async () => {
        await Promise.all([db.destroy(), liveDb.destroy(), numberingDb.destroy(), listener.close()]);
      },
      listen: (channel, onPayload, onReconnect) => listener.listen(channel, onPayload, onReconnect),
    };
  }

  const dataDir = opts.dataDir ?? './data';
  const inMemory = dataDir.startsWith('memory://');
  const release = inMemory ? () => {} : acquireDataDirLock(dataDir);
  try {
    if (!inMemory && opts.template) await startFromTemplate(dataDir, opts.template);
    const lite = new PGlite(inMemory ? dataDir : `${dataDir}/pgdata`, {
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => v, [DATE]: (v: string) => v },
      // Trigram indexes serve the contains-filters (migration 0032).
      extensions: { pg_trgm },
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
    await lite.waitReady;
    // A sequential scan's every start or restart costs a file-size call (lseek to the end, fstat)
    // from WebAssembly, which the planner does not count: a list's per-row reference names on small
    // tables were scanned that way row by row (a large share of the embedded server's CPU). Index scans
    // serve them; a table without a usable index is still scanned.
    await lite.exec(`SET random_page_cost = ${RANDOM_PAGE_COST}; SET enable_seqscan = off`);
    // Notifications in the answers the pool reads itself (statements with parameters) go to these;
    // those of PGlite's own reads (simple statements: COMMIT) to `lite.listen`'s.
    const listeners = new Map<string, Set<(payload: string) => void>>();
    const pool = pglitePool(lite, NAMES, (channel, payload) => {
      for (const onPayload of listeners.get(channel) ?? []) onPayload(payload);
    });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool, cursor: PgliteCursor }), plugins });
    return {
      db,
      kind: 'pglite',
      async listen(channel, onPayload) {
        const stop = await lite.listen(channel, onPayload);
        const set = listeners.get(channel) ?? new Set();
        set.add(onPayload);
        listeners.set(channel, set);
        return async () => {
          set.delete(onPayload);
          await stop();
        };
      },
      async dumpDataDir() {
        return lite.dumpDataDir('none');
      },
      async close() {
        try {
          await db.destroy();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** The installed PGlite's version: a template is used only by the PGlite that made it. */
export function pgliteVersion(): string {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = path.join(path.dirname(main), '..', 'package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

/** What `dist/pgdata-template/template.json` records. */
export interface TemplateMarker {
  pglite: string;
  migrations: string[];
}

/**
 * A data directory without a database gets a copy of the template's, when the template was made
 * by this PGlite. The copy is renamed into place, so a crash mid-copy leaves no half database.
 */
async function startFromTemplate(dataDir: string, template: string) {
  const target = path.join(dataDir, 'pgdata');
  if (fs.existsSync(target)) return;
  let marker: TemplateMarker;
  try {
    marker = JSON.parse(fs.readFileSync(path.join(template, 'template.json'), 'utf8'));
  } catch {
    return;
  }
  if (marker.pglite !== pgliteVersion()) return;
  const partial = `${target}.copying`;
  fs.rmSync(partial, { recursive: true, force: true });
  await copyTree(path.join(template, 'pgdata'), partial);
  fs.renameSync(partial, target);
}

/**
 * A directory tree copied with every file's copy queued at once (the thread pool runs them side
 * by side): the template's thousands of small files copy several times faster than by `fs.cpSync`.
 */
async function copyTree(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(to);
  const entries = await fs.promises.readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((e) => {
      const [a, b] = [path.join(from, e.name), path.join(to, e.name)];
      return e.isDirectory() ? copyTree(a, b) : fs.promises.copyFile(a, b);
    }),
  );
}
