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
 * only bytes under an opaque key. The filesystem driver below is the one implemented; an
 * S3-compatible driver would implement the same three calls (docs/architecture.md, "File storage").
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
const KEY = /^\d{4}\/\d{2}\/[0-9a-f-]{36}$/;

/** Files under `<dir>/<yyyy>/<mm>/<uuid>`, written to `<dir>/tmp` first and renamed when complete. */
export function fsStorage(dir: string): FileStorage {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`bad storage key ${key}`);
    return path.join(dir, key);
  };
  return {
    async put(source) {
      const now = new Date();
      const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${crypto.randomUUID()}`;
      const tmpDir = path.join(dir, 'tmp');
      await fs.promises.mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, path.basename(key));
      const hash = crypto.createHash('sha256');
      let size = 0;
      let head = Buffer.alloc(0);
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          if (head.length < HEAD_BYTES)
            head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, tap, fs.createWriteStream(tmp, { flags: 'wx' }));
        const file = fileOf(key);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      return { key, size, sha256: hash.digest('hex'), head };
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
