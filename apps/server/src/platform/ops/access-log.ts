import type { FastifyInstance } from 'fastify';

/** What a request's route is called in the access log and the metrics: its pattern, never the raw URL. */
export function routeOf(req: { routeOptions?: { url?: string } }): string {
  return req.routeOptions?.url ?? 'unmatched';
}

/**
 * One JSON line per answered request (`"msg":"access"`): request id, method, route pattern, path,
 * status, milliseconds, user id and client address. The path goes through the logger's `url`
 * serializer, which blanks token, ticket and password values; headers are never written. Server
 * errors and answers slower than a second are written at `warn`, the rest at `info`
 * (LOG_LEVEL=warn keeps only those).
 */
export function accessLog(app: FastifyInstance) {
  // Fastify's stand-in logger (logging off, most tests) has no isLevelEnabled: nothing to write.
  const log = app.log as FastifyInstance['log'] & { isLevelEnabled?(level: string): boolean };
  if (!log.isLevelEnabled) return;
  app.addHook('onResponse', (req, reply, done) => {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const status = reply.statusCode;
    const level = status >= 500 || ms > 1_000 ? 'warn' : 'info';
    if (log.isLevelEnabled?.(level)) {
      log[level](
        {
          reqId: req.id,
          method: req.method,
          route: routeOf(req),
          url: req.url,
          status,
          ms,
          userId: req.user?.id ?? null,
          ip: req.ip,
        },
        'access',
      );
    }
    done();
  });
}
