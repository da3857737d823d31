import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// Issue 44 §5: a client keeps a copy of a list and asks what changed since its last round.
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

async function addCustomer(code: string) {
  const r = await t.call('POST', '/api/v1/customer/add', { token, body: { code, name: `客户${code}` } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as { id: string; version: number };
}

const changes = (query: Record<string, unknown>, as = token) =>
  t.call('GET', '/api/v1/customer/changes', { token: as, query });

describe('sync: changes since a moment, with a cursor and tombstones', () => {
  it('pages the changed rows in (updated_at, id) order and names the deletions once', async () => {
    const start = (await changes({ updatedSince: '2000-01-01T00:00:00Z' })).body.result.syncFrom as string;
    // The next round starts a margin before the read: rows written just before it come again.
    const before = await sql<{ margin: number }>`
      SELECT extract(epoch FROM now() - ${start}::timestamptz)::int AS margin`.execute(t.database.db);
    expect(before.rows[0].margin).toBeGreaterThanOrEqual(59);

    // Rows written in one transaction share their updated_at: the cursor must still split them.
    const since = new Date(Date.now() - 60_000).toISOString();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await addCustomer(`SYNC${i}`));
    await sql`UPDATE customer SET updated_at = now() - interval '10 seconds' WHERE code LIKE 'SYNC%'`.execute(
      t.database.db,
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    let rounds = 0;
    let deletedFirst: unknown[] | undefined;
    do {
      const r = await changes({ updatedSince: since, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const page = r.body.result;
      deletedFirst ??= page.deleted;
      seen.push(...page.list.map((x: any) => x.code));
      cursor = page.nextCursor ?? undefined;
      expect(page.hasMore).toBe(!!page.nextCursor);
      rounds++;
    } while (cursor && rounds < 10);
    expect(rounds).toBe(3);
    expect(seen).toEqual(['SYNC0', 'SYNC1', 'SYNC2', 'SYNC3', 'SYNC4']);
    expect(deletedFirst).toEqual([]);

    // An edit moves a row to the end of the changes; a delete is a tombstone.
    const mid = new Date().toISOString();
    const edit = await t.call('PUT', `/api/v1/customer/edit/${made[1].id}`, {
      token,
      body: { name: '改名客户', version: made[1].version },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const del = await t.call('DELETE', `/api/v1/customer/delete/${made[2].id}`, { token });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const after = (await changes({ updatedSince: mid })).body.result;
    expect(after.list.map((x: any) => [x.code, x.name])).toEqual([['SYNC1', '改名客户']]);
    expect(after.deleted.map((x: any) => x.id)).toEqual([String(made[2].id)]);
    expect(Date.parse(after.deleted[0].deletedAt)).toBeGreaterThan(Date.parse(mid));
    // The page list takes the same filter.
    const page = await t.call('GET', '/api/v1/customer/page', {
      token,
      query: { updatedSince: mid, pageNum: 1, pageSize: 10 },
    });
    expect(page.body.result.list.map((x: any) => x.code)).toEqual(['SYNC1']);
  });

  it('refuses bad input in Chinese and needs the list permission', async () => {
    const bad = await changes({ updatedSince: '昨天' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('ISO 8601');
    expect((await changes({ updatedSince: '2026-01-01T00:00:00Z', cursor: 'x' })).body.message).toContain(
      '游标',
    );
    expect((await changes({ updatedSince: '2026-01-01T00:00:00Z', limit: 501 })).body.message).toContain(
      '500',
    );
    expect((await changes({})).status).toBe(400);
    const nobody = await t.userWith([]);
    expect((await changes({ updatedSince: '2026-01-01T00:00:00Z' }, nobody.token)).status).toBe(403);
    const reader = await t.userWith(['factory:customer:list']);
    expect((await changes({ updatedSince: '2026-01-01T00:00:00Z' }, reader.token)).status).toBe(200);
    expect(
      (await t.call('GET', '/api/v1/customer/changes', { query: { updatedSince: '2026-01-01T00:00:00Z' } }))
        .status,
    ).toBe(401);
  });

  it('works on every resource of the kit (each header table carries updated_at)', async () => {
    const routes = t.app.ringmesRoutes.filter((r) => r.url.endsWith('/changes'));
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const r of routes) {
      const res = await t.call('GET', r.url, {
        token,
        query: { updatedSince: '2000-01-01T00:00:00Z', limit: 1 },
      });
      if (res.status !== 200) failures.push(`${r.url} ${res.status} ${res.body.message}`);
    }
    expect(failures).toEqual([]);
  });
});
