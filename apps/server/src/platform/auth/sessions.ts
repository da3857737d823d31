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
 * Opaque session tokens (256 random bits), stored only as SHA-256. A session ends at logout,
 * password change, user disable, after `idleMinutes` without use and `absoluteHours` after
 * sign-in. Both timeouts are 系统设置 values (`session.idleMinutes`, `session.absoluteHours`)
 * read inside the resolving query, so a change applies to every process and to sessions already
 * open; the environment (SESSION_IDLE_MINUTES, SESSION_ABSOLUTE_HOURS) only gives the defaults. Resolved sessions are cached for a few seconds; every change that can end a session
 * or alter permissions clears the cache (`invalidate`).
 */
export class SessionService {
  private cache = new Map<string, { user: AuthUser; until: number }>();
  /** Lookups under way, one per token; `generation` counts `invalidate` calls. */
  private pending = new Map<string, Promise<AuthUser | undefined>>();
  private generation = 0;
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
   * grants queries 32 times over, queued behind the pages on the pool (material list at 32
   * connections: p99 2.6 × the bare handler's).
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

  async revoke(token: string): Promise<void> {
    await this.db
      .updateTable('userSession')
      .set({ revokedAt: sql`now()` })
      .where('tokenHash', '=', hashToken(token))
      .where('revokedAt', 'is', null)
      .execute();
    this.invalidate();
  }

  /** Ends every session of a user (password change, disable, delete). Run inside the change's transaction. */
  async revokeAllForUser(db: Db, userId: number, exceptSessionId?: number): Promise<void> {
    let q = db
      .updateTable('userSession')
      .set({ revokedAt: sql`now()` })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null);
    if (exceptSessionId) q = q.where('id', '<>', exceptSessionId);
    await q.execute();
    this.invalidate();
  }

  invalidate(): void {
    this.cache.clear();
    this.pending.clear();
    this.generation++;
  }
}
