import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §3: input built to hurt — JSON nested 100,000 deep, malformed or cut-off multipart
 * forms, oversized bodies — is answered at once with a 4xx envelope, over a real socket.
 */
let t: TestApp;
let port: number;
let token: string;
let revisionId: number;

beforeAll(async () => {
  t = await createTestApp({ attachmentMaxBytes: 64 * 1024 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  token = await t.login();
  const f = factory(t, async () => token);
  const product = await f.create('material-info');
  const doc = await t.call('POST', '/api/v1/technical-document/add', {
    token,
    body: { title: '外圈图纸', docType: 'drawing', materialId: product.id },
  });
  await t.call('POST', `/api/v1/technical-document/revise/${doc.body.result.id}`, {
    token,
    body: { changeNote: '初版' },
  });
  const revs = await t.call('GET', `/api/v1/technical-document/revisions/${doc.body.result.id}`, { token });
  revisionId = revs.body.result[0].id;
});
afterAll(() => t?.close());

interface Raw {
  status: number;
  body: any;
  ms: number;
}

function request(opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer }) {
  const started = Date.now();
  return new Promise<Raw>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const json = (path: string, text: string, auth = true) =>
  request({
    path,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${token}` } : {}) },
    body: Buffer.from(text),
  });

describe('deeply nested JSON', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

  it('100,000 nested arrays: 400 on login and on a signed-in route, not a stack overflow', async () => {
    for (const [path, auth] of [
      ['/api/v1/sso/login', false],
      ['/api/v1/dept/addDept', true],
    ] as const) {
      const r = await json(path, deep, auth);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toEqual({ code: '400', message: '请求体嵌套层级过深（最多 32 层）', result: null });
    }
    const objects = await json('/api/v1/sso/login', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`, false);
    expect(objects.status).toBe(400);
  });

  it('32 levels pass the depth check; brackets inside strings do not count', async () => {
    const nested = `{"userName":"admin","passWord":"x","source":${'['.repeat(31)}${']'.repeat(31)}}`;
    // Depth 32 reaches the schema (a 400 on the field), not the depth refusal.
    const r = await json('/api/v1/sso/login', nested, false);
    expect(r.status).toBe(400);
    expect(r.body.message).not.toMatch(/嵌套/);
    const quoted = await json(
      '/api/v1/sso/login',
      JSON.stringify({ userName: 'nobody', passWord: '['.repeat(100), source: 'mes' }),
      false,
    );
    expect(quoted.status).toBe(401);
  });
});

describe('malformed multipart', () => {
  const form = (text: string) => Buffer.from(text);
  const cases: [string, Buffer][] = [
    [
      'no opening boundary',
      form('garbage--xx\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello'),
    ],
    [
      'cut off inside the file',
      form('--xx\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello'),
    ],
    ['cut off inside the headers', form('--xx\r\nContent-Disposition: form-data; name="file"; filen')],
  ];
  const targets = () => [
    `/api/v1/attachment/upload/technical-document-revision/${revisionId}`,
    '/api/v1/measurement-subgroup/importValues',
  ];

  it('answers 400 with a Chinese message on the attachment upload and the measurement import', async () => {
    for (const path of targets())
      for (const [what, body] of cases) {
        const r = await request({
          path,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xx' },
          body,
        });
        expect(r.status, `${what} → ${path}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.code).toBe('400');
        expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
      }
  });

  it('a refused upload of 5 MB is answered at once, not after 30 s', async () => {
    const big = crypto.randomBytes(5 * 1_048_576);
    for (const path of targets()) {
      // The import refuses a file sent before its settings; the upload one over its 64 KB limit.
      const body = Buffer.concat([
        Buffer.from('--xx\r\nContent-Disposition: form-data; name="file"; filename="gauge.csv"\r\n\r\n'),
        big,
        Buffer.from('\r\n--xx--\r\n'),
      ]);
      const r = await request({
        path,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xx' },
        body,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.ms, path).toBeLessThan(3_000);
    }
  });
});

describe('oversized body', () => {
  it('a 2 MB JSON body: HTTP 413 with code "413"', async () => {
    const r = await json('/api/v1/dept/addDept', JSON.stringify({ deptName: 'x'.repeat(2 * 1_048_576) }));
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ code: '413', message: '请求体过大（上限 1 MB）', result: null });
  });
});
