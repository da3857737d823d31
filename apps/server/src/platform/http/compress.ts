import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * JSON answers above ~1 KB go out compressed when the client accepts it: brotli (quality 4: about
 * gzip -9's ratio on JSON at a fraction of its CPU) or else gzip. Only serialized JSON bodies
 * (strings or buffers) are touched: streams (downloads, exports) and files (static assets, which
 * are precompressed at build time) pass through as they are.
 */
export const COMPRESS_MIN_BYTES = 1024;

const BROTLI_OPTIONS = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};
const GZIP_OPTIONS = { level: 6 };

/** The encoding to use for an Accept-Encoding header: br, gzip or none (q=0 refuses one). */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!accept) return undefined;
  let br = false;
  let gz = false;
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === '*') gz = true;
  }
  return br ? 'br' : gz ? 'gzip' : undefined;
}

/**
 * A JSON answer sent as a stream (a heavy read's rows, `serialize.ts` `inSlices`): compressed as
 * it goes when the client accepts it, which the onSend hook leaves to streams themselves.
 */
export function compressStream(req: FastifyRequest, reply: FastifyReply, body: Readable): Readable {
  reply.header('vary', 'accept-encoding');
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (!encoding) return body;
  reply.header('content-encoding', encoding);
  const zip = encoding === 'br' ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip(GZIP_OPTIONS);
  pipeline(body, zip, () => {});
  return zip;
}

/**
 * The onSend hook. A callback hook, not an async one: most answers pass through untouched, and an
 * async hook costs every request a promise and its turn of the queue.
 */
export function compressJson(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  if (req.method === 'HEAD' || reply.hasHeader('content-encoding')) return done(null, payload);
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json')) return done(null, payload);
  // A string's UTF-8 length is at least its length: counting bytes is needed only below the bound.
  const size =
    typeof payload === 'string' && payload.length < COMPRESS_MIN_BYTES
      ? Buffer.byteLength(payload)
      : payload.length;
  if (size < COMPRESS_MIN_BYTES) return done(null, payload);
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`);
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (!encoding) return done(null, payload);
  const compressed = (err: Error | null, body: Buffer) => {
    if (err) return done(err);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    done(null, body);
  };
  if (encoding === 'br') zlib.brotliCompress(payload, BROTLI_OPTIONS, compressed);
  else zlib.gzip(payload, GZIP_OPTIONS, compressed);
}
