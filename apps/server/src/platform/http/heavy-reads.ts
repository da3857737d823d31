import { tooMany, unavailable } from '../errors.ts';

/**
 * GET routes that read every row or a whole range: `…/listAll` and `getAllUser`, Excel exports
 * (`…/export`, `…/differenceExport/:id`), the reports (生产报表, 财务报表, 统计报表, 账龄, 对账单,
 * 工资表, SPC). A route can say so itself (`RouteSpec.heavy`); `pageNum=0` makes any read heavy.
 */
const HEAVY_URL =
  /\/(listAll|getAllUser)$|\/\w*[eE]xport(\/|$)|\/(production|finance)-report\/|\/(report|aging|statement)(\/|$)|\/process-wage\/sheet|\/spc\//;

export const isHeavyUrl = (method: string, url: string) => method === 'GET' && HEAVY_URL.test(url);

/** A read of every row (`pageNum=0`, the spec's "all records"). */
export function asksAllRows(query: unknown): boolean {
  const pageNum = (query as Record<string, unknown> | undefined)?.pageNum;
  return (
    (typeof pageNum === 'string' || typeof pageNum === 'number') &&
    String(pageNum).trim() !== '' &&
    Number(pageNum) === 0
  );
}

export const TOO_MANY_HEAVY_READS = '您的查询请求过多，请稍后再试';

/** Heavy reads of one user that wait for one of his places before the next is refused. */
export const PER_USER_QUEUE = 4;
/** How long a heavy read's next step waits at most for the other requests in flight. */
export const GIVE_WAY_MS = 50;
/**
 * A refusal is answered after this long: a client that sends each refused read again at once
 * (24 loops of listAll) otherwise keeps the event loop busy with refusals, thousands a second.
 */
export const REFUSAL_DELAY_MS = 1_000;

interface UserReads {
  running: number;
  waiting: (() => void)[];
}

/**
 * Limits the heavy reads of a server process; 24 concurrent `listAll` of 3,200 work reports by one
 * operator took the others' postings from milliseconds to seconds (bench heavy-reads).
 * - One user runs at most `perUser` at a time; up to PER_USER_QUEUE more wait their turn (a page
 *   that loads three trees at once), and beyond that the user is refused with 429 (answered after
 *   REFUSAL_DELAY_MS, so a client retrying at once cannot flood the process with refusals).
 * - All users together run at most `slots` (the pool's size less two on PostgreSQL): the requests
 *   that write always find a connection. The others wait, 503 after `waitMs`.
 * - A heavy read gives way: before its query and before each slice of its answer it waits (up to
 *   GIVE_WAY_MS) until no other request of this process is under way (`light`), so a posting's
 *   steps are not queued behind the serializing of thousands of rows on the one event loop.
 */
export class HeavyReads {
  private readonly users = new Map<string, UserReads>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Other (light) requests under way in this process. */
  private light = 0;
  private readonly clear: (() => void)[] = [];

  constructor(
    readonly perUser: number,
    readonly slots: number,
    private readonly waitMs = 30_000,
    private readonly refusalDelayMs = REFUSAL_DELAY_MS,
  ) {}

  /** Takes a heavy read for `who` (a user; undefined: no per-user limit); answers its release. */
  async enter(who: string | undefined): Promise<() => void> {
    const user = who === undefined ? undefined : this.userFor(who);
    if (user) {
      if (user.running + user.waiting.length >= this.perUser + PER_USER_QUEUE) {
        await new Promise((resolve) => setTimeout(resolve, this.refusalDelayMs));
        throw tooMany(TOO_MANY_HEAVY_READS);
      }
      if (user.running >= this.perUser) {
        try {
          await this.wait(user.waiting);
        } catch (err) {
          this.forget(who as string, user);
          throw err;
        }
      } else user.running++;
    }
    try {
      if (this.running < this.slots) this.running++;
      else await this.wait(this.waiting);
    } catch (err) {
      if (user) this.leave(who as string, user);
      throw err;
    }
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      if (user) this.leave(who as string, user);
      // The place passes to the next in line (still counted as running), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
    await this.giveWay();
    return release;
  }

  /** Waits (up to GIVE_WAY_MS) until no light request is under way; always yields a turn. */
  giveWay(): Promise<void> {
    if (this.light === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.clear.indexOf(go);
        if (i >= 0) this.clear.splice(i, 1);
        resolve();
      }, GIVE_WAY_MS);
      this.clear.push(go);
    });
  }

  /** A light (not heavy) request starts; `lightEnded` when it is answered. */
  lightStarted(): void {
    this.light++;
  }

  lightEnded(): void {
    this.light--;
    if (this.light === 0) for (const go of this.clear.splice(0)) go();
  }

  /** Heavy reads running and waiting, users with heavy reads (tests and the bench). */
  stats(): { running: number; waiting: number; users: number } {
    let queued = this.waiting.length;
    for (const u of this.users.values()) queued += u.waiting.length;
    return { running: this.running, waiting: queued, users: this.users.size };
  }

  private userFor(who: string): UserReads {
    let u = this.users.get(who);
    if (!u) {
      u = { running: 0, waiting: [] };
      this.users.set(who, u);
    }
    return u;
  }

  /** One of the user's places is given back: to his next in line, or freed. */
  private leave(who: string, user: UserReads) {
    const next = user.waiting.shift();
    if (next) return next();
    user.running--;
    this.forget(who, user);
  }

  private forget(who: string, user: UserReads) {
    if (!user.running && !user.waiting.length) this.users.delete(who);
  }

  /** Waits in `line` until called (a place handed over), or rejects with 503 after `waitMs`. */
  private wait(line: (() => void)[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = line.indexOf(go);
        if (i >= 0) line.splice(i, 1);
        reject(unavailable('系统繁忙，请稍后重试'));
      }, this.waitMs);
      line.push(go);
    });
  }
}
