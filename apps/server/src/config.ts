import net from 'node:net';
import path from 'node:path';

/** Runtime configuration, read once from the environment (architecture.md, "Two commands"). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A PostgreSQL streaming replica for reports, exports and every-row lists (DATABASE_REPLICA_URL),
   * used while it is at most `replicaMaxLagMs` behind (DATABASE_REPLICA_MAX_LAG_MS, default 2000).
   */
  databaseReplicaUrl: string | undefined;
  replicaMaxLagMs: number;
  seed: 'demo' | 'minimal' | 'none' | undefined;
  adminPassword: string | undefined;
  timeZone: string;
  exportDir: string;
  /** Where uploaded attachments live (the filesystem store; see platform/attachments/storage.ts). */
  attachmentDir: string;
  /**
   * An S3-compatible object store for the attachments instead of `attachmentDir` (S3_BUCKET set;
   * S3_ENDPOINT for MinIO, Ceph or a cloud other than AWS).
   */
  s3: S3Config | undefined;
  /** Largest accepted upload in bytes (ATTACHMENT_MAX_MB, default 20 MB). */
  attachmentMaxBytes: number;
  webDist: string;
  /** Defaults of the session timeouts; 系统设置 overrides them at run time. */
  session: { idleMinutes: number; absoluteHours: number };
  /**
   * Key material for the secrets of third-party apps (API_SECRET_KEY). Unset: a random key kept in
   * DATA_DIR/api-secret.key, made on first use — set it when several processes share one database.
   */
  apiSecretKey: string | undefined;
  login: { maxFailsPerUser: number; maxFailsPerIp: number; windowMinutes: number };
  logLevel: string;
  pgPoolMax: number;
  /**
   * Which proxies' `X-Forwarded-For` to believe (TRUST_PROXY, Fastify's `trustProxy`): a hop count
   * (`1`: the one proxy in front) or a list of addresses and CIDR ranges (`127.0.0.1,10.0.0.0/8`).
   * Unset or `0`: none, the socket's address is the client's.
   */
  trustProxy: number | string[] | undefined;
  /** Heavy reads (all rows, exports, reports) one user may have in flight at once (HEAVY_READS_PER_USER). */
  heavyReadsPerUser: number;
  /** Who may read `/metrics`: METRICS_TOKEN (bearer) when set, else the METRICS_ALLOW addresses. */
  metrics: { token: string | undefined; allow: string[] };
  /** Housekeeping (platform/ops/housekeeping.ts): days each kind of row is kept, 0 = for ever. */
  retention: RetentionConfig;
  /** The daily backup (BACKUP_AT=HH:MM, BACKUP_DIR, BACKUP_KEEP; platform/ops/backup-schedule.ts); unset: none. */
  backup: { at: string; dir: string; keep: number } | undefined;
}

export interface RetentionConfig {
  /** Sessions, counted from their expiry or revocation (RETAIN_SESSIONS_DAYS). */
  sessionDays: number;
  /** Sign-in attempts (RETAIN_LOGIN_ATTEMPTS_DAYS). */
  loginAttemptDays: number;
  /** Replays of document actions by Idempotency-Key (RETAIN_IDEMPOTENCY_DAYS). */
  idempotencyDays: number;
  /** Messages once read (RETAIN_READ_MESSAGES_DAYS); unread ones stay. */
  readMessageDays: number;
  /** The audit log (RETAIN_AUDIT_DAYS). */
  auditDays: number;
  /** Export files and their jobs (RETAIN_EXPORTS_DAYS). */
  exportDays: number;
  /** Minutes between runs (HOUSEKEEPING_MINUTES); rows deleted per statement (HOUSEKEEPING_BATCH). */
  everyMinutes: number;
  batch: number;
}

export interface S3Config {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Objects under this key prefix (e.g. `ringmes/`). */
  prefix: string;
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
}

function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    endpoint: env.S3_ENDPOINT || undefined,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    prefix: env.S3_PREFIX || '',
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE !== '0' : !!env.S3_ENDPOINT,
  };
}

/** TRUST_PROXY: a hop count, or comma-separated addresses and CIDR ranges (or proxy-addr's `loopback`, …). */
export function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  const text = raw?.trim() ?? '';
  if (text === '' || text === '0') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    const [addr, bits, ...rest] = item.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(item);
    const ok =
      named || (net.isIP(addr) !== 0 && rest.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!ok)
      throw new Error(
        `环境变量 TRUST_PROXY 应为代理层数（如 1）或以逗号分隔的地址 / CIDR（如 127.0.0.1,10.0.0.0/8），当前为 "${raw}"`,
      );
  }
  return list;
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes a function trusting that many hops
 * from the socket inwards: Fastify 5 takes a bare number as "trust nothing" (it cannot check the
 * peer), so a count is for a server that only the proxies can reach.
 */
export function trustProxyOption(
  tp: Config['trustProxy'],
): false | string[] | ((addr: string, hop: number) => boolean) {
  if (tp === undefined) return false;
  if (typeof tp === 'number') return (_addr, hop) => hop < tp;
  return tp;
}

