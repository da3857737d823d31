import { WORKSHOP_KINDS } from '@ringmes/domain';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import { forbidden, unauthenticated } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route, tokenFrom } from '../../platform/http/route.ts';
import { parseOrThrow } from '../../platform/http/validation.ts';
import { LiveHub, type LiveView } from '../../platform/live/hub.ts';
import { issueTicket, openTicket, spendTicket, TICKET_SECONDS } from '../../platform/live/ticket.ts';
import { BOARD_PERMISSIONS, mayReadBoard, taskBoard } from '../production/workshop-task.ts';
import {
  DASHBOARD_SCOPES,
  type DashboardScope,
  dashboardSnapshot,
  scopePermission,
} from './dashboard-data.ts';

/**
 * 车间看板 (全厂 and the four workshops), live. The page reads a snapshot, then keeps a
 * Server-Sent Events stream open; every posting, dispatch change or repair change anywhere
 * NOTIFYs `ringmes_live` in its transaction, and the hub of each server process recomputes each
 * affected scope once and writes it to all of that scope's streams (`platform/live/hub.ts`).
 * The four workshops' task boards (生产管理 › 车加工看板 …, scope `board:<workshop>`) ride the same
 * channel: their tasks as `GET /workshop-task/board` answers them, pushed on every task change.
 */

const scopeSchema = z.enum(DASHBOARD_SCOPES as [DashboardScope, ...DashboardScope[]], {
  error: '看板范围应为 whole、machine、grinding、inspect 或 assembly',
});
const scopeQuery = z.strictObject({ scope: scopeSchema });

/** A workshop's task board on the live channel. */
type BoardScope = `board:${string}`;
const BOARD_SCOPES = WORKSHOP_KINDS.map((k) => `board:${k.type}` as BoardScope);
type LiveScope = DashboardScope | BoardScope;
const liveScopeSchema = z.enum([...DASHBOARD_SCOPES, ...BOARD_SCOPES] as [LiveScope, ...LiveScope[]], {
  error: '看板范围应为 whole、machine、grinding、inspect、assembly 或 board:<车间>',
});
const ticketBody = z.strictObject({ scope: liveScopeSchema });
const boardOf = (scope: LiveScope) => (scope.startsWith('board:') ? scope.slice(6) : undefined);
const streamQuery = z.strictObject({ ticket: z.string().min(1, '缺少看板连接凭证').max(2000) });

const WHOLE = scopePermission('whole');
const OTHERS = DASHBOARD_SCOPES.filter((s) => s !== 'whole').map((s) => scopePermission(s) as Permission);

/** How often an open stream checks its session and permission again. */
const RECHECK_MS = 60_000;

const hubs = new WeakMap<App, LiveHub>();

/** The live hub of an app (tests and the bench read its counters). */
export function dashboardHub(app: App): LiveHub | undefined {
  return hubs.get(app);
}

function mayOpen(user: AuthUser, scope: LiveScope): boolean {
  const board = boardOf(scope);
  return board ? mayReadBoard(user, board) : can(user, scopePermission(scope as DashboardScope));
}

function assertScope(user: AuthUser, scope: LiveScope) {
  if (!mayOpen(user, scope)) throw forbidden('没有查看该看板的权限');
}

export function dashboardRoutes(app: App) {
  const { db, liveDb, config, sessions, secrets } = app.ringmes;
  const hub = new LiveHub(app.ringmes.listen, (msg, err) => app.log.error({ err }, msg));
  hubs.set(app, hub);
  app.addHook('preClose', async () => {
    await hub.stop();
  });

  const views = new Map<LiveScope, LiveView>([
    ...DASHBOARD_SCOPES.map((scope): [LiveScope, LiveView] => [
      scope,
      {
        key: `dashboard:${scope}`,
        compute: () => dashboardSnapshot(liveDb, scope, config.timeZone),
        affects: (e) => scope === 'whole' || !e.workshop || e.workshop === scope,
      },
    ]),
    // A board lists tasks: a dispatch change (every recount, 报工入账 among them) or a task made,
    // removed or closed in its workshop; repairs do not touch it.
    ...BOARD_SCOPES.map((scope): [LiveScope, LiveView] => [
      scope,
      {
        key: scope,
        compute: () => taskBoard(liveDb, boardOf(scope) as string),
        affects: (e) =>
          (e.topic === 'dispatch' || e.topic === 'task') && (!e.workshop || e.workshop === boardOf(scope)),
      },
    ]),
  ]);

  route(app, {
    method: 'GET',
    url: '/api/v1/dashboard/snapshot',
    permission: WHOLE,
    alsoAllowedBy: OTHERS,
    query: scopeQuery,
    async handler({ user, query }) {
      assertScope(user, query.scope);
      return dashboardSnapshot(db, query.scope, config.timeZone);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/dashboard/ticket',
    permission: WHOLE,
    alsoAllowedBy: [...OTHERS, ...BOARD_PERMISSIONS],
    body: ticketBody,
    async handler({ req, user, body }) {
      assertScope(user, body.scope);
      const token = tokenFrom(req, false);
      if (!token) throw forbidden('第三方应用不能打开实时看板');
      return { ticket: issueTicket(secrets, token, body.scope), expiresIn: TICKET_SECONDS };
    },
  });

  // The stream: authenticated by its ticket (EventSource sends no headers), so the route itself
  // is public in the route table; the ticket's session and the scope's permission are checked
  // here and again every minute while it stays open.
  app.ringmesRoutes.push({ method: 'GET', url: '/api/v1/dashboard/stream', permission: 'public' });
  app.get('/api/v1/dashboard/stream', async (req, reply) => {
    const { ticket } = parseOrThrow(streamQuery, req.query ?? {}, '查询参数');
    const opened = openTicket(secrets, ticket);
    if (!opened) throw unauthenticated('看板连接凭证无效或已过期，请刷新页面');
    const scope = liveScopeSchema.safeParse(opened.scope);
    if (!scope.success) throw unauthenticated('看板连接凭证无效或已过期，请刷新页面');
    const user = await sessions.resolve(opened.token);
    if (!user) throw unauthenticated('登录已失效，请重新登录');
    assertScope(user, scope.data);
    if (!(await spendTicket(db, opened))) throw unauthenticated('看板连接凭证已使用，请刷新页面');

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    const recheck = async () => {
      const still = await sessions.resolve(opened.token).catch(() => undefined);
      if (!still || !mayOpen(still, scope.data)) res.end();
    };
    // Expiry is seen by the minute; logout, a password change, a disabled user or changed grants at
    // once, in every process (SESSION_CHANNEL): the stream ends within moments, not a minute later.
    const timer = setInterval(recheck, RECHECK_MS);
    timer.unref();
    const unwatch = sessions.watch((userId) => {
      if (userId === undefined || userId === user.id) void recheck();
    });
    res.on('close', () => {
      clearInterval(timer);
      unwatch();
    });
    try {
      await hub.subscribe(views.get(scope.data) as LiveView, res);
    } catch (err) {
      req.log.error({ err }, '实时看板订阅失败');
      res.end();
    }
  });
}
