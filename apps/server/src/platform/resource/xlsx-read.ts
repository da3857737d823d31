import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type ExcelJS from 'exceljs';
import { AppError, badRequest } from '../errors.ts';
import { exceljs } from '../excel-lib.ts';

/**
 * Limits of an uploaded workbook (docs/architecture.md, "Excel limits"). The upload itself is
 * capped at 20 MiB by the body parser; a zip that small can inflate to gigabytes, so what is
 * inflated is capped too: the declared sizes in the zip's central directory are checked before
 * anything is inflated, and each part's bytes are counted as they inflate and stopped beyond its
 * declared size, so a lying directory is caught as well.
 */
export const XLSX_LIMITS = {
  /** Parts (files) in the zip; a real workbook has a dozen or two. */
  maxEntries: 1_000,
  /** Declared uncompressed size of all parts together. */
  maxUnzippedBytes: 64 * 1_048_576,
};

const NOT_XLSX = '文件不是有效的 Excel（.xlsx）文件';
const tooBig = () =>
  badRequest(
    `Excel 文件解压后超过 ${XLSX_LIMITS.maxUnzippedBytes / 1_048_576} MB，请删除多余的工作表、格式或空行后分批导入`,
  );

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The entries the zip's central directory declares, refused when they are too many or too big. */
function centralDirectory(buf: Buffer): Entry[] {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw badRequest(NOT_XLSX);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  // ZIP64 (0xFFFF / 0xFFFFFFFF markers) only serves archives far larger than an upload may be.
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset + cdSize > eocd) throw badRequest(NOT_XLSX);
  if (count > XLSX_LIMITS.maxEntries)
    throw badRequest(`Excel 文件包含的部件过多（${count} 个，最多 ${XLSX_LIMITS.maxEntries} 个）`);
  const entries: Entry[] = [];
  let declared = 0;
  for (let i = 0, p = cdOffset; i < count; i++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== 0x02014b50) throw badRequest(NOT_XLSX);
    const flags = buf.readUInt16LE(p + 8);
    const nameLength = buf.readUInt16LE(p + 28);
    const entry: Entry = {
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLength),
    };
    if (flags & 1) throw badRequest('不支持加密的 Excel 文件，请取消密码后再导入');
    declared += entry.size;
    if (declared > XLSX_LIMITS.maxUnzippedBytes) throw tooBig();
    entries.push(entry);
    p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries;
}

/**
 * One part's bytes as they inflate, stopped as soon as they exceed the part's declared size (so
 * what is inflated stays within the declared total checked above).
 */
async function* inflate(buf: Buffer, entry: Entry): AsyncGenerator<Buffer> {
  const p = entry.offset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw badRequest(NOT_XLSX);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw badRequest(NOT_XLSX);
  let source: AsyncIterable<Buffer> | Buffer[];
  if (entry.method === 0) source = [data];
  else if (entry.method === 8) source = zlib.createInflateRaw().end(data);
  else throw badRequest(NOT_XLSX);
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.length;
    if (seen > entry.size) throw badRequest(`${NOT_XLSX}：「${entry.name}」解压后比文件记录的大小更大`);
    yield chunk;
  }
}

/**
 * exceljs's streaming reader, fed from our own unzipping: its own (unzipper) reads the local
 * headers one after the other, and a part hidden inside another part's data would escape the
 * checks above. The parts are read in the order the parser needs (relationships, workbook,
 * styles, shared strings, then the first sheet), so no sheet is parked in a temporary file, and
 * parts the import does not need are never inflated. Relies on exceljs 4.4's reader methods.
 */
const guardedReader = (lib: typeof ExcelJS) =>
  class GuardedWorkbookReader extends (lib.stream.xlsx.WorkbookReader as any) {
    constructor(
      private readonly buf: Buffer,
      private readonly entries: Entry[],
    ) {
      super(Readable.from([]), {
        worksheets: 'emit',
        sharedStrings: 'cache',
        styles: 'cache',
        hyperlinks: 'ignore',
        entries: 'ignore',
      });
    }

    async *parse(): AsyncGenerator<{ eventType: string; value: any }> {
      const self = this as any;
      const part = (name: string) => {
        const e = this.entries.find((x) => x.name === name);
        return e ? Readable.from(inflate(this.buf, e), { objectMode: false }) : undefined;
      };
      const rels = part('xl/_rels/workbook.xml.rels');
      const workbook = part('xl/workbook.xml');
      if (!rels || !workbook) throw badRequest(NOT_XLSX);
      await self._parseRels(rels);
      await self._parseWorkbook(workbook);
      const styles = part('xl/styles.xml');
      if (styles) await self._parseStyles(styles);
      const strings = part('xl/sharedStrings.xml');
      if (strings) yield* self._parseSharedStrings(strings);
      else self.sharedStrings = [];
      // The first sheet in the workbook's order, wherever its part lies.
      const first = self.model?.sheets?.[0];
      const target = (self.workbookRels ?? []).find((r: any) => r.Id === first?.rId)?.Target as
        | string
        | undefined;
      const sheetNo = /^\/?(?:xl\/)?worksheets\/sheet(\d+)\.xml$/.exec(target ?? '')?.[1];
      const sheet = sheetNo && part(`xl/worksheets/sheet${sheetNo}.xml`);
      if (sheet) yield* self._parseWorksheet(sheet, sheetNo);
    }
  };
let GuardedReader: ReturnType<typeof guardedReader> | undefined;

/**
 * The rows of a workbook's first sheet, streamed (exceljs Row objects, header included), within
 * the limits above. Anything that is not a readable workbook answers 400.
 */
export async function* readFirstSheet(buf: Buffer): AsyncGenerator<ExcelJS.Row> {
  GuardedReader ??= guardedReader(await exceljs());
  const reader = new GuardedReader(buf, centralDirectory(buf)) as any;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) yield row as ExcelJS.Row;
      return;
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw badRequest(NOT_XLSX);
  }
}
