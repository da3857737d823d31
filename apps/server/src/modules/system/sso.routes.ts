import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { verifyPassword } from '../../platform/auth/password.ts';
import { AppError, tooMany, unauthenticated } from '../../platform/errors.ts';
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

/** Failed attempts since the last success, inside the window. */
async function checkRateLimit(app: AppContext, userName: string, ip: string) {
  const { maxFailsPerUser, maxFailsPerIp, windowMinutes } = app.config.login;
  const r = await sql<{ byUser: number; byIp: number }>`
    SELECT
      (SELECT count(*) FROM login_attempt a
        WHERE lower(a.user_name) = lower(${userName}) AND NOT a.success
          AND a.at > now() - make_interval(mins => ${windowMinutes})
          AND a.at > coalesce((SELECT max(b.at) FROM login_attempt b
                                WHERE lower(b.user_name) = lower(${userName}) AND b.success), '-infinity')
      )::int AS by_user,
      (SELECT count(*) FROM login_attempt a
        WHERE a.ip = ${ip} AND NOT a.success AND a.at > now() - make_interval(mins => ${windowMinutes}))::int AS by_ip`.execute(
    app.db,
  );
  const { byUser, byIp } = r.rows[0];
  if (byUser >= maxFailsPerUser || byIp >= maxFailsPerIp) {
    throw tooMany(`登录失败次数过多，请 ${windowMinutes} 分钟后再试`);
  }
}

export function ssoRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/sso/login',
    permission: 'public',
    body: loginBody,
    async handler({ body, req, app: ctx }) {
      const ip = req.ip ?? 'unknown';
      await checkRateLimit(ctx, body.userName, ip);
      const user = await ctx.db
        .selectFrom('appUser')
        .select(['id', 'passwordHash', 'status'])
        .where(sql`lower(user_name)`, '=', body.userName.toLowerCase())
        .executeTakeFirst();
      const ok = await verifyPassword(user?.passwordHash, body.passWord);
      await ctx.db
        .insertInto('loginAttempt')
        .values({ userName: body.userName.slice(0, 100), ip, success: ok })
        .execute();
      if (!ok || !user) throw new AppError(401, '401', '用户名或密码错误');
      if (user.status !== '1') throw new AppError(401, '401', '账号已停用，请联系管理员');
      const token = await ctx.sessions.create(user.id, ip, req.headers['user-agent']);
      return { token };
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
        menuList: toTree(menus),
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/vue-element-admin/user/logout',
    permission: 'public',
    async handler({ req, app: ctx }) {
      const token = tokenFrom(req, false);
      if (token) await ctx.sessions.revoke(token);
      return null;
    },
  });
}
