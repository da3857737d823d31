import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ login: { maxFailsPerUser: 3, maxFailsPerIp: 8, windowMinutes: 15 } });
});
afterAll(() => t.close());

const login = (userName: string, passWord: string, ip = '10.0.0.1') =>
  t.app
    .inject({
      method: 'POST',
      url: '/api/v1/sso/login',
      payload: { userName, passWord, source: 'mes' },
      remoteAddress: ip,
    })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

describe('sign-in', () => {
  it('trims the user name and answers an opaque token of at least 128 bits', async () => {
    const r = await login('  admin ', ADMIN_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores only a hash of the token', async () => {
    const { body } = await login('admin', ADMIN_PASSWORD);
    const rows = await sql<{ h: string }>`SELECT encode(token_hash, 'hex') AS h FROM user_session`.execute(
      t.database.db,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.rows)).not.toContain(body.result.token);
    const stored = await sql<{
      h: string;
    }>`SELECT password_hash AS h FROM app_user WHERE user_name = 'admin'`.execute(t.database.db);
    expect(stored.rows[0].h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers a wrong password or unknown user with code 401 and the same message', async () => {
    const a = await login('admin', 'wrong-password', '10.0.0.2');
    const b = await login('nobody', 'wrong-password', '10.0.0.2');
    expect(a).toMatchObject({ status: 401, body: { code: '401', message: '用户名或密码错误' } });
    expect(b).toMatchObject({ status: 401, body: { code: '401', message: '用户名或密码错误' } });
  });

  it('rate-limits per account and address (login-limits.test.ts has the rest)', async () => {
    await t.call('POST', '/api/v1/user/newAddUser', {
      token: await t.login(),
      body: { userName: 'victim', firstName: '受害者', passWord: 'secret123' },
    });
    for (let i = 0; i < 3; i++) expect((await login('victim', `bad${i}`, '10.1.0.1')).status).toBe(401);
    const blocked = await login('victim', 'secret123', '10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: '429' });
    expect(blocked.body.message).toMatch(/登录失败次数过多/);
    expect((await login('victim', 'secret123', '10.1.0.9')).status).toBe(200);
  });

  it('rate-limits per address, never an account without failures from it (issue 34 §3)', async () => {
    for (let i = 0; i < 8; i++) await login(`someone${i}`, 'bad', '10.2.0.1');
    expect((await login('someone8', 'bad', '10.2.0.1')).status).toBe(429);
    expect((await login('admin', ADMIN_PASSWORD, '10.2.0.1')).status).toBe(200);
    expect((await login('admin', ADMIN_PASSWORD, '10.2.0.2')).status).toBe(200);
  });

  it('validates the login body', async () => {
    const r = await t.call('POST', '/api/v1/sso/login', { body: { userName: '   ', passWord: '' } });
    expect(r.status).toBe(400);
    expect(r.body.errors?.map((e) => e.message)).toEqual(['请输入用户名', '请输入密码']);
  });
});

/** Counts the session lookups (each reads the user's grants once) until `restore`. */
function countLookups() {
  const sessions = t.app.ringmes.sessions;
  const grants = sessions.grants;
  let lookups = 0;
  sessions.grants = async (...args: Parameters<typeof grants>) => {
    lookups++;
    return grants.apply(sessions, args);
  };
  return { lookups: () => lookups, restore: () => (sessions.grants = grants) };
}

describe('tokens', () => {
  it('accepts Bearer and X-Token; refuses missing, unknown and malformed tokens with 407', async () => {
    const token = await t.login();
    expect(
      (await t.call('GET', '/api/v1/user/list', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await t.call('GET', '/api/v1/user/list', { headers: { 'x-token': token } })).status).toBe(200);
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { 'x-token': 'x'.repeat(5000) },
      { authorization: token },
    ];
    for (const headers of variants) {
      const r = await t.call('GET', '/api/v1/user/list', { headers });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('407');
    }
  });

  it('never trusts the identity headers', async () => {
    const { token } = await t.userWith([]);
    const r = await t.call('GET', '/api/v1/user/list', {
      token,
      headers: { 'x-user-id': '1', 'x-user-name': Buffer.from('admin').toString('base64') },
    });
    expect(r.status).toBe(403);
    const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token, headers: { 'x-user-id': '1' } });
    expect(me.body.result.userName).not.toBe('admin');
  });

  it('refuses the cookie token except on downloads', async () => {
    const token = await t.login();
    const r = await t.call('GET', '/api/v1/user/list', { headers: { cookie: `Admin-Token=${token}` } });
    expect(r.body.code).toBe('407');
  });

  it('ends the session at logout', async () => {
    const token = await t.login();
    expect((await t.call('POST', '/vue-element-admin/user/logout', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/sso/getUserByToken', { query: { token } })).body.code).toBe('407');
    expect((await t.call('GET', '/api/v1/user/list', { token })).body.code).toBe('407');
  });

  it('ends every session of a user at password change', async () => {
    const { token, userId } = await t.userWith([], 'pwduser');
    const second = await t.login('pwduser', 'secret123');
    const r = await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
      token,
      body: { userId, passWord: 'Newpass-1', oldPassWord: 'secret123' },
    });
    expect(r.status).toBe(200);
    for (const tk of [token, second])
      expect((await t.call('GET', '/api/v1/sso/getUserByToken', { token: tk })).body.code).toBe('407');
    expect((await login('pwduser', 'secret123', '10.3.0.1')).status).toBe(401);
    expect((await login('pwduser', 'Newpass-1', '10.3.0.1')).status).toBe(200);
  });

  it("refuses to change another user's password without system:user:edit", async () => {
    const a = await t.userWith([]);
    const b = await t.userWith([]);
    const r = await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
      token: a.token,
      body: { userId: b.userId, passWord: 'hacked1' },
    });
    expect(r.status).toBe(403);
    const admin = await t.userWith(['system:user:edit']);
    expect(
      (
        await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
          token: admin.token,
          body: { userId: b.userId, passWord: 'reset12' },
        })
      ).status,
    ).toBe(200);
  });

  it('ends the sessions of a disabled user and refuses their sign-in', async () => {
    const { token, userId } = await t.userWith([], 'tobedisabled');
    const admin = await t.login();
    const r = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token: admin,
      body: { userId, status: '0' },
    });
    expect(r.status).toBe(200);
    expect((await t.call('GET', '/api/v1/sso/getUserByToken', { token })).body.code).toBe('407');
    const again = await login('tobedisabled', 'secret123', '10.4.0.1');
    expect(again).toMatchObject({ status: 401, body: { message: '账号已停用，请联系管理员' } });
  });

  it('expires idle and old sessions', async () => {
    const idle = await t.login();
    const old = await t.login();
    const db = t.database.db;
    t.app.ringmes.sessions.invalidate();
    await sql`UPDATE user_session SET last_seen_at = now() - interval '121 minutes' WHERE id = (SELECT max(id) - 1 FROM user_session)`.execute(
      db,
    );
    await sql`UPDATE user_session SET expires_at = now() - interval '1 second' WHERE id = (SELECT max(id) FROM user_session)`.execute(
      db,
    );
    expect((await t.call('GET', '/api/v1/user/list', { token: idle })).body.code).toBe('407');
    expect((await t.call('GET', '/api/v1/user/list', { token: old })).body.code).toBe('407');
  });

  it('resolves the requests of one token arriving together with one lookup; an invalidation starts a new one', async () => {
    const token = await t.login();
    const sessions = t.app.ringmes.sessions;
    const counted = countLookups();
    try {
      sessions.invalidate();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.call('GET', '/api/v1/user/list', { token })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(counted.lookups()).toBe(1);

      // Invalidated while a lookup is under way: later requests look up again, and the overtaken
      // lookup is not cached.
      sessions.invalidate();
      const first = sessions.resolve(token);
      sessions.invalidate();
      const second = sessions.resolve(token);
      expect((await first)?.userName).toBe('admin');
      expect((await second)?.userName).toBe('admin');
      expect(counted.lookups()).toBe(3);
      await sessions.resolve(token);
      expect(counted.lookups()).toBe(3);
    } finally {
      counted.restore();
    }
  });

  it('renews an entry in use during its last second, beside the requests; a session ended meanwhile is dropped', async () => {
    const token = await t.login();
    const sessions = t.app.ringmes.sessions;
    const counted = countLookups();
    const realNow = Date.now;
    let shift = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
    try {
      sessions.invalidate();
      expect((await sessions.resolve(token))?.userName).toBe('admin');
      expect(counted.lookups()).toBe(1);
      shift = 3_000; // inside the 5 s, not its last second: the entry as it is
      await sessions.resolve(token);
      expect(counted.lookups()).toBe(1);
      shift = 4_500; // its last second: answered from the entry, renewed beside it
      expect((await sessions.resolve(token))?.userName).toBe('admin');
      await new Promise((r) => setTimeout(r, 100));
      expect(counted.lookups()).toBe(2);
      shift = 5_500; // past the old entry's end: the renewed one answers
      await sessions.resolve(token);
      expect(counted.lookups()).toBe(2);

      // Ended in the database without an invalidation (another process): the renewal drops it.
      await sql`UPDATE user_session SET revoked_at = now() WHERE id = (SELECT max(id) FROM user_session)`.execute(
        t.database.db,
      );
      shift = 9_000; // the renewed entry's last second
      expect((await sessions.resolve(token))?.userName).toBe('admin');
      await new Promise((r) => setTimeout(r, 100));
      expect(await sessions.resolve(token)).toBeUndefined();
    } finally {
      clock.mockRestore();
      counted.restore();
      sessions.invalidate();
    }
  });
});

