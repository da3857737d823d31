import { http } from './api/client.ts';
import { getToken, removeToken, setToken } from './api/token.ts';
import { loadMenuFilter } from './menu/built-pages.ts';
import { navigateTo } from './navigation.ts';
import { queryClient } from './query.ts';
import { createStore, useStore } from './store.ts';
import { tabsStore } from './tabs-store.ts';
import type { UserInfo } from './user.ts';

export type { ServerMenu, UserInfo } from './user.ts';

interface SessionState {
  token: string | undefined;
  user: UserInfo | null;
  /**
   * Where the app goes once the session has been ended on purpose (logout, expired session,
   * failed verification). Without it a missing token means "sign in first" and the guard
   * keeps the current path as the redirect.
   */
  exitTo?: string;
}

export const sessionStore = createStore<SessionState>({ token: getToken(), user: null });

export function useSession<S>(select: (s: SessionState) => S): S {
  return useStore(sessionStore, select);
}

export function useUser(): UserInfo | null {
  return useStore(sessionStore, (s) => s.user);
}

/** Signs in (the user name is trimmed) and keeps the token for the request headers. */
export async function login(userName: string, passWord: string): Promise<void> {
  const answer = await http.post<{ token: string }>('/api/v1/sso/login', {
    userName: userName.trim(),
    passWord,
    source: 'mes',
  });
  setToken(answer.token);
  sessionStore.set({ token: answer.token, user: null, exitTo: undefined });
  // Start loading the user (menu, permissions) now; the route guard picks up the same call.
  loadUserInfo().catch(() => undefined);
}

let pendingInfo: Promise<UserInfo> | null = null;

/**
 * Loads the signed-in user with the menu and permissions. Errors are handled by the caller
 * (the route guard): no toast, no automatic logout.
 */
export function loadUserInfo(): Promise<UserInfo> {
  const token = sessionStore.get().token;
  if (!token) return Promise.reject(new Error('no token'));
  if (!pendingInfo) {
    // The menus list only finished pages (unless 系统设置 says otherwise): known before they draw,
    // asked for alongside the user rather than after it.
    const filtered = loadMenuFilter();
    pendingInfo = http
      .get<UserInfo>('/api/v1/sso/getUserByToken', { token }, { silent: true, skipSessionHandling: true })
      .then(async (user) => {
        if (!user || typeof user !== 'object' || !user.userName) throw new Error('Verification failed');
        await filtered;
        if (sessionStore.get().token === token) sessionStore.set({ user });
        return user;
      })
      .finally(() => {
        pendingInfo = null;
      });
  }
  return pendingInfo;
}

/** Forgets the session: token, user (roles, menu), tabs and cached server state. */
export function clearSession(exitTo?: string): void {
  removeToken();
  sessionStore.set({ token: undefined, user: null, exitTo });
  tabsStore.reset();
  queryClient.clear();
}

/** The login page, optionally with the path to come back to. */
export function loginPath(redirect?: string): string {
  return redirect && !redirect.startsWith('/login')
    ? `/login?redirect=${encodeURIComponent(redirect)}`
    : '/login';
}

/**
 * Ends the session: the token is dropped at once and the app goes to /login; the server is told
 * in the background (best effort) so the token is revoked there too.
 */
export function logout(options: { redirect?: string } = {}): void {
  const token = sessionStore.get().token;
  const target = loginPath(options.redirect);
  clearSession(target);
  navigateTo(target, { replace: true });
  if (token) {
    void http
      .post('/vue-element-admin/user/logout', undefined, {
        silent: true,
        skipSessionHandling: true,
        headers: { Authorization: `Bearer ${token}`, 'X-Token': token },
      })
      .catch(() => undefined);
  }
}
