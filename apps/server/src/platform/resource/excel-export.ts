import { once } from 'node:events';
import fs from 'node:fs';
import type { FieldDef } from '@ringmes/domain';
import type ExcelJS from 'exceljs';
import { CompiledQuery, type SelectQueryBuilder, sql } from 'kysely';
import type { Db, DbKind } from '../db/db.ts';
import { badRequest } from '../errors.ts';
import { exceljs } from '../excel-lib.ts';
import { exportBucket, newExportFile, uploadExport } from '../export-files.ts';
import { notify } from '../messages.ts';

/** Export limits (docs/architecture.md, "Excel limits"). */
export const EXPORT_LIMITS = {
  /** From this many rows the browser shows progress: the export answers a job to poll. */
  progressFrom: 20_000,
  /** Above this many rows the export runs in the background and its link arrives as a message. */
  backgroundAbove: 100_000,
  /** One sheet holds at most 1,048,576 rows, the header included. */
  maxRows: 1_048_575,
  /** Rows read from the database at once, and written between two turns of the event loop. */
  batch: 2_000,
  slice: 200,
  /** Jobs (exports from `progressFrom` rows) writing at once in one server process; more wait their turn. */
  concurrent: 2,
};

let running = 0;
const waiting: (() => void)[] = [];
/** Runs `fn` when fewer than `EXPORT_LIMITS.concurrent` exports are writing. */
async function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= EXPORT_LIMITS.concurrent) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface ExportSpec {
  /** Rows to write, in order; `column` (with `t.id` breaking ties) is the order. */
  query: SelectQueryBuilder<any, any, any>;
  order: { column: string; desc: boolean };
  title: string;
  sheetName: string;
  fields: FieldDef[];
  cells: (row: Record<string, any>) => unknown[];
}

/**
 * Hands `onBatch` the rows of `spec.query` a batch at a time, never all of them: on PostgreSQL from
 * a server-side cursor (one sort, one transaction on its own connection); on PGlite, whose single
 * connection a long transaction would hold from every other request, from keyset pages on
 * (order column, id).
 */
async function forEachBatch(
  db: Db,
  kind: DbKind,
  spec: ExportSpec,
  onBatch: (rows: any[]) => Promise<void>,
): Promise<void> {
  const { column, desc } = spec.order;
  const dir = desc ? 'desc' : 'asc';
  if (kind === 'postgres') {
    const q = spec.query.orderBy(sql.ref(column), dir).orderBy('t.id', dir).compile();
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(
        CompiledQuery.raw(`DECLARE export_rows NO SCROLL CURSOR FOR ${q.sql}`, [...q.parameters]),
      );
      for (;;) {
        const { rows } = await trx.executeQuery(
          CompiledQuery.raw(`FETCH ${EXPORT_LIMITS.batch} FROM export_rows`),
        );
        if (!rows.length) return;
        await onBatch(rows as any[]);
      }
    });
    return;
  }
  const col = sql.ref(column);
  const byId = column === 't.id';
  let last: { key: unknown; id: number } | undefined;
  for (;;) {
    let q = spec.query
      .select(col.as('export_key'))
      .orderBy(col, dir)
      .orderBy('t.id', dir)
      .limit(EXPORT_LIMITS.batch);
    if (last) {
      const { key, id } = last;
      const after = desc ? sql`<` : sql`>`;
      // PostgreSQL sorts NULLs last ascending and first descending.
      q = q.where(
        byId
          ? sql<boolean>`t.id ${after} ${id}`
          : key === null
            ? desc
              ? sql<boolean>`((${col} IS NULL AND t.id < ${id}) OR ${col} IS NOT NULL)`
              : sql<boolean>`(${col} IS NULL AND t.id > ${id})`
            : sql<boolean>`(${col} ${after} ${key} OR (${col} = ${key} AND t.id ${after} ${id})${desc ? sql`` : sql` OR ${col} IS NULL`})`,
      );
    }
    const rows = (await q.execute()) as any[];
    if (!rows.length) return;
    await onBatch(rows);
    const end = rows[rows.length - 1];
    last = { key: end.exportKey ?? null, id: end.id };
    if (rows.length < EXPORT_LIMITS.batch) return;
  }
}

/**
 * exceljs 4.4's streaming writer hands rows to the zip without waiting for it, so a producer faster
 * than deflate piles the whole sheet up in memory: wait until the zip's input has drained. The
 * turn this gives the event loop also keeps other requests answered while a big export writes.
 */
