import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isApiError } from '../platform/api/errors.ts';
import { navigateTo } from '../platform/navigation.ts';
import { prefetchPageData, preloadPage } from '../platform/page.ts';
import { clearSession, loadUserInfo, loginPath, useSession } from '../platform/session.ts';
import { FullPageLoading } from '../platform/ui/full-page-loading.tsx';

/** Where a /redirect/<path> route leads (query kept). */
export function redirectTarget(pathname: string, search: string): string {
  const rest = pathname.replace(/^\/redirect/, '') || '/';
  return `${rest}${search}`;
}

/**
 * The route guard of spec section 4. No token: /login?redirect=<intended path>. Token but no
 * user info: load it (menu and permissions come with it), then render. Info failure: the
 * token is cleared, 'Verification failed, please Login again.' and /login. When the server
 * cannot be reached the session is kept and a retry is offered instead.
 * Per-page access (/401) is checked by each route element, which knows its path.
 */
export function AuthGuard() {
  const location = useLocation();
  const token = useSession((s) => s.token);
  const user = useSession((s) => s.user);
  const exitTo = useSession((s) => s.exitTo);
  const [unreachable, setUnreachable] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token || user || attempt < 0) return;
    let live = true;
    setUnreachable(false);
    // The page opened with a session (a reload, a link): its chunks and first data load with the
    // user's menu, not after it.
    preloadPage(window.location.pathname);
    prefetchPageData(window.location.pathname);
    loadUserInfo().catch((error: unknown) => {
      if (!live) return;
      // Network trouble (or the page is being left): keep the session and offer a retry.
      if (
        isApiError(error) &&
        (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'aborted')
      ) {
        setUnreachable(true);
        return;
      }
      const target = loginPath(`${window.location.pathname}${window.location.search}`);
      clearSession(target);
      void import('../platform/feedback.ts').then(({ toast }) =>
        toast.error('Verification failed, please Login again.'),
      );
      navigateTo(target, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [token, user, attempt]);

  if (!token) {
    // /redirect/* is an open route: no session needed to bounce back to the path.
    if (location.pathname.startsWith('/redirect/')) {
      return <Navigate to={redirectTarget(location.pathname, location.search)} replace />;
    }
    // A session ended on purpose goes where that decided (logout: plain /login).
    if (exitTo) return <Navigate to={exitTo} replace />;
    return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  }
  if (!user && unreachable) {
    return (
      <div className="rm-route-error" role="alert">
        <h2>无法连接服务器</h2>
        <p>暂时无法验证登录信息，请检查网络连接或稍后重试。</p>
        <button type="button" className="rm-plain-button" onClick={() => setAttempt((n) => n + 1)}>
          重新连接
        </button>
      </div>
    );
  }
  if (!user) return <FullPageLoading text="正在验证登录信息…" />;
  return <Outlet />;
}
