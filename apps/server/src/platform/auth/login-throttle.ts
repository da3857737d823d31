import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { tooMany } from '../errors.ts';
import { typicalCheckMs } from './password.ts';

export interface ThrottleLimits {
  /** Password checks per account and address in a window. */
  maxFailsPerUser: number;
  /** Failed sign-ins per address in a window, whatever the account. */
  maxFailsPerIp: number;
  windowMinutes: number;
}

/** Back-off between two checks of an account under attack, from an address it never signed in from. */
const FIRST_BACKOFF_SECONDS = 5;
const MAX_BACKOFF_SECONDS = 60;

/**
 * Sign-in limits (ASVS 2.2.1: no brute force, no lockout of someone else's account). Every
 * counter is incremented atomically before the password is verified, so parallel bursts get no
 * more checks than the limit:
 * - per account and address: `maxFailsPerUser` checks per window; a success clears it;
 * - per address: `maxFailsPerIp` failed attempts per window (a success is given back); past it,
 *   only accounts without a failure from that address in the window are checked (see `admit`);
 * - per account, from addresses it has not signed in from during the last 30 days: past
 *   `maxFailsPerUser` failed attempts in the window, one check per back-off interval (5 s,
 *   doubling per further attempt, at most 60 s). The owner from a known address is never slowed, and from a
 *   new one is let through after the back-off instead of being locked out.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly limits: ThrottleLimits,
  ) {}

  /**
   * Counts one password check; throws 429 when a limit is reached. `exists`: the name is an
   * account. Answers what to refuse a wrong password with instead of 401 (undefined: 401): from an
   * address over its limit, the same 429 as every other refusal there.
   */
  async admit(
    userName: string,
    ip: string,
    knownAddress: boolean,
    exists = true,
  ): Promise<string | undefined> {
    const { maxFailsPerUser, maxFailsPerIp, windowMinutes } = this.limits;
    const account = userName.trim().toLowerCase();
    const keys = { pair: pairKey(account, ip), addr: `addr:${ip}`, acct: `acct:${account}` };
    const rows = await sql<{ key: string; attempts: number; retryMinutes: number }>`
      INSERT INTO login_throttle AS t (key, window_start, attempts)
      VALUES (${keys.pair}, now(), 1), (${keys.addr}, now(), 1), (${keys.acct}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN t.window_start > now() - make_interval(mins => ${windowMinutes})
                        THEN t.attempts + 1 ELSE 1 END,
        next_at = CASE WHEN t.window_start > now() - make_interval(mins => ${windowMinutes})
                       THEN t.next_at END,
        window_start = CASE WHEN t.window_start > now() - make_interval(mins => ${windowMinutes})
                            THEN t.window_start ELSE now() END
      RETURNING key, attempts,
        -- A window opened by a concurrent request that committed after this one began starts
        -- later than this transaction's now(): never answer more than the window itself.
        least(${windowMinutes}, greatest(1, ceil(extract(epoch FROM window_start + make_interval(mins => ${windowMinutes}) - now()) / 60)))::int
          AS retry_minutes`.execute(this.db);
    const by = new Map(rows.rows.map((r) => [r.key, r]));
    const addr = by.get(keys.addr);
    const pair = by.get(keys.pair);
    const acct = by.get(keys.acct);
    let wrongPassword: string | undefined;
    if (addr && addr.attempts > maxFailsPerIp) {
      // The address is over its limit (30 made-up names from one office's NAT reached it), yet an
      // account with no failure from it in the window still gets its password checked: whoever
      // guesses from there cannot lock its other users out (ASVS 2.2.1), and gets one check per
      // account and window. Unknown names and names already failing are refused, after as long as
      // a check takes; a wrong password gets the same 429, so no answer tells which names exist.
      const refusal = `登录尝试过于频繁，请 ${addr.retryMinutes} 分钟后再试`;
      if (!exists || !pair || pair.attempts > 1) {
        await new Promise((resolve) => setTimeout(resolve, typicalCheckMs()));
        throw tooMany(refusal);
      }
      wrongPassword = refusal;
    }
    if (pair && pair.attempts > maxFailsPerUser)
      throw tooMany(`登录失败次数过多，请 ${pair.retryMinutes} 分钟后再试`);
    if (knownAddress || !acct || acct.attempts <= maxFailsPerUser) return wrongPassword;
    const backoff = Math.min(
      MAX_BACKOFF_SECONDS,
      FIRST_BACKOFF_SECONDS * 2 ** Math.min(acct.attempts - maxFailsPerUser - 1, 10),
    );
    const slot = await sql<{ waitSeconds: number | null }>`
      WITH claimed AS (
        UPDATE login_throttle SET next_at = now() + make_interval(secs => ${backoff})
         WHERE key = ${keys.acct} AND (next_at IS NULL OR next_at <= now())
        RETURNING key)
      SELECT CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN NULL
                  ELSE greatest(1, ceil(extract(epoch FROM next_at - now())))::int END AS wait_seconds
        FROM login_throttle WHERE key = ${keys.acct}`.execute(this.db);
    const wait = slot.rows[0]?.waitSeconds;
    if (wait) throw tooMany(`该账号登录失败次数较多，请 ${wait} 秒后再试`);
    return wrongPassword;
  }

  /**
   * A correct password: the account-and-address counter starts again; the address and the
   * account get this attempt back, so those counters hold failures (and checks in flight) only.
   */
  async succeeded(userName: string, ip: string): Promise<void> {
    const account = userName.trim().toLowerCase();
    await sql`
      WITH gone AS (DELETE FROM login_throttle WHERE key = ${pairKey(account, ip)})
      UPDATE login_throttle SET attempts = greatest(attempts - 1, 0)
       WHERE key IN (${`addr:${ip}`}, ${`acct:${account}`})`.execute(this.db);
  }
}

const pairKey = (account: string, ip: string) => `pair:${account}|${ip}`.slice(0, 200);
