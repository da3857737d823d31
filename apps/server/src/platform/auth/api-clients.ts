import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { audit } from '../audit.ts';
import type { Db } from '../db/db.ts';
import { type AppError, forbidden, tooMany, unauthenticated } from '../errors.ts';
import type { AuthUser, SessionService } from './sessions.ts';

/** Signed calls older (or newer) than this are refused. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
/** Header names of a signed call (docs/api.md). */
export const APP_KEY_HEADER = 'x-app-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw JSON body of a signed call, as the signature covers it. */
    rawBody?: string;
  }
}

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest();

/** The string a client signs: method, path with query, timestamp and the body's SHA-256 (hex), one per line. */
export function stringToSign(method: string, url: string, timestamp: string, body: string | Buffer): string {
  return `${method.toUpperCase()}\n${url}\n${timestamp}\n${sha256(body).toString('hex')}`;
}

/**
 * Encrypts and decrypts app secrets with AES-256-GCM. The key is derived (HKDF-SHA256) from
 * API_SECRET_KEY, or from a random key file in DATA_DIR made on first use.
 */
export class SecretBox {
  private key?: Buffer;
  constructor(private readonly config: Pick<Config, 'apiSecretKey' | 'dataDir'>) {}

  private material(): Buffer {
    if (this.config.apiSecretKey) return Buffer.from(this.config.apiSecretKey, 'utf8');
    const file = path.join(this.config.dataDir, 'api-secret.key');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(this.config.dataDir, { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch (e: any) {
        if (e.code !== 'EEXIST') throw e;
      }
    }
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
  }

  private derived(): Buffer {
    this.key ??= Buffer.from(
      crypto.hkdfSync('sha256', this.material(), 'ringmes', 'api-client-secret', 32) as ArrayBuffer,
    );
    return this.key;
  }

  seal(secret: string): { secretEnc: Buffer; secretHash: Buffer } {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.derived(), iv);
    const enc = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { secretEnc: Buffer.concat([iv, cipher.getAuthTag(), enc]), secretHash: sha256(secret) };
  }