async function zipDrained(ws: ExcelJS.Worksheet): Promise<void> {
  const sink = (ws as any)._stream?.pipes?.[0];
  while (sink?._writableState?.needDrain) await once(sink, 'drain');
  await new Promise((r) => setImmediate(r));
}

/** Streams the rows into a workbook file (exceljs's streaming writer: rows leave memory as written). */
async function writeWorkbook(
  db: Db,
  kind: DbKind,
  spec: ExportSpec,
  file: string,
  progress: (done: number) => Promise<void>,
): Promise<number> {
  const wb = new (await exceljs()).stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wb.addWorksheet(spec.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = spec.fields.map((f) => ({
    header: f.label,
    key: f.name,
    width: Math.max(10, f.label.length * 2 + 4),
  }));
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE6F4FF' } };
  header.commit();
  let done = 0;
  await forEachBatch(db, kind, spec, async (rows) => {
    for (let i = 0; i < rows.length; i += EXPORT_LIMITS.slice) {
      for (const r of rows.slice(i, i + EXPORT_LIMITS.slice)) ws.addRow(spec.cells(r)).commit();
      await zipDrained(ws);
    }
    done += rows.length;
    await progress(done);
  });
  ws.commit();
  await wb.commit();
  return done;
}

export type ExportAnswer =
  | { fileName: string; rows: number }
  | { jobId: string; total: number; background: boolean };

/**
 * An export of `spec`: up to `progressFrom` rows written before answering `{ fileName, rows }`;
 * more answer `{ jobId, total, background }` at once and write while the browser polls
 * `/api/v1/export-job/{jobId}`; above `backgroundAbove` the finished file's link is also sent
 * to the user as a message, so they need not wait on the page.
 */
export async function runExport(
  app: { db: Db; dbKind: DbKind; exportDir: string; log: { error: (o: object, m: string) => void } },
  userId: number,
  spec: ExportSpec,
): Promise<ExportAnswer> {
  const { db, dbKind } = app;
  const { total } = (await spec.query
    .clearSelect()
    .select(sql<number>`count(*)::int`.as('total'))
    .executeTakeFirstOrThrow()) as { total: number };
  if (total > EXPORT_LIMITS.maxRows)
    throw badRequest(
      `记录过多（共 ${total} 条），一个 Excel 工作表最多 ${EXPORT_LIMITS.maxRows} 行，请输入条件缩小范围`,
    );
  // Written after the answer for a big export, so uploaded here, not by the request (exportScope).
  const { file, fileName } = newExportFile(app.exportDir, userId, spec.title, false);
  const bucket = exportBucket();
  const write = (progress: (done: number) => Promise<void>) =>
    writeWorkbook(db, dbKind, spec, file, progress)
      .then(async (rows) => {
        if (bucket) await uploadExport(bucket, file, userId, fileName);
        return rows;
      })
      .catch((err) => {
        fs.rmSync(file, { force: true });
        throw err;
      });
  if (total < EXPORT_LIMITS.progressFrom) return { fileName, rows: await write(async () => {}) };

  const background = total > EXPORT_LIMITS.backgroundAbove;
  const job = await db
    .insertInto('exportJob')
    .values({ userId, title: spec.title, total, fileName })
    .returning('id')
    .executeTakeFirstOrThrow();
  const jobId = String(job.id);
  const progress = (done: number) =>
    db
      .updateTable('exportJob')
      .set({ done })
      .where('id', '=', jobId)
      .execute()
      .then(() => {});
  void inTurn(() => write(progress))
    .then(
      // The job is done and its message sent in one transaction: whoever sees 'done' finds the message.
      (rows) =>
        db.transaction().execute(async (trx) => {
          await trx
            .updateTable('exportJob')
            .set({ done: rows, status: 'done', finishedAt: sql`now()` })
            .where('id', '=', jobId)
            .execute();
          if (background)
            await notify(trx, [userId], {
              title: `导出完成：${spec.title}（${rows} 行）`,
              content: `文件保留 7 天，点击下载。`,
              kind: 'export',
              link: `/common/download?fileName=${encodeURIComponent(fileName)}`,
            });
        }),
      async (err) => {
        app.log.error({ err, jobId }, 'export failed');
        await db
          .updateTable('exportJob')
          .set({ status: 'failed', finishedAt: sql`now()` })
          .where('id', '=', jobId)
          .execute();
        if (background)
          await notify(db, [userId], {
            title: `导出失败：${spec.title}`,
            content: '请稍后重试',
            kind: 'export',
          });
      },
    )
    .catch((err) => app.log.error({ err, jobId }, 'export job bookkeeping failed'));
  return { jobId, total, background };
}
