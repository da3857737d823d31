import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { type Config, trustProxyOption } from './config.ts';
import { registerModules } from './modules/index.ts';
import { searchRoutes } from './modules/system/timeline/search.ts';
import { timelineRoutes } from './modules/system/timeline/timeline.routes.ts';
import { SecretBox } from './platform/auth/api-clients.ts';
import { LoginThrottle } from './platform/auth/login-throttle.ts';
import { SessionService } from './platform/auth/sessions.ts';
import { dateWindowHook } from './platform/date-window.ts';
import type { Database } from './platform/db/db.ts';
import {
  AppError,
  badRequest,
  fromDatabaseError,
  isConnectionError,
  unavailable,
} from './platform/errors.ts';
import { compressJson } from './platform/http/compress.ts';
import {
  clientErrorHandler,
  errorEnvelope,
  frameworkErrors,
  lazyChildLogger,
  logRedaction,
  SECURITY_HEADERS,
  sendAfterBody,
} from './platform/http/edge.ts';
import { HeavyReads } from './platform/http/heavy-reads.ts';
import { formFault } from './platform/http/multipart.ts';
import type { AppContext } from './platform/http/route.ts';
import { makeSerializer } from './platform/http/serialize.ts';
import { jsonTooDeep, MAX_JSON_DEPTH, refuseNul } from './platform/http/validation.ts';
import { accessLog } from './platform/ops/access-log.ts';
import { checkHealth } from './platform/ops/health.ts';
import { registerMetrics } from './platform/ops/metrics.ts';
import { listViewRoutes } from './platform/resource/list-views.ts';
import { setBusinessTimeZone } from './platform/resource/query.ts';

const API_PREFIXES = ['/api/', '/common/', '/vue-element-admin/'];

