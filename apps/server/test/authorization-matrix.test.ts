import { allPermissions, MENU_TREE } from '@ringmes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/platform/http/route.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Walks every registered route × {anonymous, user without roles, user granted exactly the
 * route's permission}. Routes added later are covered automatically.
 */
let t: TestApp;
let routes: RegisteredRoute[];
let noRole: string;
beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.ringmesRoutes.filter((r) => r.url !== '/vue-element-admin/user/logout');
  noRole = (await t.userWith([])).token;
});
afterAll(() => t.close());

const urlOf = (r: RegisteredRoute) => r.url.replace(/:(\w+)/g, '1');
const send = (r: RegisteredRoute, token?: string) =>
  t.call(r.method, urlOf(r), { token, body: r.method === 'GET' ? undefined : {} });

describe('authorization matrix', { timeout: 240_000 }, () => {
  it('covers a real number of routes', () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it('declares a permission on every route, and every permission can be granted through the menu tree', () => {
    const grantable = new Set(allPermissions(MENU_TREE));
    const missing = routes.flatMap((r) =>
      [r.permission, ...(r.alsoAllowedBy ?? [])]
        .filter((p) => p.includes(':') && !grantable.has(p))
        .map((p) => `${r.url} ${p}`),
    );
    expect(missing).toEqual([]);
    const publicOnes = routes.filter((r) => r.permission === 'public').map((r) => `${r.method} ${r.url}`);
    expect(publicOnes.sort()).toEqual([
      // The API's contract and its browsable reference (docs/api.md): what exists, no data.
      'GET /api/docs',
      'GET /api/docs/:file',
      'GET /api/docs/start.js',
      'GET /api/health',
      'GET /api/openapi.json',
      'GET /api/ready',
      // The live dashboard stream: opened with a stream ticket (EventSource sends no headers).
      'GET /api/v1/dashboard/stream',
      'GET /api/v1/sso/getUserByToken',
      // The company name and logo the login page shows.
      'GET /api/v1/sysSetting/brand',
      'POST /api/v1/sso/exchange',
      'POST /api/v1/sso/login',
    ]);
  });

  it('refuses anonymous calls with 407 on every non-public route', async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.permission !== 'public')) {
      const a = await send(r);
      if (a.status !== 401 || a.body.code !== '407')
        wrong.push(`${r.method} ${r.url} → ${a.status} ${a.body.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a signed-in user without the permission with 403', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const a = await send(r, noRole);
      const expected = r.permission.includes(':') ? 403 : undefined;
      if (expected ? a.status !== 403 || a.body.code !== '403' : [401, 403].includes(a.status)) {
        wrong.push(`${r.method} ${r.url} (${r.permission}) → ${a.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a user granted exactly the permission through', async () => {
    const wrong: string[] = [];
    const perms = [
      ...new Set(
        routes.flatMap((r) => [r.permission, ...(r.alsoAllowedBy ?? [])]).filter((p) => p.includes(':')),
      ),
    ];
    for (const perm of perms) {
      const { token } = await t.userWith([perm]);
      for (const r of routes.filter((x) => x.permission === perm || x.alsoAllowedBy?.includes(perm as any))) {
        const a = await send(r, token);
        if ([401, 403].includes(a.status) || a.status >= 500)
          wrong.push(`${r.method} ${r.url} (${perm}) → ${a.status} ${a.body.message}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
