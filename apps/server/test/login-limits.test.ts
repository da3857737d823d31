import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../src/config.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.ts';

// Issue 9 §2: the sign-in limits hold under parallel bursts, and nobody can lock someone else out.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ login: { maxFailsPerUser: 5, maxFailsPerIp: 30, windowMinutes: 15 } });
  const admin = await t.login('admin', ADMIN_PASSWORD);
  for (const userName of ['burst', 'spread', 'victim', 'owner', 'clerk', 'typist'])
    await t.call('POST', '/api/v1/user/newAddUser', {
      token: admin,
      body: { userName, firstName: '限流', passWord: 'Right-horse-8' },
    });
});
afterAll(() => t.close());

const login = (userName: string, passWord: string, ip: string) =>
  t.app
    .inject({
      method: 'POST',
      url: '/api/v1/sso/login',
      payload: { userName, passWord, source: 'mes' },
      remoteAddress: ip,
    })
    .then((r) => ({ status: r.statusCode, body: r.json() }));
const statuses = (answers: { status: number }[]) => {
  const n: Record<number, number> = {};
  for (const r of answers) n[r.status] = (n[r.status] ?? 0) + 1;
  return n;
};

describe('login rate limit under concurrency', () => {
  it('verifies at most 5 passwords of an account from one address, however many arrive at once', async () => {
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login('burst', `guess-${i}`, '10.5.0.1')),
    );
    expect(statuses(burst)).toEqual({ 401: 5, 429: 55 });
    // Checks 6–30 meet the account-and-address limit, 31–60 the address limit (30 here).
    const messages: Record<string, number> = {};
    for (const r of burst.filter((r) => r.status === 429))
      messages[r.body.message] = (messages[r.body.message] ?? 0) + 1;
    expect(messages).toEqual({
      '登录失败次数过多，请 15 分钟后再试': 25,
      '登录尝试过于频繁，请 15 分钟后再试': 30,
    });
    // The right password from that address waits for the window too.
    expect((await login('burst', 'Right-horse-8', '10.5.0.1')).status).toBe(429);
  });

  it('verifies about 5 passwords of an account from many new addresses at once, then one per back-off', async () => {
    const started = Date.now();
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login('spread', `guess-${i}`, `10.6.0.${i}`)),
    );
    const n = statuses(burst);
    // 5, then one per back-off slot (the first lasts 5 s).
    expect(n[401]).toBe(Date.now() - started < 5_000 ? 6 : 7);
    expect(n[429]).toBe(60 - n[401]);
    expect(burst.find((r) => r.status === 429 && /秒后再试/.test(r.body.message))).toBeDefined();
  });
});

describe('no lockout of someone else', () => {
  it('failures from one address lock only that address out of the account', async () => {
    for (let i = 0; i < 5; i++) expect((await login('victim', `bad-${i}`, '10.7.0.1')).status).toBe(401);
    expect((await login('victim', 'Right-horse-8', '10.7.0.1')).status).toBe(429);
    // The owner, elsewhere, signs in.
    expect((await login('victim', 'Right-horse-8', '10.7.0.2')).status).toBe(200);
  });

  it('an account attacked from many addresses: the owner signs in at once from a known address, after a back-off from a new one', async () => {
    expect((await login('owner', 'Right-horse-8', '10.8.0.1')).status).toBe(200); // the office PC
    const attack = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login('owner', `bad-${i}`, `10.9.0.${i}`)),
    );
    expect(statuses(attack)[401]).toBeLessThanOrEqual(6);
    expect((await login('owner', 'Right-horse-8', '10.8.0.1')).status).toBe(200);
    const away = await login('owner', 'Right-horse-8', '10.8.0.2');
    expect(away).toMatchObject({
      status: 429,
      body: { message: expect.stringMatching(/^该账号登录失败次数较多，请 \d+ 秒后再试$/) },
    });
    // The back-off passes (as if its seconds had gone by): the right password gets in.
    await sql`UPDATE login_throttle SET next_at = now() WHERE key = 'acct:owner'`.execute(t.database.db);
    expect((await login('owner', 'Right-horse-8', '10.8.0.2')).status).toBe(200);
  });

  it('keeps a limit per address across accounts, which locks no account without failures out (issue 34 §3)', async () => {
    // 30 made-up names from one address (an office behind one NAT): the address is over its limit.
    for (let i = 0; i < 30; i++) expect((await login(`nobody${i}`, 'bad', '10.10.0.1')).status).toBe(401);
    const refused = { status: 429, body: { code: '429', message: '登录尝试过于频繁，请 15 分钟后再试' } };
    expect(await login('nobody30', 'bad', '10.10.0.1')).toMatchObject(refused);
    expect(await login('nobody3', 'bad', '10.10.0.1')).toMatchObject(refused);
    // An account with no failure from there still signs in with its password: the admin, a clerk.
    expect((await login('admin', ADMIN_PASSWORD, '10.10.0.1')).status).toBe(200);
    expect((await login('admin', ADMIN_PASSWORD, '10.10.0.1')).status).toBe(200);
    // A guess at an account is checked once: wrong, it answers like an unknown name, then that
    // account is refused from this address for the window.
    expect(await login('clerk', 'wrong', '10.10.0.1')).toMatchObject(refused);
    expect(await login('clerk', 'Right-horse-8', '10.10.0.1')).toMatchObject(refused);
    expect((await login('clerk', 'Right-horse-8', '10.10.0.3')).status).toBe(200);
    expect((await login('admin', ADMIN_PASSWORD, '10.10.0.2')).status).toBe(200);
  });

  it('answers a refused unknown name no faster than a checked password', async () => {
    for (let i = 0; i < 30; i++) await login(`ghost${i}`, 'bad', '10.11.0.1');
    const timed = async (userName: string, passWord: string) => {
      const started = performance.now();
      const r = await login(userName, passWord, '10.11.0.1');
      expect(r.status).toBe(429);
      return performance.now() - started;
    };
    // Medians of interleaved samples: one sample of each swung 4× on a loaded machine.
    const checked: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      checked.push(await timed('typist', 'wrong-one'));
      unknown.push(await timed(`ghost-x${i}`, 'bad'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
    expect(median(unknown)).toBeGreaterThan(median(checked) * 0.3);
  });
});