export async function buildApp(
  database: Database,
  config: Config,
  opts: { logger?: boolean; logStream?: NodeJS.WritableStream; loggerInstance?: FastifyBaseLogger } = {},
) {
  const app = Fastify({
    // main.ts hands over the process's one logger (made with logRedaction), so every line is JSON.
    ...(opts.loggerInstance
      ? { loggerInstance: opts.loggerInstance }
      : {
          logger:
            opts.logger === false
              ? false
              : { level: config.logLevel, stream: opts.logStream, ...logRedaction },
        }),
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1_048_576,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,60}$/.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
    // `req.ip` from X-Forwarded-For only through the proxies named by TRUST_PROXY (sign-in limits,
    // sessions, app address lists); otherwise the header is ignored.
    trustProxy: trustProxyOption(config.trustProxy),
    // No automatic HEAD twin for each of the ~1,400 GET routes (a third of route registration at
    // every start); the web app's files and /api/health answer HEAD (exposeHeadRoute below).
    exposeHeadRoutes: false,
    // Input is validated with zod (platform/http/validation.ts) and answers are serialised by
    // makeSerializer, never by JSON schemas: Fastify's own compilers (ajv and fast-json-stringify,
    // a noticeable part of a warm start to load) are not built. A route given a JSON schema fails at start.
    schemaController: {
      compilersFactory: {
        buildValidator: () => () => {
          throw new Error('RingMES routes validate with zod, not JSON schemas');
        },
        buildSerializer: () => () => {
          throw new Error('RingMES answers are serialised by makeSerializer, not JSON schemas');
        },
      },
    },
    frameworkErrors,
    clientErrorHandler,
  });

  const ctx: AppContext = {
    db: database.db,
    dbKind: database.kind,
    config,
    sessions: new SessionService(database.db, config.session),
    throttle: new LoginThrottle(database.db, config.login),
    secrets: new SecretBox(config),
    listen: database.listen,
    liveDb: database.liveDb ?? database.db,
    // Heavy reads take at most all but two of the pool's connections; on PGlite, whose one backend
    // runs one statement at a time, two (a posting's statements queue behind at most two of theirs).
    heavyReads: new HeavyReads(
      config.heavyReadsPerUser,
      database.kind === 'postgres' ? Math.max(1, config.pgPoolMax - 2) : 2,
    ),
  };
  app.decorate('ringmes', ctx);
  // Session revocations and grant changes of every process (LISTEN/NOTIFY, platform/auth/sessions.ts).
  await ctx.sessions.follow(database.listen, (msg, err) => app.log.warn({ err }, msg));
  app.addHook('onClose', () => ctx.sessions.unfollow());
  app.decorate('ringmesRoutes', []);
  app.decorateRequest('user', undefined);

  app.setReplySerializer(makeSerializer(config.timeZone));
  setBusinessTimeZone(config.timeZone);
  // JSON bodies as Fastify parses them; a signed call of a third-party app also keeps the raw
  // text, which its signature covers.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // Refused before parsing: every later walk of the value (the NUL check, the schemas, the
    // serializer) recurses, and 100,000 nested arrays overflowed the stack there (a 500).
    if (jsonTooDeep(body as string, MAX_JSON_DEPTH))
      return done(badRequest(`请求体嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`), undefined);
    if (req.headers['x-app-key'] !== undefined) req.rawBody = body as string;
    parseJson(req, body as string, done);
  });
  // Excel uploads (imports) arrive as the raw file.
  app.addContentTypeParser(
    ['application/octet-stream', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    { parseAs: 'buffer', bodyLimit: 20 * 1_048_576 },
    (_req, body, done) => done(null, body),
  );
  // Attachment uploads (platform/attachments): streamed part by part, never buffered; the size
  // limit is applied per route from the configuration.
  await app.register(fastifyMultipart, { limits: { fileSize: config.attachmentMaxBytes, files: 1 } });
  accessLog(app);
  registerMetrics(app, database, config.metrics);

  // The security headers helmet would set with this configuration, computed once (@fastify/helmet
  // rebuilds its middleware, CSP string included, on every request).
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', req.id);
    done();
  });

  app.addHook('preValidation', refuseNul);
  app.addHook('preValidation', dateWindowHook(database.db));
  app.addHook('onSend', compressJson);

  app.setErrorHandler((err: any, req, reply) => {
    let e: AppError | undefined = err instanceof AppError ? err : fromDatabaseError(err);
    if (!e && isConnectionError(err)) e = unavailable();
    if (!e) e = formFault(err);
    if (!e && typeof err.code === 'string' && err.code.startsWith('FST_')) e = fastifyError(err);
    if (!e) {
      req.log.error({ err, method: req.method, url: req.url }, 'unhandled error');
      return sendAfterBody(req, reply, 500, { code: '500', message: '系统繁忙，请稍后重试', result: null });
    }
    if (e.status >= 500) req.log.warn({ err, url: req.url }, e.message);
    const body: Record<string, unknown> = { code: e.code, message: e.message, result: null };
    if (e.errors) body.errors = e.errors;
    return sendAfterBody(req, reply, e.status, body);
  });

  const webIndex = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(webIndex);
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (
      hasWeb &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !API_PREFIXES.some((p) => url.startsWith(p)) &&
      !path.extname(url)
    ) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ code: '404', message: `接口不存在：${req.method} ${url}`, result: null });
  });

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: false,
      // scripts/compress.mjs of apps/web writes .br and .gz beside every text asset at build time.
      preCompressed: true,
      setHeaders(res: any, file: string) {
        // Hashed assets never change; everything else is revalidated. (@fastify/static hands over
        // the Fastify reply here, older versions the raw response.)
        const value = file.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache';
        if (typeof res.header === 'function') res.header('cache-control', value);
        else res.setHeader('cache-control', value);
      },
    });
    app.get('/', { exposeHeadRoute: true }, (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    });
  }

  // Liveness with a look at the database (docs/operations.md, "Monitoring"): 503 when it does not
  // answer. Readiness: also 503 while migrations of this release are pending.
  app.get('/api/health', { exposeHeadRoute: true }, async (_req, reply) => {
    const health = await checkHealth(database);
    if (health.status !== 'ok') return reply.status(503).send(errorEnvelope('503', '数据库不可用'));
    return { code: '200', message: '操作成功', result: health };
  });
  app.get('/api/ready', async (_req, reply) => {
    const health = await checkHealth(database);
    if (health.status !== 'ok') return reply.status(503).send(errorEnvelope('503', '数据库不可用'));
    if (health.migrationsPending > 0)
      return reply
        .status(503)
        .send(errorEnvelope('503', `数据库迁移未完成（${health.migrationsPending} 个待应用）`));
    return { code: '200', message: '操作成功', result: health };
  });
  app.ringmesRoutes.push({ method: 'GET', url: '/api/health', permission: 'public' });
  app.ringmesRoutes.push({ method: 'GET', url: '/api/ready', permission: 'public' });

  registerModules(app);
  // Any record's 动态 (history, comments, files) and 全局搜索 (issue 41).
  timelineRoutes(app);
  searchRoutes(app);
  // Saved views of the kit's lists (issue 41 §5).
  listViewRoutes(app);
  return app;
}

function fastifyError(err: any): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, '400', '请求体不是有效的 JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, '413', '请求体过大（上限 1 MB）');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, '400', '不支持的请求内容类型，请使用 application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, '400', '请求长度不正确');
    default:
      if (err.statusCode >= 400 && err.statusCode < 500) return new AppError(400, '400', '请求格式不正确');
      return undefined;
  }
}
