import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { intSettingSql, SETTING_KEYS } from '../settings.ts';

export interface AuthUser {
  id: number;
  userName: string;
  firstName: string;
  deptId: number | null;
  sessionId: number;
  roleKeys: string[];
  permissions: Set<string>;
  isAdmin: boolean;
}

export const ALL = '*:*:*';

export function can(user: AuthUser, permission: string): boolean {
  return user.isAdmin || user.permissions.has(ALL) || user.permissions.has(permission);
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest();

/**
 * The channel on which every server process hears that sessions ended (`{"u":<user id>}`) or that
 * grants changed for anyone (`{}`): each drops what it cached and tells its open streams.
 */
export const SESSION_CHANNEL = 'ringmes_session';

type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
) => Promise<() => Promise<void>>;

/** A session change heard on SESSION_CHANNEL: one user's sessions, or (undefined) everyone's. */
export type SessionChange = (userId: number | undefined) => void;

/**
 * `{"u": user id, "o": origin}`: `o` names the SessionService that sent a change it had already
 * applied after its commit, so its own echo does not drop its cache a second time.
 */
const changePayload = (userId: number | undefined, origin?: string) =>
  JSON.stringify({ ...(userId === undefined ? {} : { u: userId }), ...(origin ? { o: origin } : {}) });

/**
 * Ends every session of a user but `exceptSessionId`, and tells every server process on commit
 * (SESSION_CHANNEL). For a change made without a SessionService at hand (the command line);
 * `SessionService.revokeAllForUser` also drops its own cache at once.
 */
export async function endSessionsOf(db: Db, userId: number, exceptSessionId?: number): Promise<void> {
  let q = db
    .updateTable('userSession')
    .set({ revokedAt: sql`now()` })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null);
  if (exceptSessionId) q = q.where('id', '<>', exceptSessionId);
  await q.execute();
  await sql`SELECT pg_notify(${SESSION_CHANNEL}, ${changePayload(userId)})`.execute(db);
}

function parseChange(payload: string): { userId: number | undefined; origin: string | undefined } {
  try {
    const v = JSON.parse(payload);
    return {
      userId: Number.isSafeInteger(v?.u) ? v.u : undefined,
      origin: typeof v?.o === 'string' ? v.o : undefined,
    };
  } catch {
    return { userId: undefined, origin: undefined };
  }
}

/**
 * Opaque session tokens (256 random bits), stored only as SHA-256. A session ends at logout,
 * password change, user disable, after `idleMinutes` without use and `absoluteHours` after
 * sign-in. Both timeouts are 系统设置 values (`session.idleMinutes`, `session.absoluteHours`)
 * read inside the resolving query, so a change applies to every process and to sessions already
 * open; the environment (SESSION_IDLE_MINUTES, SESSION_ABSOLUTE_HOURS) only gives the defaults.
 * Resolved sessions are cached for a few seconds; every change that can end a session or alter
 * permissions clears the cache of this process at once and NOTIFYs SESSION_CHANNEL (in the
 * change's transaction where there is one), so every process — this one too, after the commit —
 * drops its entries and ends the live streams of those sessions (`follow`, `watch`).
 */
export class SessionService {
  private cache = new Map<string, { user: AuthUser; until: number }>();
  /** Lookups under way, one per token; `generation` counts `invalidate` calls. */
  private pending = new Map<string, Promise<AuthUser | undefined>>();
  private generation = 0;
  private readonly origin = crypto.randomBytes(6).toString('base64url');
  private readonly watchers = new Set<SessionChange>();
  private unlisten?: () => Promise<void>;
  private following = false;
  private retry?: NodeJS.Timeout;
  private log: (msg: string, err?: unknown) => void = () => {};
  private static readonly CACHE_MS = 5_000;
  private static readonly RENEW_MS = 1_000;
  private static readonly TOUCH_MS = 60_000;

  constructor(
    private readonly db: Db,
    private readonly opts: { idleMinutes: number; absoluteHours: number },
  ) {}

  private idleMinutesSql() {
    return intSettingSql(SETTING_KEYS.sessionIdleMinutes, this.opts.idleMinutes);
  }

  private absoluteHoursSql() {
    return intSettingSql(SETTING_KEYS.sessionAbsoluteHours, this.opts.absoluteHours);
  }

