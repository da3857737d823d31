/** Who is calling, sent next to the token (the server never trusts these for identity). */
export interface CallerIdentity {
  userId?: string | number | null;
  userName?: string | null;
  firstName?: string | null;
}

/** base64 of the UTF-8 bytes of a string, so Chinese names survive an HTTP header. */
export function base64Utf8(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Decodes what base64Utf8 produced (used by tests and diagnostics). */
export function decodeBase64Utf8(value: string): string {
  const binary = atob(value);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The headers every call carries when a token exists: the token twice (Authorization bearer
 * and X-Token) plus user id, user name and first name as base64 of UTF-8 (spec section 7).
 */
export function buildAuthHeaders(
  token: string | undefined,
  identity?: CallerIdentity | null,
): Record<string, string> {
  if (!token) return {};
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    'X-Token': token,
  };
  if (identity?.userId != null && identity.userId !== '')
    headers['X-User-Id'] = base64Utf8(String(identity.userId));
  if (identity?.userName) headers['X-User-Name'] = base64Utf8(identity.userName);
  if (identity?.firstName) headers['X-First-Name'] = base64Utf8(identity.firstName);
  return headers;
}