describe('getUserByToken', () => {
  it('answers the profile with the granted menu tree only', async () => {
    const { token } = await t.userWith(['system:dept:list'], 'deptviewer');
    // The department page node carries system:dept:list, so the role grants that page.
    const r = await t.call('GET', '/api/v1/sso/getUserByToken', { query: { token } });
    expect(r.status).toBe(200);
    const u = r.body.result;
    expect(u).toMatchObject({ userName: 'deptviewer', firstName: '测试用户', deptData: { deptName: '' } });
    expect(u.roleDataList).toHaveLength(1);
    expect(u.permissions).toContain('system:dept:list');
    const paths: string[] = [];
    const walk = (nodes: any[]) =>
      nodes.forEach((n) => {
        // The contract's fields and nothing else (no editor fields such as id, parentId, version).
        expect(Object.keys(n).sort()).toEqual(
          [
            'menuId',
            'menuPath',
            'menuName',
            'menuStatus',
            'menuIco',
            'nodeType',
            'menuPermissions',
            'location',
            'parameter',
            'children',
          ].sort(),
        );
        if (n.menuPath) paths.push(n.menuPath);
        walk(n.children);
      });
    walk(u.menuList);
    expect(paths).toEqual(['/system', '/system/department/manage']);
  });

  it('gives admins every node and the wildcard permission', async () => {
    const r = await t.call('GET', '/api/v1/sso/getUserByToken', { token: await t.login() });
    expect(r.body.result.permissions).toEqual(['*:*:*']);
    const count = (nodes: any[]): number => nodes.reduce((n, x) => n + 1 + count(x.children), 0);
    const total = await t.database.db
      .selectFrom('menu')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(count(r.body.result.menuList)).toBe(total.n);
  });
});

