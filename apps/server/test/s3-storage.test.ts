import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { S3Config } from '../src/config.ts';
import { s3Connect, s3Storage } from '../src/platform/attachments/s3-storage.ts';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { writeBackup } from '../src/platform/ops/backup.ts';
import { housekeep } from '../src/platform/ops/housekeeping.ts';
import { EXPORT_LIMITS } from '../src/platform/resource/excel-export.ts';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The S3 attachment and export stores against a real S3-compatible server: `s3rver` (npm, a
 * filesystem-backed implementation of the S3 REST API) started here on a free port with one
 * bucket. The real AWS SDK signs and sends every request; s3rver checks the signatures
 * (AWS4-HMAC-SHA256 with its S3RVER key). A middleware placed before s3rver's own notes each
 * request, so the test sees whether an upload went in parts.
 */
// s3rver ships no types.
const S3rver = createRequire(import.meta.url)('s3rver');
const seen: string[] = [];
let s3rver: any;
let s3dir: string;
let config: S3Config;

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-s3rver-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: 'ringmes-files' }],
  });
  s3rver.middleware.unshift((ctx: any, next: () => Promise<void>) => {
    seen.push(`${ctx.method} ${ctx.url}`);
    return next();
  });
  const { port } = await s3rver.run();
  config = {
    bucket: 'ringmes-files',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: 'factory-a/',
    forcePathStyle: true,
  };
});
afterAll(async () => {
  await s3rver?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

/** The keys in the bucket under `prefix` (after the configured prefix). */
async function keys(prefix = ''): Promise<string[]> {
  const { s3, client } = await s3Connect(config);
  const page = await client.send(
    new s3.ListObjectsV2Command({ Bucket: config.bucket, Prefix: `${config.prefix}${prefix}` }),
  );
  return (page.Contents ?? []).map((o) => (o.Key as string).slice(config.prefix.length));
}

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
      expect(await keys(stored.key)).toEqual([stored.key]);
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
    const before = (await keys()).length;
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
    expect((await keys()).length).toBe(before + 1);
    const down = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/download/${up.json().result.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(png)).toBe(true);
    const gone = await t.call('DELETE', `/api/v1/attachment/delete/${up.json().result.id}`, { token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await keys()).length).toBe(before);
  });
});

