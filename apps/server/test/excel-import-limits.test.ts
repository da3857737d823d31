import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_ROWS } from '../src/platform/resource/excel.ts';
import { XLSX_LIMITS } from '../src/platform/resource/xlsx-read.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Hand-made workbooks (a zip writer of a few lines), so a test can declare any size it likes in
 * the zip's directory and build a part that inflates to a gigabyte from a few hundred kilobytes.
 */
interface Part {
  name: string;
  deflated: Buffer;
  size: number;
  crc: number;
}

const part = (name: string, text: string): Part => {
  const b = Buffer.from(text);
  return { name, deflated: zlib.deflateRawSync(b), size: b.length, crc: zlib.crc32(b) };
};

/** A part of `head`, then `unit` `times` over, then `tail`: deflate blocks repeated, no inflating here. */
function bombPart(name: string, head: string, unit: Buffer, times: number, tail: string): Part {
  const sync = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const block = zlib.deflateRawSync(unit, sync);
  const deflated = Buffer.concat([
    zlib.deflateRawSync(Buffer.from(head), sync),
    ...Array.from({ length: times }, () => block),
    zlib.deflateRawSync(Buffer.from(tail)),
  ]);
  const size = Buffer.byteLength(head) + unit.length * times + Buffer.byteLength(tail);
  return { name, deflated, size: Math.min(size, 0xffffffff), crc: 0 };
}

/** A zip of `parts`; `declared` overrides the uncompressed size written in the headers. */
function zip(parts: Part[], declared: Record<string, number> = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const size = declared[p.name] ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, p.deflated);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(p.crc, 16);
    entry.writeUInt32LE(p.deflated.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const frame = [
  part(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  ),
  part(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="单位" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ),
  part(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ),
];
const SHEET = 'xl/worksheets/sheet1.xml';
const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const HEAD = `<?xml version="1.0"?><worksheet xmlns="${NS}"><sheetData><row r="1">${cell('A1', '单位编码')}${cell('B1', '单位名称')}</row>`;
const TAIL = '</sheetData></worksheet>';
const rows = (from: number, to: number) => {
  let s = '';
  for (let r = from; r <= to; r++)
    s += `<row r="${r}">${cell(`A${r}`, `U${r}`)}${cell(`B${r}`, `单位${r}`)}</row>`;
  return s;
};
const MiB = 1_048_576;
/** A sheet whose cell B2 holds `mib` MiB of "A": 1 GiB inflates from about 1 MB of zip. */
const bigCell = (mib: number) =>
  bombPart(
    SHEET,
    `${HEAD}<row r="2">${cell('A2', 'BIG')}<c r="B2" t="inlineStr"><is><t>`,
    Buffer.alloc(MiB, 'A'),
    mib,
    `</t></is></c></row>${TAIL}`,
  );

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

/** Uploads `file` for a dry-run import, sampling the process's RSS meanwhile; answers the peak growth. */
async function upload(file: Buffer) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/material-unit/import?dryRun=true',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: file,
    });
    peak = Math.max(peak, process.memoryUsage().rss);
    if (process.env.SHOW_RSS)
      console.log('rss growth MiB', Math.round((peak - before) / MiB), 'rss', Math.round(peak / MiB));
    return { status: r.statusCode, body: r.json(), growthMiB: Math.round((peak - before) / MiB) };
  } finally {
    clearInterval(timer);
  }
}

describe('Excel import limits', () => {
  it('reads a hand-made workbook (the writer below is sound)', async () => {
    const r = await upload(zip([...frame, part(SHEET, HEAD + rows(2, 3) + TAIL)]));
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ total: 2, valid: 2 });
  });

  it('refuses a zip bomb from its declared size, before inflating anything', async () => {
    const file = zip([...frame, bigCell(1024)]);
    expect(file.length).toBeLessThan(2 * MiB);
    const r = await upload(file);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: '400', message: expect.stringMatching(/解压后超过 64 MB/) });
    expect(r.growthMiB).toBeLessThan(50);
  });

  it('stops a part that inflates beyond the size its directory declares', async () => {
    const r = await upload(zip([...frame, bigCell(1024)], { [SHEET]: 4096 }));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/sheet1\.xml」解压后比文件记录的大小更大/);
    expect(r.growthMiB).toBeLessThan(50);
  });

  it('stops at the byte budget when the declared size is just under it', async () => {
    const r = await upload(zip([...frame, bigCell(1024)], { [SHEET]: XLSX_LIMITS.maxUnzippedBytes - 1024 }));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/sheet1\.xml」解压后比文件记录的大小更大/);
    expect(r.growthMiB).toBeLessThan(250);
  });

  it('refuses too many parts and too many rows', async () => {
    const many = Array.from({ length: XLSX_LIMITS.maxEntries }, (_, i) => part(`x/${i}.xml`, '<x/>'));
    const r = await upload(zip([...frame, part(SHEET, HEAD + TAIL), ...many]));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/部件过多/);

    const big = await upload(zip([...frame, part(SHEET, HEAD + rows(2, MAX_IMPORT_ROWS + 2) + TAIL)]));
    expect(big.status).toBe(400);
    expect(big.body.message).toBe(`一次最多导入 ${MAX_IMPORT_ROWS} 行，请分批导入`);
  });
});
