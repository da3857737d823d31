import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRevisionNo } from '../src/modules/technology/technical-document.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** 技术文档: attachments (limits, headers, permissions), the lifecycle and revision supersede. */
const MAX = 64 * 1024;
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp({ attachmentMaxBytes: MAX });
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** One multipart body with a `file` part, as a browser sends it (UTF-8 file name). */
function multipart(fileName: string, content: Buffer, field = 'file') {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
    'utf8',
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(revisionId: number, fileName: string, content: Buffer, as = token) {
  const body = multipart(fileName, content);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/attachment/upload/technical-document-revision/${revisionId}`,
    headers: { ...body.headers, authorization: `Bearer ${as}` },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const download = (id: number, as = token, inline = false) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/attachment/download/${id}${inline ? '?inline=true' : ''}`,
    headers: { authorization: `Bearer ${as}` },
  });

const act = (name: string, id: number, body: Record<string, unknown> = {}, as = token) =>
  t.call('POST', `/api/v1/technical-document/${name}/${id}`, { token: as, body });
const info = (id: number) => t.call('GET', `/api/v1/technical-document/info/${id}`, { token }).then(ok);
const revisions = (id: number) =>
  t.call('GET', `/api/v1/technical-document/revisions/${id}`, { token }).then(ok<any[]>);

async function newDocument(overrides: Record<string, unknown> = {}) {
  const product = await f.create('material-info');
  const doc = ok(
    await t.call('POST', '/api/v1/technical-document/add', {
      token,
      body: { title: '6204 外圈图纸', docType: 'drawing', materialId: product.id, ...overrides },
    }),
  );
  return { doc, product };
}

/** A document with revision A holding one PDF. */
async function withRevision() {
  const { doc, product } = await newDocument();
  ok(await act('revise', doc.id, { changeNote: '初版' }));
  const [rev] = await revisions(doc.id);
  const file = ok(await upload(rev.id, '外圈图纸 A.pdf', PDF));
  return { doc, product, rev, file };
}

describe('revision numbers', () => {
  it('count on letters and trailing numbers', () => {
    expect(nextRevisionNo(undefined)).toBe('A');
    expect(nextRevisionNo('A')).toBe('B');
    expect(nextRevisionNo('Z')).toBe('AA');
    expect(nextRevisionNo('AZ')).toBe('BA');
    expect(nextRevisionNo('V1')).toBe('V2');
    expect(nextRevisionNo('V9')).toBe('V10');
    expect(nextRevisionNo('草')).toBeUndefined();
  });
});