  /** The session timeouts in force (settings over the environment's defaults). */
  async timeouts(db: Db = this.db): Promise<{ idleMinutes: number; absoluteHours: number }> {
    const r = await sql<{ idleMinutes: number; absoluteHours: number }>`
      SELECT ${this.idleMinutesSql()} AS idle_minutes, ${this.absoluteHoursSql()} AS absolute_hours`.execute(
      db,
    );
    return r.rows[0];
  }

  async create(userId: number, ip: string, userAgent: string | undefined): Promise<string> {
    const token = crypto.randomBytes(32).toString('base64url');
    await this.db
      .insertInto('userSession')
      .values({
        tokenHash: hashToken(token),
        userId,
        ip: ip.slice(0, 64),
        userAgent: userAgent?.slice(0, 300) ?? null,
        expiresAt: sql<Date>`now() + make_interval(hours => ${this.absoluteHoursSql()})`,
      })
      .execute();
    return token;
  }

  async resolve(token: string): Promise<AuthUser | undefined> {
    if (!token || token.length > 200) return undefined;
    // The cache (in memory, seconds long) is keyed by the token itself: a hit hashes nothing.
    const hit = this.cache.get(token);
    const now = Date.now();
    if (hit && hit.until > now) {
      // In its last second an entry in use is renewed beside the requests, which go on with it:
      // a token in steady use never waits for its lookup.
      if (hit.until - now < SessionService.RENEW_MS) this.renew(token).catch(() => {});
      return hit.user;
    }
    if (hit) this.cache.delete(token);
    return this.renew(token);
  }

  /**
   * The lookup of a token, one at a time: the requests arriving while it runs wait for it. Each
   * ran its own before: every 5 s the 32 requests in flight of a list load ran the session and
   * grants queries 32 times over, queued behind the pages on the pool (the tail latency of the
   * material list at 32 connections; bench auth-overhead).
   */
  private renew(token: string): Promise<AuthUser | undefined> {
    let lookup = this.pending.get(token);
    if (!lookup) {
      const started = this.lookup(token).finally(() => {
        if (this.pending.get(token) === started) this.pending.delete(token);
      });
      lookup = started;
      this.pending.set(token, lookup);
    }
    return lookup;
  }

