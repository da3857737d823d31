import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What storing one file produced: its key in the store, byte count, SHA-256 and first bytes (type sniffing). */
export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
  head: Buffer;
}

/**
 * Where attachment bytes live. The database row holds the name, type, size and hash; the store
 * only bytes under an opaque key: the filesystem below, or an S3-compatible bucket
 * (`s3-storage.ts`), chosen by the configuration (docs/architecture.md, "File storage").
 */
export interface FileStorage {
  /** Streams `source` into the store (never buffering the whole file). */
  put(source: Readable): Promise<StoredFile>;
  /** A stream of the stored bytes; rejects with ENOENT when the file is gone. */
  open(key: string): Promise<Readable>;
  /** Removes the bytes (a missing file is not an error). */
  remove(key: string): Promise<void>;
}

const HEAD_BYTES = 16;
export const STORAGE_KEY = /^\d{4}\/\d{2}\/[0-9a-f-]{36}$/;

/** A new opaque key: `<yyyy>/<mm>/<uuid>`. */
export function newStorageKey(now = new Date()): string {
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${crypto.randomUUID()}`;
}

/** A pass-through stream that counts, hashes and keeps the first bytes of what flows through it. */
export function measuring(): { tap: Transform; result(key: string): StoredFile } {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  return { tap, result: (key) => ({ key, size, sha256: hash.digest('hex'), head }) };
}

/** Files under `<dir>/<yyyy>/<mm>/<uuid>`, written to `<dir>/tmp` first and renamed when complete. */
export function fsStorage(dir: string): FileStorage {
  const fileOf = (key: string) => {
    if (!STORAGE_KEY.test(key)) throw new Error(`bad storage key ${key}`);
    return path.join(dir, key);
  };
  return {
    async put(source) {
      const key = newStorageKey();
      const tmpDir = path.join(dir, 'tmp');
      await fs.promises.mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, path.basename(key));
      const { tap, result } = measuring();
      try {
        await pipeline(source, tap, fs.createWriteStream(tmp, { flags: 'wx' }));
        const file = fileOf(key);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      return result(key);
    },
    async open(key) {
      const file = fileOf(key);
      await fs.promises.access(file, fs.constants.R_OK);
      return fs.createReadStream(file);
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}
