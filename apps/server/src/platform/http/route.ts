import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { APP_KEY_HEADER, authenticateSignedCall, type SecretBox } from '../auth/api-clients.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { cookieFrom, SESSION_COOKIE } from '../auth/session-cookie.ts';
import { type AuthUser, can, type SessionService } from '../auth/sessions.ts';
import type { Database, Db, DbKind } from '../db/db.ts';
import { readsFromReplica } from '../db/replica.ts';
import { forbidden, unauthenticated } from '../errors.ts';
import { exportScope } from '../export-files.ts';
import { compressStream } from './compress.ts';
import { asksAllRows, type HeavyReads, isHeavyUrl } from './heavy-reads.ts';
import { makeSerializer } from './serialize.ts';
import { parseOrThrow } from './validation.ts';

/** The Fastify instance every route module registers on (built by `app.ts`). */
export type App = FastifyInstance;

/**
 * What a route needs: `public` (no session), `authenticated` (any signed-in user) or a
 * permission string `area:resource:action` granted through a menu button or page node.
 */
export type Permission = 'public' | 'authenticated' | `${string}:${string}:${string}`;

export interface AppContext {
  db: Db;
  dbKind: DbKind;
  config: Config;
  sessions: SessionService;
  throttle: LoginThrottle;
  /** Encrypts the secrets of third-party apps. */
  secrets: SecretBox;
  /** LISTEN on a database channel (the live dashboards, `platform/live`). */
  listen: Database['listen'];
  /** What the live views compute on (`Database.liveDb`; else `db`). */
  liveDb: Db;
  /** The limits on heavy reads (`RouteSpec.heavy`). */
  heavyReads: HeavyReads;
}

export interface Ctx<B, Q, P> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: B;
  query: Q;
  params: P;
  /** The signed-in user; absent only on public routes. */
  user: AuthUser;
  app: AppContext;
}

export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  permission: Permission;
  /** Other permissions that also open this route (a report shown on two menu pages). */
  alsoAllowedBy?: Permission[];
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** The shape of the envelope's `result` (the OpenAPI document's answer). */
  response?: z.ZodType;
  /** The handler sends the reply itself (downloads); otherwise its result goes in the envelope. */
  raw?: boolean;
  /** Also accept the token from the `Admin-Token` cookie (GET downloads only). */
  cookieToken?: boolean;
  /**
   * A route open to any signed-in user that third-party apps may call too (their own export
   * files); other `authenticated` routes (profile, password, messages) are not for apps.
   */
  apps?: boolean;
  /**
   * A heavy read (every row, an export, a report): at most `HEAVY_READS_PER_USER` in flight per
   * user, and fewer connections than the pool holds for all of them (`heavy-reads.ts`). Unset:
   * decided from the URL (`isHeavyUrl`); a GET asking `pageNum=0` is heavy in any case.
   */
  heavy?: boolean;
  handler(ctx: Ctx<B, Q, P>): Promise<unknown>;
}

export interface RegisteredRoute {
  method: string;
  url: string;
  permission: Permission;
  alsoAllowedBy?: Permission[];
  /** The schemas it validates with, for the OpenAPI document (`openapi.ts`). */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The shape of its envelope's `result`, where declared. */
  response?: z.ZodType;
  /** A download or a stream: the handler answers itself, not in the envelope. */
  raw?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    ringmes: AppContext;
    ringmesRoutes: RegisteredRoute[];
  }
  interface FastifyRequest {
    user?: AuthUser;
    /** A signed call of a third-party app, authenticated once its body is read. */
    signedCall?: boolean;
  }
}

type Serializer = ReturnType<typeof makeSerializer>;
const serializers = new WeakMap<FastifyInstance, Serializer>();
/** The app's serializer for heavy answers (its date memo kept between them). */
function slicedSerializer(app: FastifyInstance): Serializer {
  let s = serializers.get(app);
  if (!s) {
    s = makeSerializer(app.ringmes.config.timeZone);
    serializers.set(app, s);
  }
  return s;
}

export function tokenFrom(req: FastifyRequest, allowCookie: boolean): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  const x = req.headers['x-token'];
  if (typeof x === 'string' && x) return x.trim();
  if (allowCookie && req.method === 'GET') return cookieFrom(req, SESSION_COOKIE);
  return undefined;
}

