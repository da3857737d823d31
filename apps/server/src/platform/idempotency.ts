import { sql } from 'kysely';
import type { Db } from './db/db.ts';
import { badRequest } from './errors.ts';

/**
 * Runs a document action once per `Idempotency-Key`. The key row is inserted first inside the
 * action's transaction: a concurrent request with the same key waits on it, then finds it and
 * answers the stored result; if the first attempt fails, its key row rolls back with it and a
 * retry runs the action afresh. `serialize` turns the result into the exact JSON sent.
 */
export async function once<T>(
  db: Db,
  scope: string,
  key: string | undefined,
  serialize: (v: unknown) => string,
  action: () => Promise<T>,
): Promise<unknown> {
  if (key === undefined) return action();
  if (!/^[\w.:-]{1,200}$/.test(key))
    throw badRequest('Idempotency-Key 只能包含字母、数字和 _ . : -，最长 200 个字符');
  const mine = await sql`
    INSERT INTO idempotency_key (scope, key, status_code, response) VALUES (${scope}, ${key}, 0, '')
    ON CONFLICT (scope, key) DO NOTHING RETURNING key`.execute(db);
  if (!mine.rows.length) {
    const stored = await sql<{
      response: string;
    }>`SELECT response FROM idempotency_key WHERE scope = ${scope} AND key = ${key}`.execute(db);
    return JSON.parse(stored.rows[0].response);
  }
  const text = serialize(await action());
  await sql`UPDATE idempotency_key SET status_code = 200, response = ${text} WHERE scope = ${scope} AND key = ${key}`.execute(
    db,
  );
  return JSON.parse(text);
}

/** Retries a transaction a few times on serialization failures and deadlocks. */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err: any) {
      if (i >= attempts || !['40001', '40P01'].includes(err?.code)) throw err;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
    }
  }
}
