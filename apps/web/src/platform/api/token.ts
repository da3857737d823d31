/**
 * The token the client sends in the spec's headers (`Authorization`, `X-Token`), kept in local
 * storage. The `Admin-Token` cookie that GET downloads use is set by the server, HttpOnly: page
 * scripts neither read nor write it.
 */
const TOKEN_KEY = 'Admin-Token';

export function getToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) || undefined;
  } catch {
    return undefined;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function removeToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable: nothing kept
  }
}
