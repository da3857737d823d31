import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { verifyPassword } from '../../platform/auth/password.ts';
import { cookieFrom, SESSION_COOKIE, setCookie } from '../../platform/auth/session-cookie.ts';
import type { Db } from '../../platform/db/db.ts';
import { AppError, tooMany, unauthenticated } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type AppContext, route, tokenFrom } from '../../platform/http/route.ts';
import { grantedMenus, toTree } from './menu.service.ts';
import { userInfo } from './user.service.ts';

const loginBody = z.strictObject({
  userName: z
    .string({ error: '请输入用户名' })
    .trim()
    .min(1, '请输入用户名')
    .max(40, '用户名不能超过 40 个字符'),
  passWord: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码不能超过 128 个字符'),
  source: z.string().max(20).optional(),
});

/** Has the user signed in from this address during the last 30 days? */
async function knownAddress(db: Db, userId: number, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom('userSession')
    .select('id')
    .where('userId', '=', userId)
    .where('ip', '=', ip.slice(0, 64))
    .where('createdAt', '>', sql<Date>`now() - interval '30 days'`)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** A new session: the token in the answer (the spec's header token) and in the HttpOnly cookie. */
async function startSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number) {
  const token = await ctx.sessions.create(userId, req.ip ?? 'unknown', req.headers['user-agent']);
  const { absoluteHours } = await ctx.sessions.timeouts();
  setCookie(req, reply, SESSION_COOKIE, token, { maxAgeSeconds: absoluteHours * 3600 });
  return { token };
}

const HANDOFF_SECONDS = 60;
/** The cookie that binds a hand-off code to the browser that asked for it. */
const BINDING_COOKIE = 'RM-SSO-Binding';
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest();

export function ssoRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/sso/login',
    permission: 'public',
    body: loginBody,
    async handler({ body, req, reply, app: ctx }) {
      const ip = req.ip ?? 'unknown';
      const user = await ctx.db
        .selectFrom('appUser')
        .select(['id', 'passwordHash', 'status'])
        .where(sql`lower(user_name)`, '=', body.userName.toLowerCase())
        .executeTakeFirst();
      const limited = await ctx.throttle.admit(
        body.userName,
        ip,
        !!user && (await knownAddress(ctx.db, user.id, ip)),
        !!user,
      );
      const ok = await verifyPassword(user?.passwordHash, body.passWord);
      await ctx.db
        .insertInto('loginAttempt')
        .values({ userName: body.userName.slice(0, 100), ip, success: ok })
        .execute();
      if (!ok || !user) throw limited ? tooMany(limited) : new AppError(401, '401', '用户名或密码错误');
      await ctx.throttle.succeeded(body.userName, ip);
      if (user.status !== '1') throw new AppError(401, '401', '账号已停用，请联系管理员');
      return startSession(ctx, req, reply, user.id);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/sso/getUserByToken',
    permission: 'public',
    query: z.object({ token: z.string().max(200).optional() }),
    async handler({ query, req, app: ctx }) {
      const token = query.token || tokenFrom(req, false);
      const user = token ? await ctx.sessions.resolve(token) : undefined;
      if (!user) throw unauthenticated('登录已失效，请重新登录');
      const info = await userInfo(ctx.db, user.id);
      const menus = await grantedMenus(ctx.db, user);
      return {
        ...info,
        permissions: user.isAdmin ? ['*:*:*'] : [...user.permissions].sort(),
        menuList: toTree(menus, 'profile'),
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/vue-element-admin/user/logout',
    permission: 'public',
    async handler({ req, reply, app: ctx }) {
      const token = tokenFrom(req, false);
      if (token) await ctx.sessions.revoke(token);
      setCookie(req, reply, SESSION_COOKIE, undefined, { maxAgeSeconds: 0 });
      return null;
    },
  });

  // Single sign-on hand-off (architecture.md, "Accounts and sign-in"): a signed-in page asks for
  // a one-time code, bound to its browser by an HttpOnly cookie; /auth-redirect?code=… in the
  // same browser exchanges it here within 60 s for a session. A code sent to someone else's
  // browser is worthless there, and no session token ever travels in a URL.
  route(app, {
    method: 'POST',
    url: '/api/v1/sso/handoff',
    permission: 'authenticated',
    async handler({ req, reply, user, app: ctx }) {
      let binding = cookieFrom(req, BINDING_COOKIE);
      if (!binding || !/^[\w-]{43}$/.test(binding)) {
        binding = crypto.randomBytes(32).toString('base64url');
        setCookie(req, reply, BINDING_COOKIE, binding, { maxAgeSeconds: 86_400, path: '/api/v1/sso' });
      }
      const code = crypto.randomBytes(32).toString('base64url');
      await ctx.db
        .insertInto('ssoCode')
        .values({
          codeHash: sha256(code),
          bindingHash: sha256(binding),
          userId: user.id,
          expiresAt: sql`now() + make_interval(secs => ${HANDOFF_SECONDS})`,
        })
        .execute();
      await ctx.db
        .deleteFrom('ssoCode')
        .where('expiresAt', '<', sql<Date>`now() - interval '1 day'`)
        .execute();
      return { code, url: `/auth-redirect?code=${code}`, expiresIn: HANDOFF_SECONDS };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/sso/exchange',
    permission: 'public',
    body: z.strictObject({ code: z.string({ error: '缺少登录码' }).min(1, '缺少登录码').max(100) }),
    async handler({ body, req, reply, app: ctx }) {
      const binding = cookieFrom(req, BINDING_COOKIE) ?? '';
      const used = await ctx.db
        .updateTable('ssoCode')
        .set({ usedAt: sql`now()` })
        .where('codeHash', '=', sha256(body.code))
        .where('bindingHash', '=', sha256(binding))
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning('userId')
        .executeTakeFirst();
      const user =
        used &&
        (await ctx.db
          .selectFrom('appUser')
          .select('id')
          .where('id', '=', used.userId)
          .where('status', '=', '1')
          .executeTakeFirst());
      if (!user) throw new AppError(401, '401', '登录链接无效或已过期，请重新登录');
      return startSession(ctx, req, reply, user.id);
    },
  });
}