describe('exports in the bucket with S3_BUCKET set', () => {
  let t: TestApp;
  let token: string;
  let userId: number;
  const limits = { ...EXPORT_LIMITS };
  beforeAll(async () => {
    t = await createTestApp({ s3: config });
    token = await t.login();
    userId = (await t.call('GET', '/api/v1/sso/getUserByToken', { token, query: { token } })).body.result
      .userId;
    await sql`INSERT INTO material_unit (code, name, status)
                SELECT 'S' || lpad(i::text, 4, '0'), '桶单位' || i, '1' FROM generate_series(1, 30) i`.execute(
      t.database.db,
    );
  });
  afterEach(() => Object.assign(EXPORT_LIMITS, limits));
  afterAll(() => t?.close());

  const exportUnits = async () => {
    const r = await t.call('GET', '/api/v1/material-unit/export', { token, query: { code: 'S00' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.result as { fileName?: string; rows?: number; jobId?: string };
  };
  const download = (app: TestApp['app'], query: string) =>
    app.inject({
      method: 'GET',
      url: `/common/download?${query}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const localFiles = () => {
    const dir = path.join(t.config.exportDir, String(userId));
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it('an export is written to a temporary file, uploaded under exports/, downloaded from the bucket and deleted', async () => {
    const { fileName, rows } = await exportUnits();
    expect(rows).toBe(30);
    expect(await keys(`exports/${userId}/`)).toContain(`exports/${userId}/${fileName}`);
    expect(localFiles()).toEqual([]);
    const got = await download(t.app, `fileName=${encodeURIComponent(fileName as string)}`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(got.headers['content-disposition']).toContain("filename*=UTF-8''");
    // A handler's own export (newExportFile) goes the same way; both come in one zip.
    const template = await t.call('GET', '/api/v1/material-unit/importTemplate', { token });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    const zip = await t.app.inject({
      method: 'GET',
      url: `/common/download/zip?files=${encodeURIComponent(`${fileName},${template.body.result.fileName}`)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // Missing and escaping names answer as in the folder.
    expect((await download(t.app, 'fileName=nope.xlsx')).statusCode).toBe(404);
    expect((await download(t.app, `fileName=${encodeURIComponent(`../1/${fileName}`)}`)).statusCode).toBe(
      403,
    );
    const gone = await download(t.app, `fileName=${encodeURIComponent(fileName as string)}&delete=true`);
    expect(gone.statusCode).toBe(200);
    await expect.poll(() => keys(`exports/${userId}/${fileName}`), { timeout: 5000 }).toEqual([]);
  });

  it('with the bucket unreachable an export answers 503 in words, and leaves no file behind', async () => {
    const kept = t.config.s3;
    t.config.s3 = { ...config, endpoint: 'http://127.0.0.1:1' };
    try {
      const r = await t.call('GET', '/api/v1/material-unit/export', { token, query: { code: 'S00' } });
      expect([r.status, r.body.message]).toEqual([503, '导出文件保存到对象存储失败，请稍后重试']);
      expect(localFiles()).toEqual([]);
    } finally {
      t.config.s3 = kept;
    }
  });

  it('an export written after the answer (a job) is in the bucket when the job is done', async () => {
    EXPORT_LIMITS.progressFrom = 10;
    const { jobId } = await exportUnits();
    expect(jobId).toBeTruthy();
    let job: any;
    for (let i = 0; i < 200 && job?.status !== 'done'; i++) {
      job = (await t.call('GET', `/api/v1/export-job/${jobId}`, { token })).body.result;
      if (job.status === 'running') await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(job.status).toBe('done');
    expect(await keys(`exports/${userId}/${job.fileName}`)).toHaveLength(1);
    expect(localFiles()).toEqual([]);
    expect((await download(t.app, `fileName=${encodeURIComponent(job.fileName)}`)).statusCode).toBe(200);
  });

  it('a second server on the same database and bucket downloads an export the first one made', async () => {
    const { fileName } = await exportUnits();
    // On PostgreSQL a pool of its own, as another process has; PGlite has one connection per process.
    const database: Database = t.url ? await openDatabase({ databaseUrl: t.url, poolMax: 2 }) : t.database;
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-export-b-'));
    const other = await buildApp(database, { ...t.config, exportDir: otherDir }, { logger: false });
    try {
      await other.ready();
      const got = await download(other, `fileName=${encodeURIComponent(fileName as string)}`);
      expect(got.statusCode, got.body).toBe(200);
      const first = await download(t.app, `fileName=${encodeURIComponent(fileName as string)}`);
      expect(got.rawPayload.equals(first.rawPayload)).toBe(true);
    } finally {
      await other.close();
      if (database !== t.database) await database.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('export retention deletes old objects from the bucket, not newer ones', async () => {
    expect((await keys('exports/')).length).toBeGreaterThan(0);
    const kept = await housekeep(t.database.db, t.config.retention, t.config);
    expect(kept?.exportFiles).toBe(0);
    const later = new Date(Date.now() + (t.config.retention.exportDays + 1) * 86_400_000);
    const before = (await keys('exports/')).length;
    const counts = await housekeep(t.database.db, t.config.retention, t.config, later);
    expect(counts?.exportFiles).toBe(before);
    expect(await keys('exports/')).toEqual([]);
  });

  it('a backup leaves the bucket out and says so', async () => {
    await exportUnits();
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-backup-s3-')), 'b.tar.gz');
    try {
      const r = await writeBackup(t.database, { ...t.config, databaseUrl: t.url }, out);
      expect(r.manifest).toMatchObject({ attachments: 's3', exports: 's3' });
      expect(Object.keys(r.manifest.files).filter((f) => !f.startsWith('api-secret'))).toEqual([]);
      expect(r.note).toContain('ringmes-files');
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });
});
