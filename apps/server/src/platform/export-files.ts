import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Config } from '../config.ts';
import { isMissing, s3Connect } from './attachments/s3-storage.ts';
import { forbidden, notFound, unavailable } from './errors.ts';

/** How long an export file is kept when nobody downloads it with `delete=true`. */
export const EXPORT_KEEP_DAYS = 7;

/**
 * Export files belong to the user who made them: each user has a folder of their own under the
 * export folder, and downloads look only there, so another user's file is 404 whatever its name.
 * Names start with a random UUID (122 bits), so they cannot be guessed either.
 */
function userDir(exportDir: string, userId: number): string {
  return path.join(path.resolve(exportDir), String(userId));
}

/**
 * Where finished exports live: the export folder, or with S3 configured the bucket under
 * `<prefix>exports/<userId>/<fileName>` (the folder then only holds a file while it is written),
 * so any server process on the same database and bucket can hand out an export another one made.
 */
export interface ExportPlace {
  exportDir: string;
  s3?: S3Config;
}

interface Scope {
  s3: S3Config;
  made: { file: string; userId: number; fileName: string }[];
}
const scope = new AsyncLocalStorage<Scope>();

const objectKey = (s3: S3Config, userId: number, fileName: string) =>
  `${s3.prefix}exports/${userId}/${fileName}`;

/** Uploads a written export file into the bucket and removes it from the folder. */
export async function uploadExport(s3: S3Config, file: string, userId: number, fileName: string) {
  try {
    const { client } = await s3Connect(s3);
    const { Upload } = await import('@aws-sdk/lib-storage');
    await new Upload({
      client,
      params: { Bucket: s3.bucket, Key: objectKey(s3, userId, fileName), Body: fs.createReadStream(file) },
      queueSize: 2,
    }).done();
  } catch (err) {
    // The bucket down or refusing: the user is told the export could not be kept (not 系统繁忙).
    throw Object.assign(unavailable('导出文件保存到对象存储失败，请稍后重试'), { cause: err });
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}

/**
 * Runs a request's handler (platform/http/route.ts). With S3 configured, the export files it
 * made with `newExportFile` and wrote are uploaded before it answers, so the file name in the
 * answer is downloadable from every process; without S3 the handler just runs.
 */
export function exportScope<T>(place: ExportPlace, handler: () => T | Promise<T>): T | Promise<T> {
  return place.s3 ? uploadingAfter(place.s3, handler) : handler();
}

async function uploadingAfter<T>(s3: S3Config, handler: () => T | Promise<T>): Promise<T> {
  const s: Scope = { s3, made: [] };
  try {
    const result = await scope.run(s, handler);
    for (const m of s.made) if (fs.existsSync(m.file)) await uploadExport(s3, m.file, m.userId, m.fileName);
    return result;
  } finally {
    for (const m of s.made) fs.rmSync(m.file, { force: true });
  }
}

/** The bucket exports of the running request go to (`undefined`: the export folder). */
export const exportBucket = (): S3Config | undefined => scope.getStore()?.s3;

/**
 * A new file in the user's folder: answers the path to write and the name the client downloads by.
 * Inside a request with S3 configured, the file is uploaded when the handler has answered
 * (`exportScope`); `runExport` writes after answering and uploads itself (`register: false`).
 */
export function newExportFile(
  exportDir: string,
  userId: number,
  title: string,
  register = true,
): { file: string; fileName: string } {
  const dir = userDir(exportDir, userId);
  fs.mkdirSync(dir, { recursive: true });
  const old = Date.now() - EXPORT_KEEP_DAYS * 86_400_000;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isFile() && fs.statSync(f).mtimeMs < old) fs.rmSync(f, { force: true });
  }
  const fileName = `${crypto.randomUUID()}_${title.replace(/[\\/:*?"<>|\0]/g, '_')}.xlsx`;
  const file = path.join(dir, fileName);
  if (register) scope.getStore()?.made.push({ file, userId, fileName });
  return { file, fileName };
}

/**
 * Resolves a requested name inside the user's export folder. Anything that leaves the folder
 * (`..`, absolute paths, NUL bytes) is refused with 403; a missing file is 404.
 */
export function resolveExport(exportDir: string, userId: number, name: string): string {
  const root = userDir(exportDir, userId);
  if (name.includes('\0')) throw forbidden('非法的文件路径');
  const full = path.resolve(root, name);
  if (!full.startsWith(root + path.sep)) throw forbidden('非法的文件路径');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    throw notFound('文件不存在');
  }
  if (!stat.isFile()) throw notFound('文件不存在');
  // A link inside the folder must not lead outside it either.
  const real = fs.realpathSync(full);
  if (!real.startsWith(fs.realpathSync(root) + path.sep)) throw forbidden('非法的文件路径');
  return real;
}

/** An export found for download: its name and how to read and remove it. */
export interface FoundExport {
  /** The stored name (`<uuid>_<title>.xlsx`). */
  name: string;
  open(): Promise<Readable>;
  remove(): Promise<void>;
}

/**
 * Finds a user's export by name, in the bucket with S3 configured (a name with a path in it is
 * refused with 403, a missing object is 404), else in the folder (`resolveExport`).
 */
export async function findExport(place: ExportPlace, userId: number, name: string): Promise<FoundExport> {
  const s3 = place.s3;
  if (!s3) {
    const file = resolveExport(place.exportDir, userId, name);
    return {
      name: path.basename(file),
      open: async () => fs.createReadStream(file),
      remove: () => fs.promises.rm(file, { force: true }),
    };
  }
  if (/[\0/\\]/.test(name) || name === '.' || name === '..') throw forbidden('非法的文件路径');
  const { s3: sdk, client } = await s3Connect(s3);
  const at = { Bucket: s3.bucket, Key: objectKey(s3, userId, name) };
  try {
    await client.send(new sdk.HeadObjectCommand(at));
  } catch (e) {
    if (isMissing(e)) throw notFound('文件不存在');
    throw e;
  }
  return {
    name,
    async open() {
      try {
        return (await client.send(new sdk.GetObjectCommand(at))).Body as Readable;
      } catch (e) {
        if (isMissing(e)) throw notFound('文件不存在');
        throw e;
      }
    },
    remove: () => client.send(new sdk.DeleteObjectCommand(at)).then(() => {}),
  };
}

/** A stream that opens its source only when first read (a zip of many exports opens them in turn). */
export function openWhenRead(found: FoundExport): Readable {
  return Readable.from(
    (async function* () {
      yield* await found.open();
    })(),
    { objectMode: false },
  );
}

/** Export objects in the bucket older than `days`, deleted; answers how many. */
export async function purgeBucketExports(s3: S3Config, days: number, now = Date.now()): Promise<number> {
  const { s3: sdk, client } = await s3Connect(s3);
  const old = now - days * 86_400_000;
  let n = 0;
  let token: string | undefined;
  do {
    const page = await client.send(
      new sdk.ListObjectsV2Command({
        Bucket: s3.bucket,
        Prefix: `${s3.prefix}exports/`,
        ContinuationToken: token,
      }),
    );
    for (const o of page.Contents ?? [])
      if (o.Key && o.LastModified && o.LastModified.getTime() < old) {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: s3.bucket, Key: o.Key }));
        n++;
      }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return n;
}
