import Cookies from 'js-cookie';

/** The session token lives in the `Admin-Token` cookie (also accepted by the server for GET downloads). */
export const TOKEN_COOKIE = 'Admin-Token';

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string): void {
  Cookies.set(TOKEN_COOKIE, token, { sameSite: 'Lax', path: '/' });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}
