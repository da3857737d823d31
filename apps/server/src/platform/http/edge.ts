import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What every answer carries, whatever goes wrong: the security headers helmet would set with
 * this configuration (computed once) and the envelope. This file also answers the failures
 * Fastify and Node would otherwise answer in their own words: a bad or over-long URL, an
 * oversized header, a malformed request line.
 */
export const SECURITY_HEADERS = {
  // 'wasm-unsafe-eval' lets the page compile WebAssembly (the camera scan's ZXing reader, served
  // from our own assets); it does not allow eval() of JavaScript.
  'content-security-policy':
    "default-src 'self';script-src 'self' 'wasm-unsafe-eval';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** An error envelope; HTTP-level refusals carry code "400" (the request was bad), the status says which (413 carries "413"). */
export const errorEnvelope = (code: string, message: string) => ({ code, message, result: null });

/** Fastify's `frameworkErrors`: a URL it cannot decode, a path parameter over the router's limit. */
export function frameworkErrors(err: { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  reply.headers(SECURITY_HEADERS).header('x-request-id', req.id);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.status(414).send(errorEnvelope('400', '请求地址过长'));
  return reply.status(400).send(errorEnvelope('400', '请求地址格式不正确'));
}

/**
 * Node's `clientError` (before any request exists): an oversized header block (431, Node's
 * limit of 16 KB), a timeout or an unparsable request, answered on the raw socket.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, '请求头过大（上限 16 KB）']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, '请求超时']
        : [400, '请求格式不正确'];
  const body = JSON.stringify(errorEnvelope('400', message));
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** How much of an unread request body is read and discarded so that its answer arrives. */
const DRAIN_BYTES = 64 * 1_048_576;
const DRAIN_MS = 30_000;

/**
 * Sends an error answer after the rest of the request body has been read: a client still
 * uploading (a 5 MB body refused at 1 MB, a refused import) would otherwise see its connection
 * reset instead of the answer. Bodies beyond 64 MB or 30 s are cut off.
 */
export function sendAfterBody(req: FastifyRequest, reply: FastifyReply, status: number, body: unknown) {
  const raw = req.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return reply.status(status).send(body);
  reply.header('connection', 'close');
  let seen = 0;
  const cut = () => raw.socket?.destroy();
  const timer = setTimeout(() => {
    reply.status(status).send(body);
    cut();
  }, DRAIN_MS);
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) cut();
  });
  raw.once('end', () => {
    clearTimeout(timer);
    reply.status(status).send(body);
  });
  raw.once('close', () => clearTimeout(timer));
  // A multipart parser still piped to the request holds it back once its unread part fills up:
  // the rest of the body then never arrived and the answer waited the 30 s out.
  raw.unpipe();
  raw.resume();
  return reply;
}

/** Query parameters whose values are secrets (a live-board stream's `ticket` too): never written to a log. */
const SECRET_PARAM = /([?&](?:[\w-]*token|pass(?:word)?|secret|ticket)=)[^&#]*/gi;

/** The URL as it may be logged: token and password values replaced. */
export const redactUrl = (url: string) => url.replace(SECRET_PARAM, '$1[REDACTED]');

/** Pino options that keep credentials out of every log line (headers, cookies, URLs). */
export const logRedaction = {
  redact: {
    paths: ['authorization', 'cookie', 'x-token', 'admin-token', 'set-cookie'].flatMap((h) => [
      `headers["${h}"]`,
      `*.headers["${h}"]`,
    ]),
    censor: '[REDACTED]',
  },
  serializers: {
    url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
    req: (req: { method: string; url: string; id: string }) => ({
      method: req.method,
      url: redactUrl(req.url),
      id: req.id,
    }),
  },
};

type LogFn = (...args: any[]) => void;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger, made when the request first logs. Fastify gives every request a pino child
 * of its own, and pino writes the child's bindings through the redaction above on creation: garbage
 * and CPU on every request, when most requests never log (bench auth-overhead).
 */
class LazyLogger {
  #made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts?: ChildLoggerOptions,
  ) {}
  get #log(): FastifyBaseLogger {
    this.#made ??= this.parent.child(this.bindings, this.opts);
    return this.#made;
  }
  get level() {
    return this.#log.level;
  }
  set level(value: string) {
    this.#log.level = value;
  }
  fatal(...args: any[]) {
    (this.#log.fatal as LogFn)(...args);
  }
  error(...args: any[]) {
    (this.#log.error as LogFn)(...args);
  }
  warn(...args: any[]) {
    (this.#log.warn as LogFn)(...args);
  }
  info(...args: any[]) {
    (this.#log.info as LogFn)(...args);
  }
  debug(...args: any[]) {
    (this.#log.debug as LogFn)(...args);
  }
  trace(...args: any[]) {
    (this.#log.trace as LogFn)(...args);
  }
  silent() {}
  child(bindings: Bindings, opts?: ChildLoggerOptions) {
    return this.#log.child(bindings, opts);
  }
  isLevelEnabled(level: string): boolean {
    return (this.#log as any).isLevelEnabled(level);
  }
}

export const lazyChildLogger = (parent: FastifyBaseLogger, bindings: Bindings, opts?: ChildLoggerOptions) =>
  new LazyLogger(parent, bindings, opts) as unknown as FastifyBaseLogger;
