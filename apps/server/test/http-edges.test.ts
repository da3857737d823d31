import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * What the server answers when the request itself is wrong at the HTTP level, over a real socket
 * (inject skips Node's parser): every answer is the envelope with the security headers.
 */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function request(opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer }) {
  return new Promise<Raw>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function expectEnvelope(r: Raw, status: number) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toMatch(/application\/json/);
  expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  const body = JSON.parse(r.text);
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'result']);
  expect(body.message).toMatch(/[\u4e00-\u9fa5]/);
  return body;
}

describe('answers at the HTTP edge', () => {
  it('a path parameter over the router limit: 414 envelope, the URL not echoed', async () => {
    const long = 'x'.repeat(300);
    const r = await request({ path: `/api/v1/customer/info/${long}` });
    const body = expectEnvelope(r, 414);
    expect(r.text).not.toContain(long);
    expect(body.code).toBe('400');
  });

  it('a 100 KB header: 431 envelope', async () => {
    const r = await request({ path: '/api/health', headers: { 'x-big': 'a'.repeat(100 * 1024) } });
    expectEnvelope(r, 431);
  });

  it('a 5 MB JSON body: 413 envelope, not a reset connection (signed in or not)', async () => {
    const body = Buffer.from(JSON.stringify({ deptName: 'x'.repeat(5 * 1024 * 1024) }));
    const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
    const token = await t.login();
    const path = '/api/v1/dept/addDept';
    const tooLarge = await request({
      method: 'POST',
      path,
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
    expect(expectEnvelope(tooLarge, 413).message).toMatch(/请求体过大/);
    expectEnvelope(await request({ method: 'POST', path, headers, body }), 401);
  });

  it('a URL that does not decode: 400 envelope', async () => {
    expectEnvelope(await request({ path: '/api/v1/customer/info/%E0%A4%A' }), 400);
  });

  it('an unparsable request line: 400 envelope', async () => {
    const r = await new Promise<string>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () =>
        s.end('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      );
      const chunks: Buffer[] = [];
      s.on('data', (c) => chunks.push(c));
      s.on('close', () => resolve(Buffer.concat(chunks).toString()));
      s.on('error', reject);
    });
    const [head, text] = r.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 400 /);
    expect(head).toMatch(/x-content-type-options: nosniff/);
    expect(JSON.parse(text)).toEqual({ code: '400', message: '请求格式不正确', result: null });
  });
});