describe('TRUST_PROXY', () => {
  const fromProxy = (app: TestApp, userName: string, passWord: string, forwardedFor: string) =>
    app.app
      .inject({
        method: 'POST',
        url: '/api/v1/sso/login',
        payload: { userName, passWord, source: 'mes' },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': forwardedFor },
      })
      .then((r) => r.statusCode);

  it('set: X-Forwarded-For from the trusted proxy tells the clients apart', async () => {
    const p = await createTestApp({
      trustProxy: parseTrustProxy('127.0.0.1'),
      login: { maxFailsPerUser: 5, maxFailsPerIp: 30, windowMinutes: 15 },
    });
    try {
      for (let i = 0; i < 30; i++) expect(await fromProxy(p, `x${i}`, 'bad', '203.0.113.7')).toBe(401);
      expect(await fromProxy(p, 'x30', 'bad', '203.0.113.7')).toBe(429);
      // Another client behind the same proxy is not throttled.
      expect(await fromProxy(p, 'x31', 'bad', '203.0.113.8')).toBe(401);
      const rows = await sql<{ ip: string }>`SELECT DISTINCT ip FROM login_attempt`.execute(p.database.db);
      expect(rows.rows.map((r) => r.ip).sort()).toEqual(['203.0.113.7', '203.0.113.8']);
    } finally {
      await p.close();
    }
  });

  it('unset: the header is ignored (anyone could write it)', async () => {
    const p = await createTestApp({ login: { maxFailsPerUser: 5, maxFailsPerIp: 30, windowMinutes: 15 } });
    try {
      for (let i = 0; i < 30; i++) expect(await fromProxy(p, `y${i}`, 'bad', `198.51.100.${i}`)).toBe(401);
      expect(await fromProxy(p, 'y30', 'bad', '198.51.100.200')).toBe(429);
      const rows = await sql<{ ip: string }>`SELECT DISTINCT ip FROM login_attempt`.execute(p.database.db);
      expect(rows.rows.map((r) => r.ip)).toEqual(['127.0.0.1']);
    } finally {
      await p.close();
    }
  });

  it('a hop count trusts that many proxies from the socket inwards', async () => {
    const p = await createTestApp({ trustProxy: parseTrustProxy('1') });
    try {
      await fromProxy(p, 'z0', 'bad', 'forged, 192.0.2.9');
      const rows = await sql<{ ip: string }>`SELECT DISTINCT ip FROM login_attempt`.execute(p.database.db);
      expect(rows.rows.map((r) => r.ip)).toEqual(['192.0.2.9']);
    } finally {
      await p.close();
    }
  });

  it('reads a hop count or a list of addresses and CIDR ranges', () => {
    expect(parseTrustProxy(undefined)).toBeUndefined();
    expect(parseTrustProxy('0')).toBeUndefined();
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 127.0.0.1, 10.0.0.0/8 ,::1,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/8/1')).toThrow(/TRUST_PROXY/);
  });
});