  private async lookup(token: string): Promise<AuthUser | undefined> {
    const generation = this.generation;
    const key = hashToken(token);

    const row = await this.db
      .selectFrom('userSession as s')
      .innerJoin('appUser as u', 'u.id', 's.userId')
      .select(['s.id as sessionId', 's.lastSeenAt', 'u.id', 'u.userName', 'u.firstName', 'u.deptId'])
      .where('s.tokenHash', '=', key)
      .where('s.revokedAt', 'is', null)
      .where('s.expiresAt', '>', sql<Date>`now()`)
      // A shortened absolute timeout also ends sessions opened before the change.
      .where('s.createdAt', '>', sql<Date>`now() - make_interval(hours => ${this.absoluteHoursSql()})`)
      .where('s.lastSeenAt', '>', sql<Date>`now() - make_interval(mins => ${this.idleMinutesSql()})`)
      .where('u.status', '=', '1')
      .executeTakeFirst();
    if (!row) {
      // Ended since it was cached (a renewal ahead of time): not served any longer.
      this.cache.delete(token);
      return undefined;
    }

    if (Date.now() - new Date(row.lastSeenAt).getTime() > SessionService.TOUCH_MS) {
      await this.db
        .updateTable('userSession')
        .set({ lastSeenAt: sql`now()` })
        .where('id', '=', row.sessionId)
        .execute();
    }
    const { roleKeys, permissions } = await this.grants(row.id);
    const user: AuthUser = {
      id: row.id,
      userName: row.userName,
      firstName: row.firstName,
      deptId: row.deptId,
      sessionId: row.sessionId,
      roleKeys,
      permissions,
      isAdmin: roleKeys.includes('admin') || permissions.has(ALL),
    };
    // A lookup that an invalidation overtook answers its own requests but is not kept.
    if (generation !== this.generation) return user;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { user, until: Date.now() + SessionService.CACHE_MS });
    return user;
  }

  /** Role keys and the permission strings of every menu node the user's enabled roles grant. */
  async grants(userId: number, db: Db = this.db): Promise<{ roleKeys: string[]; permissions: Set<string> }> {
    const rows = await sql<{ roleKey: string; perm: string | null }>`
      SELECT r.role_key, m.menu_permissions AS perm
        FROM user_role ur
        JOIN role r ON r.id = ur.role_id AND r.status = '1'
        LEFT JOIN role_menu rm ON rm.role_id = r.id
        LEFT JOIN menu m ON m.id = rm.menu_id AND m.menu_permissions IS NOT NULL AND m.menu_permissions <> ''
       WHERE ur.user_id = ${userId}`.execute(db);
    const roleKeys = [...new Set(rows.rows.map((r) => r.roleKey))];
    const permissions = new Set(rows.rows.map((r) => r.perm).filter((p): p is string => !!p));
    return { roleKeys, permissions };
  }

  /** Ends one session (logout), here at once and in every process on the notification. */
  async revoke(token: string): Promise<void> {
    // Out of the cache first: the notification can come back before this call goes on (PGlite
    // hands it over with the statement's answer), and the streams it wakes resolve the token.
    this.cache.delete(token);
    const r = await sql<{ userId: number }>`
      WITH ended AS (
        UPDATE user_session SET revoked_at = now()
         WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL
        RETURNING user_id)
      SELECT user_id, pg_notify(${SESSION_CHANNEL}, json_build_object('u', user_id, 'o', ${this.origin}::text)::text)
        FROM ended`.execute(this.db);
    const userId = r.rows[0]?.userId;
    if (userId !== undefined) this.drop(userId);
  }

  /**
   * Ends every session of a user (password change, disable, delete). Run inside the change's
   * transaction: the notification goes out with its commit, and drops this process's entries
   * again then (a lookup between this drop and the commit read the session still open).
   */
  async revokeAllForUser(db: Db, userId: number, exceptSessionId?: number): Promise<void> {
    await endSessionsOf(db, userId, exceptSessionId);
    this.drop(userId);
  }

  /**
   * Grants or users changed (after the change's commit): every cached session is dropped here,
   * and in every other process on the notification.
   */
  invalidate(): void {
    this.drop(undefined);
    sql`SELECT pg_notify(${SESSION_CHANNEL}, ${changePayload(undefined, this.origin)})`
      .execute(this.db)
      .catch((err) => this.log('会话变更通知发送失败', err));
  }

  /** Forgets the cached sessions of a user (undefined: of everyone); lookups under way are not kept. */
  private drop(userId: number | undefined): void {
    if (userId === undefined) this.cache.clear();
    else for (const [token, hit] of this.cache) if (hit.user.id === userId) this.cache.delete(token);
    this.pending.clear();
    this.generation++;
  }

  /**
   * Listens on SESSION_CHANNEL for the session changes of every process, this one included. A
   * failed start is retried every 5 s in the background (meanwhile another process's change is
   * seen when the cache entry runs out, within 5 s); after a lost connection everything is dropped,
   * since changes may have been missed.
   */
  async follow(listen: Listen, log: (msg: string, err?: unknown) => void): Promise<void> {
    this.log = log;
    this.following = true;
    const heard = (userId: number | undefined, origin?: string) => {
      if (origin !== this.origin) this.drop(userId);
      for (const w of this.watchers) w(userId);
    };
    try {
      const stop = await listen(
        SESSION_CHANNEL,
        (payload) => {
          const change = parseChange(payload);
          heard(change.userId, change.origin);
        },
        () => heard(undefined),
      );
      if (this.following) this.unlisten = stop;
      else await stop();
    } catch (err) {
      log('会话变更通知监听失败，5 秒后重试', err);
      if (!this.following) return;
      this.retry = setTimeout(() => void this.follow(listen, log), 5_000);
      this.retry.unref();
    }
  }

  /** Stops listening (server shutdown). */
  async unfollow(): Promise<void> {
    this.following = false;
    if (this.retry) clearTimeout(this.retry);
    const stop = this.unlisten;
    this.unlisten = undefined;
    await stop?.();
  }

  /**
   * Calls `fn` on every session change heard (a user's id, or undefined for everyone), after the
   * cache has dropped it: a live stream resolves its session again and ends when it is gone.
   * Answers the function that stops watching.
   */
  watch(fn: SessionChange): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }
}