  /** The secret, or undefined when it cannot be decrypted (the server key changed). */
  open(secretEnc: Buffer, secretHash: Buffer): string | undefined {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.derived(), secretEnc.subarray(0, 12));
      decipher.setAuthTag(secretEnc.subarray(12, 28));
      const secret = Buffer.concat([decipher.update(secretEnc.subarray(28)), decipher.final()]).toString(
        'utf8',
      );
      return sha256(secret).equals(secretHash) ? secret : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A new key pair: the key names the client in every call, the secret signs. */
export function newCredentials(): { appKey: string; secret: string } {
  return {
    appKey: `ak_${crypto.randomBytes(12).toString('hex')}`,
    secret: crypto.randomBytes(32).toString('base64url'),
  };
}

/** An address as compared with the allow-list (IPv4-mapped IPv6 as plain IPv4). */
export function plainIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

/** Whether an allow-list entry is an address or a CIDR range. */
export function validIpEntry(entry: string): boolean {
  const [addr, bits, extra] = entry.split('/');
  const kind = net.isIP(addr);
  if (!kind || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (kind === 4 ? 32 : 128);
}

export function ipAllowed(allow: readonly string[], ip: string): boolean {
  if (!allow.length) return true;
  const list = new net.BlockList();
  for (const entry of allow) {
    const [addr, bits] = entry.split('/');
    const type = net.isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  const addr = plainIp(ip);
  const kind = net.isIP(addr);
  return kind !== 0 && list.check(addr, kind === 6 ? 'ipv6' : 'ipv4');
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v.trim() : undefined;
};

interface ClientRow {
  id: number;
  name: string;
  appKey: string;
  secretEnc: Buffer;
  secretHash: Buffer;
  scopes: string[];
  ipAllow: string[];
  expiresAt: Date | null;
  rateLimit: number;
  status: string;
  createdBy: number;
  deptId: number | null;
  userStatus: string;
}

/**
 * Authenticates a signed call (X-App-Key, X-Timestamp, X-Signature) and returns the user it acts
 * as: the app's creator narrowed to the app's scopes (those the creator still holds), never an
 * administrator. Refusals: 401 (unknown key, disabled or expired app, stale timestamp, bad
 * signature, replay), 403 (address not allowed), 429 (over the per-minute limit). Every call
 * of a known app, refused or not, leaves an audit row.
 */
export async function authenticateSignedCall(
  db: Db,
  box: SecretBox,
  sessions: SessionService,
  req: FastifyRequest,
): Promise<AuthUser> {
  const appKey = header(req, APP_KEY_HEADER);
  const timestamp = header(req, 'x-timestamp');
  const signature = header(req, 'x-signature')?.toLowerCase();
  if (!appKey || !timestamp || !signature) {
    throw unauthenticated('签名调用缺少请求头 X-App-Key、X-Timestamp 或 X-Signature');
  }
  const row = (await db
    .selectFrom('apiClient as c')
    .innerJoin('appUser as u', 'u.id', 'c.createdBy')
    .select([
      'c.id',
      'c.name',
      'c.appKey',
      'c.secretEnc',
      'c.secretHash',
      'c.scopes',
      'c.ipAllow',
      'c.expiresAt',
      'c.rateLimit',
      'c.status',
      'c.createdBy',
      'u.deptId',
      'u.status as userStatus',
    ])
    .where('c.appKey', '=', appKey.slice(0, 40))
    .executeTakeFirst()) as ClientRow | undefined;
  if (!row) throw unauthenticated('应用密钥（X-App-Key）无效');

  const url = req.url;
  const ip = plainIp(req.ip ?? '');
  const agent: AuthUser = {
    id: row.createdBy,
    userName: row.appKey,
    firstName: row.name,
    deptId: row.deptId,
    sessionId: 0,
    roleKeys: [],
    permissions: new Set(),
    isAdmin: false,
  };
  const refuse = async (e: AppError) => {
    await audit(
      db,
      agent,
      {
        entity: 'apiClient',
        entityId: row.id,
        action: 'call-refused',
        after: { method: req.method, url: url.slice(0, 500), ip, status: e.status, reason: e.message },
      },
      req.id,
    );
    return e;
  };

  if (row.status !== '1') throw await refuse(unauthenticated('应用已停用'));
  if (row.userStatus !== '1') throw await refuse(unauthenticated('应用的创建人已停用'));
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= Date.now()) {
    throw await refuse(unauthenticated('应用已过期'));
  }
  if (!ipAllowed(row.ipAllow, ip)) throw await refuse(forbidden(`来源 IP ${ip} 不在应用的允许列表中`));
  const ts = /^\d{10,13}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  // Seconds or milliseconds since the epoch.
  const ms = ts < 1e12 ? ts * 1000 : ts;
  if (!Number.isFinite(ms) || Math.abs(Date.now() - ms) > SIGNATURE_WINDOW_MS) {
    throw await refuse(unauthenticated('请求时间戳（X-Timestamp）无效或与服务器时间相差超过 5 分钟'));
  }
  const secret = box.open(row.secretEnc, row.secretHash);
  const body = req.rawBody ?? (Buffer.isBuffer(req.body) ? req.body : '');
  const expected = secret
    ? crypto
        .createHmac('sha256', secret)
        .update(stringToSign(req.method, url, timestamp, body))
        .digest()
    : undefined;
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : undefined;
  if (!expected || !given || !crypto.timingSafeEqual(expected, given)) {
    throw await refuse(unauthenticated('签名（X-Signature）无效'));
  }

  // Replays: the signature is recorded; a second call with it is refused. The rows of the last
  // minute are the rate-limit count.
  await sql`DELETE FROM api_client_call WHERE client_id = ${row.id} AND at < now() - interval '10 minutes'`.execute(
    db,
  );
  const fresh = await sql`
    INSERT INTO api_client_call (client_id, signature) VALUES (${row.id}, ${signature})
    ON CONFLICT DO NOTHING RETURNING 1`.execute(db);
  if (!fresh.rows.length) throw await refuse(unauthenticated('重复的请求：该签名已使用过'));
  const count = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM api_client_call WHERE client_id = ${row.id} AND at > now() - interval '1 minute'`.execute(
    db,
  );
  if (count.rows[0].n > row.rateLimit) {
    throw await refuse(tooMany(`调用过于频繁：该应用每分钟最多 ${row.rateLimit} 次`));
  }

  // The scopes the creator still holds (an administrator creator holds them all).
  const { roleKeys, permissions } = await sessions.grants(row.createdBy, db);
  const creatorIsAdmin = roleKeys.includes('admin') || permissions.has('*:*:*');
  agent.permissions = new Set(row.scopes.filter((p) => creatorIsAdmin || permissions.has(p)));
  await db.updateTable('apiClient').set({ lastUsedAt: sql`now()` }).where('id', '=', row.id).execute();
  await audit(
    db,
    agent,
    {
      entity: 'apiClient',
      entityId: row.id,
      action: 'call',
      after: { method: req.method, url: url.slice(0, 500), ip },
    },
    req.id,
  );
  return agent;
}