/** Registers one route: authentication and permission first, then schema validation, then the handler. */
export function route<B = undefined, Q = undefined, P = undefined>(
  app: FastifyInstance,
  spec: RouteSpec<B, Q, P>,
) {
  app.ringmesRoutes.push({
    method: spec.method,
    url: spec.url,
    permission: spec.permission,
    alsoAllowedBy: spec.alsoAllowedBy,
    body: spec.body,
    query: spec.query,
    params: spec.params,
    response: spec.response,
    raw: spec.raw,
  });
  const heavy = spec.heavy ?? isHeavyUrl(spec.method, spec.url);
  const authorize = (user: AuthUser) => {
    if (
      spec.permission !== 'authenticated' &&
      !can(user, spec.permission as string) &&
      !spec.alsoAllowedBy?.some((p) => can(user, p))
    ) {
      throw forbidden();
    }
  };
  app.route({
    method: spec.method,
    url: spec.url,
    onRequest: async (req) => {
      if (spec.permission === 'public') return;
      const token = tokenFrom(req, !!spec.cookieToken);
      if (!token && req.headers[APP_KEY_HEADER] !== undefined) {
        // The signature covers the body: checked in preValidation, after the body is read.
        req.signedCall = true;
        return;
      }
      if (!token) throw unauthenticated('未登录或登录已过期，请重新登录');
      const user = await app.ringmes.sessions.resolve(token);
      if (!user) throw unauthenticated('登录已失效，请重新登录');
      req.user = user;
      authorize(user);
    },
    // A callback hook: only a signed call has work here, and an async hook would cost every
    // request a promise and its turn of the queue.
    preValidation: (req, _reply, done) => {
      if (!req.signedCall) return done();
      const { db, secrets, sessions } = app.ringmes;
      authenticateSignedCall(db, secrets, sessions, req)
        .then((user) => {
          req.user = user;
          // An app acts only through permissions: routes open to any signed-in user (profile,
          // password, messages) are not for apps.
          if (spec.permission === 'authenticated' && !spec.apps) throw forbidden('第三方应用不能调用该接口');
          authorize(user);
        })
        .then(() => done(), done);
    },
    handler: (req, reply) =>
      heavy || (spec.method === 'GET' && asksAllRows(req.query))
        ? answerHeavy(req, reply)
        : spec.raw
          ? answer(req, reply)
          : answerLight(req, reply),
  });

  /** Any other answer: heavy reads give way to it while it is under way (`HeavyReads.giveWay`). */
  async function answerLight(req: FastifyRequest, reply: FastifyReply) {
    const { heavyReads } = app.ringmes;
    heavyReads.lightStarted();
    try {
      return await answer(req, reply);
    } finally {
      heavyReads.lightEnded();
    }
  }

  /**
   * A heavy read answers within its user's and the process's limits (`heavy-reads.ts`), its rows
   * serialized in slices between which other requests are served.
   */
  async function answerHeavy(req: FastifyRequest, reply: FastifyReply) {
    const heavy = {
      release: await app.ringmes.heavyReads.enter(req.user ? String(req.user.id) : undefined),
      held: false,
    };
    try {
      return await answer(req, reply, heavy);
    } finally {
      if (!heavy.held) heavy.release();
    }
  }

  async function answer(
    req: FastifyRequest,
    reply: FastifyReply,
    heavy?: { release(): void; held: boolean },
  ) {
    const ctx: Ctx<B, Q, P> = {
      req,
      reply,
      body: spec.body ? parseOrThrow(spec.body, req.body ?? {}, '请求体') : (undefined as B),
      query: spec.query ? parseOrThrow(spec.query, req.query ?? {}, '查询参数') : (undefined as Q),
      params: spec.params ? parseOrThrow(spec.params, req.params ?? {}, '路径参数') : (undefined as P),
      user: req.user as AuthUser,
      app: app.ringmes,
    };
    // A heavy read may be answered by the read replica (DATABASE_REPLICA_URL; db/replica.ts).
    // With S3 configured, export files the handler wrote go to the bucket before it answers.
    const run = () => exportScope(app.ringmes.config, () => spec.handler(ctx));
    const result = await (heavy && req.method === 'GET' ? readsFromReplica(run) : run());
    if (spec.raw) return reply;
    const envelope = { code: '200', message: '操作成功', result: result === undefined ? null : result };
    const pieces = heavy && slicedSerializer(app).inSlices(envelope, () => app.ringmes.heavyReads.giveWay());
    if (!pieces) return reply.send(envelope);
    const body = compressStream(req, reply, Readable.from(pieces, { objectMode: false }));
    // The heavy read's place is held until its rows are written: the stream closes at its end, or
    // when the client goes away.
    heavy.held = true;
    body.once('close', heavy.release);
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