describe('session cookie and single sign-on hand-off', () => {
  const raw = (
    method: 'GET' | 'POST',
    url: string,
    opts: { headers?: Record<string, string>; payload?: unknown } = {},
  ) => t.app.inject({ method, url, headers: opts.headers, payload: opts.payload as any });
  const cookies = (r: { headers: Record<string, unknown> }) => {
    const c = r.headers['set-cookie'];
    return (Array.isArray(c) ? c : c ? [c] : []) as string[];
  };

  it('sets the session cookie from the server: HttpOnly, SameSite=Lax, Secure over https; logout clears it', async () => {
    const payload = { userName: 'admin', passWord: ADMIN_PASSWORD, source: 'mes' };
    const plain = await raw('POST', '/api/v1/sso/login', { payload });
    expect(plain.json().result.token).toMatch(/^[\w-]{43}$/);
    const [cookie] = cookies(plain);
    expect(cookie).toBe(
      `Admin-Token=${plain.json().result.token}; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax`,
    );
    const https = await raw('POST', '/api/v1/sso/login', {
      payload,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(cookies(https)[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const out = await raw('POST', '/vue-element-admin/user/logout', {
      headers: { authorization: `Bearer ${plain.json().result.token}` },
    });
    expect(cookies(out)[0]).toMatch(/^Admin-Token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
  });

  it('hands a session over only by a one-time code, in the browser that asked for it, within 60 s', async () => {
    const { token, userId } = await t.userWith([], 'handoff');
    const issue = await raw('POST', '/api/v1/sso/handoff', { headers: { authorization: `Bearer ${token}` } });
    const { code, url, expiresIn } = issue.json().result;
    expect(url).toBe(`/auth-redirect?code=${code}`);
    expect(expiresIn).toBe(60);
    const binding = cookies(issue).find((c) => c.startsWith('RM-SSO-Binding='));
    expect(binding).toMatch(/; Path=\/api\/v1\/sso; Max-Age=86400; HttpOnly; SameSite=Lax$/);
    const browser = (binding as string).split(';')[0];

    // Another browser (a link sent to a victim) gets nothing, and does not burn the code.
    const elsewhere = await raw('POST', '/api/v1/sso/exchange', { payload: { code } });
    expect(elsewhere.json()).toMatchObject({ code: '401', message: '登录链接无效或已过期，请重新登录' });
    const other = await raw('POST', '/api/v1/sso/exchange', {
      payload: { code },
      headers: { cookie: `RM-SSO-Binding=${'x'.repeat(43)}` },
    });
    expect(other.statusCode).toBe(401);

    const ok = await raw('POST', '/api/v1/sso/exchange', { payload: { code }, headers: { cookie: browser } });
    expect(ok.statusCode).toBe(200);
    const session = ok.json().result.token;
    expect(session).not.toBe(token);
    expect(cookies(ok)[0]).toMatch(new RegExp(`^Admin-Token=${session}; .*HttpOnly; SameSite=Lax$`));
    const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token: session });
    expect(me.body.result.userId).toBe(userId);

    const again = await raw('POST', '/api/v1/sso/exchange', {
      payload: { code },
      headers: { cookie: browser },
    });
    expect(again.statusCode).toBe(401);
    const late = await raw('POST', '/api/v1/sso/handoff', {
      headers: { authorization: `Bearer ${token}`, cookie: browser },
    });
    expect(cookies(late)).toEqual([]); // the browser keeps its binding
    await sql`UPDATE sso_code SET expires_at = now() - interval '1 second'`.execute(t.database.db);
    const expired = await raw('POST', '/api/v1/sso/exchange', {
      payload: { code: late.json().result.code },
      headers: { cookie: browser },
    });
    expect(expired.statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/sso/handoff', {})).body.code).toBe('407');
  });
});
