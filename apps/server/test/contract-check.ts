import { answerChecker } from '../src/platform/http/openapi.ts';
import type { RegisteredRoute } from '../src/platform/http/route.ts';

/**
 * Checks every answer a test receives against the OpenAPI document (`platform/http/openapi.ts`):
 * a 200 against its route's documented envelope and `result`, any other status against the
 * error envelope. `createTestApp` runs it on each call and fails the test file on its first
 * breach, so every API test is also a test of the contract.
 */
export function contractChecker(routes: RegisteredRoute[]) {
  const matchers = routes
    .filter((r) => r.method !== 'HEAD')
    .map((r) => ({
      method: r.method,
      re: new RegExp(`^${r.url.replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\*$/, '.*')}$`),
      // Fixed paths before parameterised ones (`/info/export` before `/info/:id`).
      params: (r.url.match(/:/g) ?? []).length,
      route: r,
    }))
    .sort((a, b) => a.params - b.params);
  const breachOf = answerChecker();
  const breaches: string[] = [];
  return {
    breaches,
    check(method: string, url: string, status: number, body: unknown, contentType: unknown) {
      if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return;
      const pathOnly = url.split('?')[0];
      const m = matchers.find((x) => x.method === method.toUpperCase() && x.re.test(pathOnly));
      if (!m || m.route.raw) return;
      // Named by the route's pattern (`GET /api/v1/sale-order/info/:id → 200: …`).
      const breach = breachOf(m.route, status, body);
      if (breach) breaches.push(breach);
    },
  };
}
