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

/**
 * Limits the heavy reads of a server process. One user has at most `perUser` in flight (queued
 * included): more are refused with 429 at once — 24 concurrent `listAll` of 3,200 work reports by
 * one operator took the others' postings from p50 4 ms to 5.6 s. And all users together run at
 * most `slots` at a time (the pool's size less two on PostgreSQL), the others waiting their turn
 * (503 after `waitMs`), so the requests that write always find a connection.
 */
export class HeavyReads {
  private readonly perUserCount = new Map<string, number>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly perUser: number,
    readonly slots: number,
    private readonly waitMs = 30_000,
  ) {}

  /** Takes a heavy read for `who` (a user; undefined: no per-user limit); answers its release. */
  async enter(who: string | undefined): Promise<() => void> {
    if (who !== undefined) {
      const n = this.perUserCount.get(who) ?? 0;
      if (n >= this.perUser) throw tooMany(TOO_MANY_HEAVY_READS);
      this.perUserCount.set(who, n + 1);
    }
    try {
      await this.slot();
    } catch (err) {
      this.leave(who);
      throw err;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.leave(who);
      this.running--;
      this.waiting.shift()?.();
    };
  }

  /** Heavy reads running and waiting (tests and the bench). */
  stats(): { running: number; waiting: number; users: number } {
    return { running: this.running, waiting: this.waiting.length, users: this.perUserCount.size };
  }

  private leave(who: string | undefined) {
    if (who === undefined) return;
    const n = (this.perUserCount.get(who) ?? 1) - 1;
    if (n > 0) this.perUserCount.set(who, n);
    else this.perUserCount.delete(who);
  }

  private slot(): Promise<void> {
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        this.running++;
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(unavailable('系统繁忙，请稍后重试'));
      }, this.waitMs);
      this.waiting.push(go);
    });
  }
}
