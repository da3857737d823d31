import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { forbidden, notFound } from './errors.ts';

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

/** A new file in the user's folder: answers the path to write and the name the client downloads by. */
export function newExportFile(
  exportDir: string,
  userId: number,
  title: string,
): { file: string; fileName: string } {
  const dir = userDir(exportDir, userId);
  fs.mkdirSync(dir, { recursive: true });
  const old = Date.now() - EXPORT_KEEP_DAYS * 86_400_000;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isFile() && fs.statSync(f).mtimeMs < old) fs.rmSync(f, { force: true });
  }
  const fileName = `${crypto.randomUUID()}_${title.replace(/[\\/:*?"<>|\0]/g, '_')}.xlsx`;
  return { file: path.join(dir, fileName), fileName };
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
