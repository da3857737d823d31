import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../src/config.ts';
import { s3Storage } from '../src/platform/attachments/s3-storage.ts';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The S3 attachment store against an in-process S3-compatible server speaking the REST calls the
 * driver uses (PUT/GET/DELETE object and the three multipart calls). No S3 or MinIO runs on this
 * machine; the real AWS SDK signs and sends every request, and the fake checks that each one is
 * signed (AWS4-HMAC-SHA256 with the configured key id).
 */
const objects = new Map<string, Buffer>();
const uploads = new Map<string, Map<number, Buffer>>();
const seen: string[] = [];
let server: http.Server;
let config: S3Config;

/** Bodies may come `aws-chunked` (size;chunk-signature=…\r\ndata\r\n… 0;…\r\n trailers). */
function dechunk(raw: Buffer, encoding: string | undefined): Buffer {
  if (!encoding?.includes('aws-chunked')) return raw;
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0], 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function fakeS3(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
  const url = new URL(req.url ?? '/', 'http://s3');
  const key = decodeURIComponent(url.pathname.replace(/^\/[^/]+\//, ''));
  const auth = String(req.headers.authorization ?? '');
  seen.push(`${req.method} ${url.pathname}${url.search}`);
  if (!auth.startsWith('AWS4-HMAC-SHA256 Credential=test-key/')) {
    res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
    return;
  }
  const xml = (s: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(s);
  const uploadId = url.searchParams.get('uploadId');
  if (req.method === 'POST' && url.searchParams.has('uploads')) {
    const id = crypto.randomUUID();
    uploads.set(id, new Map());
    xml(
      `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
    );
  } else if (req.method === 'PUT' && uploadId) {
    uploads
      .get(uploadId)
      ?.set(Number(url.searchParams.get('partNumber')), dechunk(body, req.headers['content-encoding']));
    res.writeHead(200, { etag: `"${crypto.randomUUID()}"` }).end();
  } else if (req.method === 'POST' && uploadId) {
    const parts = [...(uploads.get(uploadId) ?? new Map<number, Buffer>()).entries()].sort(
      (a, b) => a[0] - b[0],
    );
    objects.set(key, Buffer.concat(parts.map((p) => p[1])));
    uploads.delete(uploadId);
    xml(
      `<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><ETag>"x"</ETag></CompleteMultipartUploadResult>`,
    );
  } else if (req.method === 'PUT') {
    objects.set(key, dechunk(body, req.headers['content-encoding']));
    res.writeHead(200, { etag: '"x"' }).end();
  } else if (req.method === 'GET' && objects.has(key)) {
    const data = objects.get(key) as Buffer;
    res
      .writeHead(200, { 'content-length': data.length, 'content-type': 'application/octet-stream' })
      .end(data);
  } else if (req.method === 'GET') {
    res.writeHead(404, { 'content-type': 'application/xml' });
    res.end('<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
  } else if (req.method === 'DELETE') {
    objects.delete(key);
    res.writeHead(204).end();
  } else res.writeHead(400).end();
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => fakeS3(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  config = {
    bucket: 'ringmes-files',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accessKeyId: 'test-key',
    secretAccessKey: 'test-secret',
    prefix: 'factory-a/',
    forcePathStyle: true,
  };
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('S3-compatible attachment store', () => {
  it('streams a small file in one PUT and a 6 MB one in parts; reads and removes them', async () => {
    const store = s3Storage(config);
    for (const [size, multipart] of [
      [1_000, false],
      [6 * 1024 * 1024 + 17, true],
    ] as const) {
      seen.length = 0;
      const data = crypto.randomBytes(size);
      const stored = await store.put(Readable.from([data.subarray(0, 100), data.subarray(100)]));
      expect(stored).toMatchObject({
        key: expect.stringMatching(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/),
        size,
        sha256: crypto.createHash('sha256').update(data).digest('hex'),
        head: data.subarray(0, 16),
      });
      expect(objects.get(`factory-a/${stored.key}`)?.equals(data)).toBe(true);
      expect(seen.some((s) => s.includes('?uploads'))).toBe(multipart);
      expect((await read(await store.open(stored.key))).equals(data)).toBe(true);
      await store.remove(stored.key);
      await expect(store.open(stored.key)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    await expect(store.open('../etc/passwd')).rejects.toThrow('bad storage key');
  });

  it('refused credentials fail the upload (the API answers no half-stored file)', async () => {
    const store = s3Storage({ ...config, accessKeyId: 'wrong-key' });
    await expect(store.put(Readable.from([Buffer.from('x')]))).rejects.toThrow();
  });
});

describe('attachments through the API with S3_BUCKET set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ s3: config });
  });
  afterAll(() => t?.close());

  it('an equipment repair photo is uploaded into the bucket, downloaded from it and deleted with it', async () => {
    const token = await t.login();
    const equipment = await factory(t, async () => token).create('equipment');
    const repair = await t.call('POST', '/api/v1/equipment-repair/add', {
      token,
      body: { equipmentId: equipment.id, faultDescription: '主轴异响' },
    });
    expect(repair.status, JSON.stringify(repair.body)).toBe(200);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="故障.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = objects.size;
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/upload/equipment-repair/${repair.body.result.id}`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${token}`,
      },
      payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(objects.size).toBe(before + 1);
    const down = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/download/${up.json().result.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(png)).toBe(true);
    const gone = await t.call('DELETE', `/api/v1/attachment/delete/${up.json().result.id}`, { token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(objects.size).toBe(before);
  });
});
