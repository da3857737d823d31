import { WORKSHOP_KINDS, workshopPaths } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Navigate, useLocation, useRouteError } from 'react-router';
import { http } from '../platform/api/client.ts';
import { ERROR_LOG_MARKER } from '../platform/error-log.ts';
import {
  allPagePaths,
  findNavTrail,
  firstPage,
  firstStaticPage,
  HOME_PATH,
  menuModel,
} from '../platform/menu/menu-model.ts';
import { useUser } from '../platform/session.ts';
import { redirectTarget } from './guard.tsx';
import { pageComponent } from './page-registry.ts';

/** Loading state inside the shell while a page chunk arrives. */
export function PageLoading() {
  return (
    <div className="rm-page-loading" role="status">
      <div className="rm-spinner" />
    </div>
  );
}

/** One page route: the registered component (or the module page) when the user may open it, else /401. */
export function RoutePage({ path }: { path: string }) {
  const user = useUser();
  if (!user) return null;
  if (!menuModel(user).canVisit(path)) return <Navigate to="/401" replace />;
  const Page = pageComponent(path);
  return (
    <Suspense fallback={<PageLoading />}>
      <Page path={path} />
    </Suspense>
  );
}

/** A directory route (e.g. /system): its first granted page. */
export function DirectoryRedirect({ path }: { path: string }) {
  const user = useUser();
  if (!user) return null;
  const model = menuModel(user);
  const trail = findNavTrail(model.nav, path);
  const target = trail ? firstPage(trail[trail.length - 1]) : undefined;
  if (target && target !== path) return <Navigate to={target} replace />;
  const fallback = firstStaticPage(path);
  if (fallback && model.canVisit(fallback)) return <Navigate to={fallback} replace />;
  return <Navigate to="/401" replace />;
}

/**
 * `/` → where the user's daily work is. The server picks it by the user's granted pages and where
 * open work waits (`GET /api/v1/cockpit/landing`, modules/dashboard/landing.ts: the keeper's
 * documents to post, the planner's orders to release…); an operator of several workshops lands on
 * the first of his queues, in menu order, that holds open work for him; without either, the
 * menu's rule (the sales order list, else the first page the user may open).
 */
export function LandingRedirect() {
  const user = useUser();
  const model = user ? menuModel(user) : undefined;
  const landing = model?.landingPath();
  const queues = model ? WORKSHOP_KINDS.filter((k) => model.canVisit(workshopPaths(k).operatorTask)) : [];
  const operator = queues.some((k) => workshopPaths(k).operatorTask === landing) && queues.length > 1;
  const own = useQuery({
    queryKey: ['landing', user?.userId],
    enabled: operator,
    queryFn: async () => {
      const lists = await Promise.all(
        queues.map((k) =>
          http
            .get<{ list: { status: string }[] }>(
              '/api/v1/work-dispatch/mine',
              { workshopType: k.type },
              { silent: true },
            )
            .then((r) => r.list)
            .catch(() => []),
        ),
      );
      const i = lists.findIndex((list) => list.some((r) => OPEN_DISPATCH.includes(r.status)));
      return i < 0 ? landing : workshopPaths(queues[i]).operatorTask;
    },
  });
  const work = useQuery({
    queryKey: ['landing', 'work', user?.userId],
    enabled: Boolean(model) && !operator,
    queryFn: () =>
      http
        .get<{ path: string | null }>('/api/v1/cockpit/landing', undefined, { silent: true })
        .then((r) => r.path)
        .catch(() => null),
  });
  if (!landing || !model) return null;
  if (operator) {
    if (own.isPending) return <PageLoading />;
    return <Navigate to={own.data || landing} replace />;
  }
  if (work.isPending) return <PageLoading />;
  // Only a page the menu lets the user open (the answer may carry a list filter).
  const target = work.data && model.canVisit(work.data.split('?')[0]) ? work.data : landing;
  return <Navigate to={target} replace />;
}

/** A dispatch still to be worked: 已派工, 已开工, 暂停. */
const OPEN_DISPATCH = ['dispatched', 'started', 'paused'];

/** /redirect/<path>: navigates back to <path> (used to refresh a tab). */
export function RedirectRoute() {
  const location = useLocation();
  return <Navigate to={redirectTarget(location.pathname, location.search)} replace />;
}

export function HomeRedirect() {
  return <Navigate to={HOME_PATH} replace />;
}

/** A crash of a route (or a chunk that failed to load): a message, never a blank screen. */
export function RouteError() {
  const error = useRouteError();
  console.error(ERROR_LOG_MARKER, 'route error', error);
  const chunk =
    error instanceof Error && /dynamically imported module|Importing a module script/i.test(error.message);
  return (
    <div className="rm-route-error">
      <h2>{chunk ? '页面资源加载失败' : '页面出现异常'}</h2>
      <p>
        {chunk
          ? '系统可能已更新，请刷新页面后重试。'
          : '很抱歉，页面运行出错，请刷新后重试；如问题持续出现，请联系管理员。'}
      </p>
      <button type="button" className="rm-plain-button" onClick={() => window.location.reload()}>
        刷新页面
      </button>{' '}
      <a className="rm-plain-link" href="/">
        返回首页
      </a>
    </div>
  );
}

export { allPagePaths };
