import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/platform/http/compress.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** JSON answers above ~1 KB go out brotli- or gzip-compressed, as the client accepts. */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
  });

describe('JSON compression', () => {
  it('sends getUserByToken for admin brotli-compressed, ≤ 30 KB on the wire, same content', async () => {
    const plain = await get('/api/v1/sso/getUserByToken');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/);
    const br = await get('/api/v1/sso/getUserByToken', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThanOrEqual(30 * 1024);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('falls back to gzip, and leaves small answers alone', async () => {
    const gz = await get('/api/v1/sso/getUserByToken', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString()).result.userName).toBe('admin');
    const small = await get('/api/health', 'gzip, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().result.status).toBe('ok');
  });

  it('compresses error envelopes too and keeps their status', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/newAddUser',
      headers: {
        authorization: `Bearer ${token}`,
        'accept-encoding': 'br',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ userName: 'x'.repeat(2000) }),
    });
    expect(r.statusCode).toBe(400);
    const body =
      r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.rawPayload) : r.rawPayload;
    expect(JSON.parse(body.toString()).code).toBe('400');
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('br');
    expect(chooseEncoding('*')).toBe('gzip');
  });
});
