import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { answerSchema, ERROR_ENVELOPE } from '../src/platform/http/openapi.ts';
import type { RegisteredRoute } from '../src/platform/http/route.ts';

/**
 * Checks every answer a test receives against the OpenAPI document (`platform/http/openapi.ts`):
 * a 200 against its route's documented envelope and `result`, any other status against the
 * error envelope. `createTestApp` runs it on each call and fails the test file on its first
 * breach, so every API test is also a test of the contract.
 */
export function contractChecker(routes: RegisteredRoute[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const error = ajv.compile(ERROR_ENVELOPE);
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
  // Compiled when a route is first answered: a test file calls a few dozen of the 800 routes.
  const compiled = new Map<RegisteredRoute, ValidateFunction>();
  const validatorOf = (r: RegisteredRoute): ValidateFunction => {
    let v = compiled.get(r);
    if (!v) {
      v = ajv.compile(answerSchema(r));
      compiled.set(r, v);
    }
    return v;
  };
  const breaches: string[] = [];
  return {
    breaches,
    check(method: string, url: string, status: number, body: unknown, contentType: unknown) {
      if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return;
      const pathOnly = url.split('?')[0];
      const m = matchers.find((x) => x.method === method.toUpperCase() && x.re.test(pathOnly));
      if (!m || m.route.raw) return;
      const validate = status === 200 ? validatorOf(m.route) : error;
      if (!validate(body))
        breaches.push(
          `${method} ${pathOnly} → ${status}: ${ajv.errorsText(validate.errors?.slice(0, 3))} — ${JSON.stringify(body).slice(0, 300)}`,
        );
    },
  };
}
