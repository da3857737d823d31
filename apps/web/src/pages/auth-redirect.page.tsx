import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FullPageLoading } from '../app/full-page-loading.tsx';
import { safeRedirect } from '../app/navigation.ts';
import { sessionStore } from '../app/session.ts';
import { setToken } from '../platform/api/token.ts';

/**
 * /auth-redirect: the landing of an external sign-in. A `token` in the query becomes the
 * session; the user then continues to `redirect` (or the app's entry).
 */
export function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const token = params.get('token');
    if (token) {
      setToken(token);
      sessionStore.set({ token, user: null });
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } else {
      navigate('/login', { replace: true });
    }
  }, [params, navigate]);
  return <FullPageLoading text="正在跳转…" />;
}
