import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { http } from '../platform/api/client.ts';
import { setToken } from '../platform/api/token.ts';
import { safeRedirect } from '../platform/navigation.ts';
import { sessionStore } from '../platform/session.ts';
import { FullPageLoading } from '../platform/ui/full-page-loading.tsx';

/** One exchange per code, even when an effect runs twice (React's strict mode). */
const exchanges = new Map<string, Promise<{ token: string }>>();
function exchange(code: string) {
  let p = exchanges.get(code);
  if (!p) {
    p = http.post<{ token: string }>('/api/v1/sso/exchange', { code });
    exchanges.set(code, p);
  }
  return p;
}

/**
 * /auth-redirect: the landing of a single sign-on hand-off. The one-time `code` (never a session
 * token) is exchanged by the server, which accepts it only in the browser that asked for it and
 * within 60 s; then the user continues to `redirect` (or the app's entry). Anything else in the
 * query is ignored, so a link cannot replace the signed-in session.
 */
export function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const code = params.get('code');
    const target = safeRedirect(params.get('redirect'));
    if (!code) {
      navigate(sessionStore.get().token ? target : '/login', { replace: true });
      return;
    }
    let cancelled = false;
    exchange(code)
      .then(({ token }) => {
        if (cancelled) return;
        setToken(token);
        sessionStore.set({ token, user: null });
        navigate(target, { replace: true });
      })
      .catch(() => {
        if (!cancelled) navigate(sessionStore.get().token ? target : '/login', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [params, navigate]);
  return <FullPageLoading text="正在跳转…" />;
}
