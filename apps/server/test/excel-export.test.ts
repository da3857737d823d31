import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMITS } from '../src/platform/resource/excel-export.ts';
import { createTestApp, downloadWorkbook, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
const limits = { ...EXPORT_LIMITS };
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  // 4,500 units: more than two batches; names with NULL-free sort keys, codes in reverse of ids.
  await sql`INSERT INTO material_unit (code, name, status)
              SELECT 'X' || lpad((5000 - i)::text, 5, '0'), '单位' || i, CASE WHEN i % 3 = 0 THEN '0' ELSE '1' END
                FROM generate_series(1, 4500) i`.execute(t.database.db);
});
afterEach(() => Object.assign(EXPORT_LIMITS, limits));
afterAll(() => t.close());

const sheetRows = (wb: Awaited<ReturnType<typeof downloadWorkbook>>) => {
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1).map(String)));
  return out;
};

async function finished(jobId: string, as = token) {
  for (let i = 0; i < 200; i++) {
    const r = await t.call('GET', `/api/v1/export-job/${jobId}`, { token: as });
    if (r.status !== 200 || r.body.result.status !== 'running') return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('export job still running');
}

describe('streamed Excel export', () => {
  it('writes every row of a multi-batch export in the asked order', async () => {
    for (const sortOrder of ['asc', 'desc']) {
      const r = await t.call('GET', '/api/v1/material-unit/export', {
        token,
        query: { code: 'X', sortField: 'code', sortOrder },
      });
      expect(r.status).toBe(200);
      expect(r.body.result.rows).toBe(4500);
      expect(r.body.result.fileName).toMatch(/^[0-9a-f-]{36}_计量单位导出\.xlsx$/);
      const rows = sheetRows(await downloadWorkbook(t, token, r.body.result.fileName));
      expect(rows[0]).toEqual(['单位编码', '单位名称', '小数位数', '状态']);
      const codes = rows.slice(1).map((x) => x[0]);
      const expected = Array.from({ length: 4500 }, (_, i) => `X${String(500 + i).padStart(5, '0')}`);
      expect(codes).toEqual(sortOrder === 'asc' ? expected : expected.reverse());
      expect(rows.find((x) => x[0] === 'X04997')).toEqual(['X04997', '单位3', '0', '停用']);
    }
  });

  it('answers a job to poll from the progress threshold and messages the link above the background one', async () => {
    EXPORT_LIMITS.progressFrom = 1000;
    const r = await t.call('GET', '/api/v1/material-unit/export', { token, query: { status: '1' } });
    expect(r.body.result).toMatchObject({ total: 3000, background: false, jobId: expect.any(String) });
    const done = await finished(r.body.result.jobId);
    expect(done.body.result).toMatchObject({ status: 'done', total: 3000, done: 3000 });
    const rows = sheetRows(await downloadWorkbook(t, token, done.body.result.fileName));
    expect(rows).toHaveLength(3001);

    EXPORT_LIMITS.backgroundAbove = 2000;
    const bg = await t.call('GET', '/api/v1/material-unit/export', { token, query: { status: '1' } });
    expect(bg.body.result).toMatchObject({ total: 3000, background: true });
    await finished(bg.body.result.jobId);
    const msgs = await t.call('GET', '/api/v1/message/page', { token, query: { kind: 'export' } });
    const msg = msgs.body.result.list[0];
    expect(msg.title).toBe('导出完成：计量单位导出（3000 行）');
    const fileName = new URL(msg.link, 'http://x').searchParams.get('fileName')!;
    expect(msg.link.startsWith('/common/download?fileName=')).toBe(true);
    expect(sheetRows(await downloadWorkbook(t, token, fileName))).toHaveLength(3001);

    const other = await t.userWith([]);
    expect(
      (await t.call('GET', `/api/v1/export-job/${bg.body.result.jobId}`, { token: other.token })).status,
    ).toBe(404);
  });
});

describe('export files belong to their owner', () => {
  it('another user can neither download nor delete a file; the owner can', async () => {
    const r = await t.call('GET', '/api/v1/material-unit/export', { token, query: { code: 'X0450' } });
    const { fileName } = r.body.result;
    const other = await t.userWith(['factory:unit:export']);
    for (const q of [{ fileName }, { fileName, delete: 'true' }]) {
      const denied = await t.call('GET', '/common/download', { token: other.token, query: q });
      expect(denied.status).toBe(404);
      expect(denied.body).toMatchObject({ code: '404', message: '文件不存在' });
    }
    for (const url of ['/common/download/resource?resource=', '/common/download/zip?files=']) {
      expect((await t.call('GET', url + encodeURIComponent(fileName), { token: other.token })).status).toBe(
        404,
      );
    }
    const admin = (await t.call('GET', '/api/v1/sso/getUserByToken', { token, query: { token } })).body
      .result;
    const file = path.join(t.config.exportDir, String(admin.userId), fileName);
    expect(fs.existsSync(file)).toBe(true);
    // Another user's folder is outside one's own: refused like any other escape.
    const sneaky = await t.call('GET', '/common/download', {
      token: other.token,
      query: { fileName: `../${admin.userId}/${fileName}` },
    });
    expect(sneaky.status).toBe(403);

    const own = await t.call('GET', '/common/download', { token, query: { fileName, delete: 'true' } });
    expect(own.status).toBe(200);
    // Deleted once the download has been sent (after the answer): waited for, not slept on.
    await expect.poll(() => fs.existsSync(file), { timeout: 5000 }).toBe(false);
  });
});