describe('技术文档', () => {
  it('numbers documents JS… and needs a product or a process', async () => {
    const { doc } = await newDocument();
    expect(doc).toMatchObject({ docNo: expect.stringMatching(/^JS\d{8}-\d{4}$/), status: 'draft' });
    const none = await t.call('POST', '/api/v1/technical-document/add', {
      token,
      body: { title: '无归属', docType: 'drawing' },
    });
    expect(none.status).toBe(400);
    expect(none.body.errors?.[0]).toEqual({ field: 'materialId', message: '产品与工序至少填一项' });
    const proc = await f.create('process-manage');
    ok(
      await t.call('POST', '/api/v1/technical-document/add', {
        token,
        body: { title: '磨削工艺卡', docType: 'process-card', processId: proc.id },
      }),
    );
  });

  it('runs 草稿 → 已审批 → 已发布, and a new revision supersedes the old one only when published', async () => {
    const { doc, product, rev } = await withRevision();
    expect(rev).toMatchObject({ revisionNo: 'A', status: 'draft', changeNote: '初版' });
    expect((await info(doc.id)).workingRevision).toBe('A');

    // A second working revision is refused while A is open.
    const twice = await act('revise', doc.id);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('已有修订中的版本 A');

    expect(ok(await act('approve', doc.id)).status).toBe('approved');
    // Approved revisions are frozen.
    const frozen = await upload(rev.id, 'more.pdf', PDF);
    expect(frozen.status).toBe(409);
    expect(frozen.body.message).toBe('版本 A 当前为「已审批」，不能再增删文件');
    expect(ok(await act('publish', doc.id)).status).toBe('published');
    const published = await info(doc.id);
    expect(published).toMatchObject({ currentRevision: 'A', workingRevision: null });
    expect(published.publishedAt).toBeTruthy();
    expect((await revisions(doc.id))[0]).toMatchObject({ status: 'current', publishedByName: '系统管理员' });

    // The current drawing of the product.
    const current = ok(
      await t.call('GET', '/api/v1/technical-document/current', { token, query: { productId: product.id } }),
    );
    expect(current).toMatchObject({ documentId: doc.id, revisionNo: 'A', title: '6204 外圈图纸' });
    expect(current.attachments[0]).toMatchObject({ fileName: '外圈图纸 A.pdf', mimeType: 'application/pdf' });

    // 新版本 on a published document: back to 草稿, A stays 现行 until B is published.
    expect(ok(await act('revise', doc.id, { changeNote: '外径公差收紧' })).status).toBe('draft');
    const [b, a] = await revisions(doc.id);
    expect(b).toMatchObject({ revisionNo: 'B', status: 'draft' });
    expect(a).toMatchObject({ revisionNo: 'A', status: 'current' });
    const still = ok(
      await t.call('GET', '/api/v1/technical-document/current', { token, query: { productId: product.id } }),
    );
    expect(still.revisionNo).toBe('A');

    // No approval without a file; a drafted document that was published cannot be deleted.
    const empty = await act('approve', doc.id);
    expect(empty.status).toBe(409);
    expect(empty.body.message).toBe('版本 B 还没有文件，请先上传');
    const del = await t.call('DELETE', `/api/v1/technical-document/delete/${doc.id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('已发布过，不能删除');

    ok(await upload(b.id, '外圈图纸 B.png', PNG));
    ok(await act('approve', doc.id));
    ok(await act('publish', doc.id));
    const after = await revisions(doc.id);
    expect(after.map((r) => [r.revisionNo, r.status])).toEqual([
      ['B', 'current'],
      ['A', 'superseded'],
    ]);
    expect(after[1].supersededAt).toBeTruthy();
    expect((await info(doc.id)).currentRevision).toBe('B');
    // The superseded revision stays readable.
    const old = await download(after[1].attachments[0].id);
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(PDF)).toBe(true);

    // 作废 needs a reason; a voided drawing is no longer current.
    expect((await act('void', doc.id)).status).toBe(400);
    expect(ok(await act('void', doc.id, { reason: '产品停产' })).status).toBe('voided');
    const gone = ok(
      await t.call('GET', '/api/v1/technical-document/current', { token, query: { productId: product.id } }),
    );
    expect(gone).toBeNull();
  });

  it('rejects 反审批 without a reason and returns the revision to 草稿', async () => {
    const { doc, rev } = await withRevision();
    ok(await act('approve', doc.id));
    expect((await act('unapprove', doc.id)).status).toBe(400);
    expect(ok(await act('unapprove', doc.id, { reason: '图号写错' })).status).toBe('draft');
    expect((await revisions(doc.id))[0].status).toBe('draft');
    ok(await upload(rev.id, '更正.pdf', PDF));
  });

  it('deletes a never-published draft with its file rows', async () => {
    const { doc, file } = await withRevision();
    ok(await t.call('DELETE', `/api/v1/technical-document/delete/${doc.id}`, { token }));
    expect((await download(file.id)).statusCode).toBe(404);
  });
});

describe('attachments', () => {
  it('stores the file under the attachment folder with its size and hash', async () => {
    const { file } = await withRevision();
    expect(file).toMatchObject({
      fileName: '外圈图纸 A.pdf',
      mimeType: 'application/pdf',
      size: PDF.length,
      sha256: crypto.createHash('sha256').update(PDF).digest('hex'),
    });
    const row = await t.database.db
      .selectFrom('attachment')
      .select('storageKey')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const stored = path.join(t.config.attachmentDir, row.storageKey);
    expect(fs.readFileSync(stored).equals(PDF)).toBe(true);
    expect(stored.startsWith(t.config.attachmentDir)).toBe(true);
  });

  it('refuses too big, empty, executable and disguised files with Chinese 400s', async () => {
    const { rev } = await withRevision();
    const big = await upload(rev.id, 'big.bin', Buffer.alloc(MAX + 1, 1));
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('文件过大：单个文件不能超过 0.1 MB');
    const empty = await upload(rev.id, 'empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('文件为空，请选择有内容的文件');
    const exe = await upload(rev.id, 'setup.exe', Buffer.from('MZ...'));
    expect(exe.status).toBe(400);
    expect(exe.body.message).toContain('不允许上传 .exe 类型的文件');
    const fake = await upload(rev.id, 'drawing.pdf', Buffer.from('not a pdf'));
    expect(fake.status).toBe(400);
    expect(fake.body.message).toBe('文件内容与扩展名 .pdf 不符，请检查文件');
    // Nothing of the refused files stays behind.
    expect((await revisions(rev.documentId))[0].attachments).toHaveLength(1);
    const left = fs.readdirSync(path.join(t.config.attachmentDir, 'tmp'));
    expect(left).toEqual([]);
    // Not multipart, or a part under another name.
    const json = await t.call('POST', `/api/v1/attachment/upload/technical-document-revision/${rev.id}`, {
      token,
      body: {},
    });
    expect(json.status).toBe(400);
    expect(json.body.message).toContain('multipart/form-data');
    const other = multipart('a.pdf', PDF, 'photo');
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/upload/technical-document-revision/${rev.id}`,
      headers: { ...other.headers, authorization: `Bearer ${token}` },
      payload: other.payload,
    });
    expect(wrong.statusCode).toBe(400);
    const unknown = await upload(999_999, 'a.pdf', PDF);
    expect(unknown.status).toBe(404);
  });

  it('answers downloads with the type, the length and RFC 5987 names; inline only for previewable types', async () => {
    const { rev, file } = await withRevision();
    const res = await download(file.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Number(res.headers['content-length'])).toBe(PDF.length);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="____ A.pdf"; filename*=UTF-8''${encodeURIComponent('外圈图纸 A.pdf')}`,
    );
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const preview = await download(file.id, token, true);
    expect(preview.headers['content-disposition']).toMatch(/^inline; /);
    expect(preview.headers['content-security-policy']).toContain("frame-ancestors 'self'");

    const txt = ok(await upload(rev.id, '说明.txt', Buffer.from('外径 Φ47')));
    expect(txt.mimeType).toBe('text/plain');
    const asText = await download(txt.id, token, true);
    expect(asText.headers['content-disposition']).toMatch(/^attachment; /);

    // The browser's cookie works for previews (an <iframe> or <img> sends no header).
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/download/${file.id}?inline=true`,
      headers: { cookie: `Admin-Token=${token}` },
    });
    expect(viaCookie.statusCode).toBe(200);
  });

  it('checks the owner permissions: 403 on download without read, on upload without edit', async () => {
    const { rev, file } = await withRevision();
    const reader = await t.userWith(['technology:document:list']);
    const stranger = await t.userWith(['sale:order:list']);
    const denied = await download(file.id, stranger.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: '403' });
    expect((await download(file.id, reader.token)).statusCode).toBe(200);
    const list = await t.call('GET', `/api/v1/attachment/list/technical-document-revision/${rev.id}`, {
      token: reader.token,
    });
    expect(ok(list)).toHaveLength(1);
    expect((await upload(rev.id, 'x.pdf', PDF, reader.token)).status).toBe(403);
    const del = await t.call('DELETE', `/api/v1/attachment/delete/${file.id}`, { token: reader.token });
    expect(del.status).toBe(403);
    // The editor deletes a draft revision's file, and its bytes go.
    const row = await t.database.db
      .selectFrom('attachment')
      .select('storageKey')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    ok(await t.call('DELETE', `/api/v1/attachment/delete/${file.id}`, { token }));
    expect(fs.existsSync(path.join(t.config.attachmentDir, row.storageKey))).toBe(false);
  });
});

