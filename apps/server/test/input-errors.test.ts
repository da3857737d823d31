import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../src/platform/errors.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Input the database cannot take and database failures: never a 500. */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

describe('a NUL character in any input', () => {
  const nul = 'a\u0000b';
  it.each([
    ['a resource body', 'POST', '/api/v1/customer/add', { body: { name: nul, code: 'C1' } }, 'name'],
    [
      'a nested line field',
      'POST',
      '/api/v1/material-unit/add',
      { body: { name: 'x', remark: [nul] } },
      'remark.0',
    ],
    ['a system body', 'POST', '/api/v1/dept/addDept', { body: { deptName: nul } }, 'deptName'],
    [
      'a login body',
      'POST',
      '/api/v1/sso/login',
      { body: { userName: nul, passWord: 'x', source: 'mes' } },
      'userName',
    ],
    ['a page query', 'GET', '/api/v1/customer/page', { query: { keyword: nul } }, 'keyword'],
    ['a token query', 'GET', '/api/v1/sso/getUserByToken', { query: { token: nul } }, 'token'],
    ['a path parameter', 'GET', '/api/v1/customer/info/1%00', {}, 'id'],
    ['a body key', 'POST', '/api/v1/dept/addDept', { body: { [`dept${nul}`]: 'x' } }, 'dept\u0000'],
  ])('%s answers 400 naming the field', async (_what, method, url, opts, field) => {
    const r = await t.call(method, url, { token, ...(opts as object) });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.code).toBe('400');
    expect(r.body.message).toMatch(/不能包含空字符/);
    expect(r.body.errors?.[0].field.startsWith(field.replace('\u0000', ''))).toBe(true);
  });
});

describe('PostgreSQL error classes', () => {
  it.each([
    ['22021', 400],
    ['22P05', 400],
    ['22012', 400],
    ['2200N', 400],
    ['55000', 503],
    ['57P01', 503],
    ['57P02', 503],
    ['57P03', 503],
    ['57P04', 503],
    ['57P05', 503],
    ['53300', 503],
    ['58030', 503],
    ['08006', 503],
  ])('%s → %i', (code, status) => {
    expect(fromDatabaseError({ code })?.status).toBe(status);
  });

  it('a database that goes away answers the 503 envelope, not a 500', async () => {
    const sessions = t.app.ringmes.sessions;
    const resolve = sessions.resolve;
    try {
      for (const code of ['55000', '57P01', '57P03', '57P04']) {
        sessions.resolve = async () => {
          throw Object.assign(new Error('database says no'), { code });
        };
        const r = await t.call('GET', '/api/v1/customer/page', { token });
        expect(r.status, code).toBe(503);
        expect(r.body).toEqual({ code: '503', message: '数据库暂不可用，请稍后重试', result: null });
      }
      sessions.resolve = async () => {
        throw new Error('PGlite is closed');
      };
      expect((await t.call('GET', '/api/v1/customer/page', { token })).status).toBe(503);
    } finally {
      sessions.resolve = resolve;
    }
  });
});