/** METRICS_ALLOW: comma-separated addresses and CIDR ranges. */
export function parseAddressList(name: string, raw: string): string[] {
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    const [addr, bits, ...rest] = item.split('/');
    const max = net.isIP(addr) === 6 ? 128 : 32;
    if (
      net.isIP(addr) === 0 ||
      rest.length ||
      (bits !== undefined && !(/^\d{1,3}$/.test(bits) && +bits <= max))
    )
      throw new Error(
        `环境变量 ${name} 应为以逗号分隔的地址 / CIDR（如 127.0.0.1,10.0.0.0/8），当前为 "${raw}"`,
      );
  }
  return list;
}

function int(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`环境变量 ${name} 必须是非负整数，当前为 "${raw}"`);
  return n;
}

/**
 * What an empty database is seeded with when SEED is not set: the demo factory under `npm start`
 * (the contract of ../shared/docs/architecture.md: `demo` on an empty database, either database);
 * in production (`npm run serve` sets NODE_ENV=production) the minimal seed, whose admin password
 * is generated.
 */
export function defaultSeed(
  config: Pick<Config, 'seed' | 'databaseUrl'>,
  env = process.env,
): 'demo' | 'minimal' | 'none' {
  return config.seed ?? (env.NODE_ENV === 'production' ? 'minimal' : 'demo');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const seed = env.SEED;
  if (seed !== undefined && seed !== '' && !['demo', 'minimal', 'none'].includes(seed)) {
    throw new Error(`环境变量 SEED 只能是 demo、minimal 或 none，当前为 "${seed}"`);
  }
  const dataDir = path.resolve(root, env.DATA_DIR || './data');
  return {
    port: int('PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReplicaUrl: env.DATABASE_REPLICA_URL || undefined,
    replicaMaxLagMs: int('DATABASE_REPLICA_MAX_LAG_MS', 2_000, env),
    seed: (seed || undefined) as Config['seed'],
    adminPassword: env.ADMIN_PASSWORD || undefined,
    timeZone: env.TZ_DISPLAY || 'Asia/Shanghai',
    exportDir: path.resolve(root, env.EXPORT_DIR || path.join(dataDir, 'exports')),
    attachmentDir: path.resolve(root, env.ATTACHMENT_DIR || path.join(dataDir, 'attachments')),
    s3: s3Config(env),
    attachmentMaxBytes: Math.max(1, int('ATTACHMENT_MAX_MB', 20)) * 1_048_576,
    webDist: path.resolve(root, env.WEB_DIST || 'apps/web/dist'),
    session: {
      idleMinutes: int('SESSION_IDLE_MINUTES', 120),
      absoluteHours: int('SESSION_ABSOLUTE_HOURS', 24),
    },
    apiSecretKey: env.API_SECRET_KEY || undefined,
    login: {
      maxFailsPerUser: int('LOGIN_MAX_FAILS_PER_USER', 5),
      maxFailsPerIp: int('LOGIN_MAX_FAILS_PER_IP', 30),
      windowMinutes: int('LOGIN_WINDOW_MINUTES', 15),
    },
    logLevel: env.LOG_LEVEL || 'info',
    pgPoolMax: int('PG_POOL_MAX', 10),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    heavyReadsPerUser: Math.max(1, int('HEAVY_READS_PER_USER', 1)),
    metrics: {
      token: env.METRICS_TOKEN || undefined,
      allow: parseAddressList('METRICS_ALLOW', env.METRICS_ALLOW || '127.0.0.1,::1'),
    },
    retention: {
      sessionDays: int('RETAIN_SESSIONS_DAYS', 30, env),
      loginAttemptDays: int('RETAIN_LOGIN_ATTEMPTS_DAYS', 90, env),
      idempotencyDays: int('RETAIN_IDEMPOTENCY_DAYS', 7, env),
      readMessageDays: int('RETAIN_READ_MESSAGES_DAYS', 180, env),
      auditDays: int('RETAIN_AUDIT_DAYS', 1095, env),
      exportDays: Math.max(1, int('RETAIN_EXPORTS_DAYS', 7, env)),
      everyMinutes: Math.max(1, int('HOUSEKEEPING_MINUTES', 60, env)),
      batch: Math.max(1, int('HOUSEKEEPING_BATCH', 5000, env)),
    },
    backup: backupConfig(env, dataDir, root),
  };
}

function backupConfig(env: NodeJS.ProcessEnv, dataDir: string, root: string): Config['backup'] {
  const at = env.BACKUP_AT;
  if (!at) return undefined;
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(at))
    throw new Error(`环境变量 BACKUP_AT 应为 HH:MM（如 02:30），当前为 "${at}"`);
  return {
    at,
    dir: path.resolve(root, env.BACKUP_DIR || path.join(dataDir, 'backups')),
    keep: Math.max(1, int('BACKUP_KEEP', 7, env)),
  };
}
