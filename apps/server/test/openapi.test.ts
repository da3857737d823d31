import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker } from './contract-check.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The OpenAPI document (`platform/http/openapi.ts`): generated from the routes' own schemas,
 * accepted by Redocly's linter (the engine of `redocly lint`, its recommended rules) with no
 * error or warning, naming every registered route, and served with its browsable reference.
 */
let t: TestApp;
let doc: any;
/** Custom routes written before the document, which do not declare their answer yet. */
const UNDECLARED_ANSWERS = 467;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('passes Redocly lint (recommended rules) with no problem at all', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: '/openapi.json',
      config,
    });
    const summary = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`,
    );
    expect(summary.slice(0, 10)).toEqual([]);
    expect(problems.length).toBe(0);
  });

  it('the linter is not blind: a broken copy of the document fails it', async () => {
    const broken = structuredClone(doc);
    const first = Object.values(broken.paths)[0] as Record<string, any>;
    (Object.values(first)[0] as any).parameters.push({ name: 'x' });
    delete broken.info.title;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(broken),
      absoluteRef: '/openapi.json',
      config,
    });
    expect(problems.filter((p) => p.severity === 'error').length).toBeGreaterThanOrEqual(3);
  });

  it('names every registered route once, with its permission and tag', () => {
    const ops = new Map<string, any>();
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths))
      for (const [m, op] of Object.entries(item)) ops.set(`${m.toUpperCase()} ${p}`, op);
    const routes = t.app.ringmesRoutes.filter((r) => r.method !== 'HEAD');
    const keys = routes.map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(ops.has(k), k).toBe(true);
    expect(ops.size).toBe(keys.length);
    const page = ops.get('GET /api/v1/sale-order/page');
    expect(page['x-permission']).toMatch(/^sale:/);
    expect(page.tags).toEqual(['sale']);
    expect(ops.get('GET /api/health').security).toEqual([]);
  });

  it('new routes declare their answer: the routes without one only shrink', () => {
    const undeclared = t.app.ringmesRoutes.filter((r) => r.method !== 'HEAD' && !r.raw && !r.response);
    // Lower the number as routes declare theirs, never raise it.
    expect(undeclared.length).toBeLessThanOrEqual(UNDECLARED_ANSWERS);
  });

  it('describes a resource: its query filters, its body with field titles, its answer rows', () => {
    const page = doc.paths['/api/v1/sale-order/page'].get;
    const names = page.parameters.map((p: any) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['pageNum', 'pageSize', 'sortField', 'sortOrder', 'keyword']),
    );
    const result = page.responses['200'].content['application/json'].schema.properties.result;
    expect(
      result.properties.list.items.properties.customerId.anyOf ??
        result.properties.list.items.properties.customerId,
    ).toBeTruthy();
    expect(result.required).toEqual(expect.arrayContaining(['list', 'total', 'pageNum', 'pageSize']));
    const add = doc.paths['/api/v1/sale-order/add'].post;
    const body = add.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['customerId', 'lines']));
    expect(body.properties.customerId.title).toBe('客户');
    expect(body.properties.lines.items.properties.quantity).toBeTruthy();
    expect(add.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' });
    const info = doc.paths['/api/v1/sale-order/info/{id}'].get;
    expect(info.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });

  it('serves Swagger UI at /api/docs with its assets and no inline script', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/<script>[^<]/);
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/swagger-ui-bundle.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.body.length).toBeGreaterThan(100_000);
    const other = await t.app.inject({ method: 'GET', url: '/api/docs/package.json' });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('404');
  });

  it('every test answer is checked against it: a wrong shape or an error without its envelope is a breach', () => {
    const c = contractChecker(t.app.ringmesRoutes);
    const json = 'application/json; charset=utf-8';
    c.check(
      'GET',
      '/api/v1/sale-order/page?pageNum=1',
      200,
      { code: '200', message: '操作成功', result: { list: [], total: 0, pageNum: 1, pageSize: 20 } },
      json,
    );
    c.check(
      'GET',
      '/api/v1/sale-order/info/3',
      200,
      { code: '200', message: '操作成功', result: { id: 3, customerId: 7, customerName: '甲' } },
      json,
    );
    c.check(
      'GET',
      '/api/v1/sale-order/info/3',
      409,
      { code: '409', message: '状态不允许', result: null },
      json,
    );
    expect(c.breaches).toEqual([]);
    c.check(
      'GET',
      '/api/v1/sale-order/page',
      200,
      { code: '200', message: '操作成功', result: { list: 'none' } },
      json,
    );
    c.check(
      'GET',
      '/api/v1/sale-order/info/3',
      200,
      { code: '200', message: '操作成功', result: { id: '3' } },
      json,
    );
    c.check(
      'DELETE',
      '/api/v1/sale-order/delete/3',
      200,
      { code: '200', message: '操作成功', result: { id: 3 } },
      json,
    );
    c.check('POST', '/api/v1/sale-order/add', 400, { message: '无 code' }, json);
    expect(c.breaches).toHaveLength(4);
    expect(c.breaches[0]).toMatch(/^GET \/api\/v1\/sale-order\/page → 200/);
  });
});