describe('attachments at the default limit', () => {
  it('takes a 3 MB file (far above the 1 MB JSON limit) and answers it byte for byte', async () => {
    const d = await createTestApp();
    try {
      const admin = await d.login();
      expect(d.config.attachmentMaxBytes).toBe(20 * 1_048_576);
      const proc = await factory(d, async () => admin).create('process-manage');
      const doc = ok(
        await d.call('POST', '/api/v1/technical-document/add', {
          token: admin,
          body: { title: '大文件', docType: 'process-card', processId: proc.id },
        }),
      );
      ok(await d.call('POST', `/api/v1/technical-document/revise/${doc.id}`, { token: admin, body: {} }));
      const [rev] = ok<any[]>(
        await d.call('GET', `/api/v1/technical-document/revisions/${doc.id}`, { token: admin }),
      );
      const big = crypto.randomBytes(3 * 1_048_576);
      const body = multipart('工艺卡扫描件.zip', big);
      const res = await d.app.inject({
        method: 'POST',
        url: `/api/v1/attachment/upload/technical-document-revision/${rev.id}`,
        headers: { ...body.headers, authorization: `Bearer ${admin}` },
        payload: body.payload,
      });
      const file = ok({ status: res.statusCode, body: res.json() });
      expect(file).toMatchObject({ size: big.length, mimeType: 'application/zip' });
      const back = await d.app.inject({
        method: 'GET',
        url: `/api/v1/attachment/download/${file.id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(back.rawPayload.equals(big)).toBe(true);
    } finally {
      await d.close();
    }
  });
});
