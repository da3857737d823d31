import path from 'node:path';

/** Runtime configuration, read once from the environment (architecture.md, "Two commands"). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
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

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`环境变量 ${name} 必须是非负整数，当前为 "${raw}"`);
  return n;
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
  };
}
