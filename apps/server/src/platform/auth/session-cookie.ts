import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie (the spec's "authentication cookie"); read by the server on GET downloads only. */
export const SESSION_COOKIE = 'Admin-Token';

/** Over https (directly, or behind a proxy that says so) cookies are also `Secure`. */
function secure(req: FastifyRequest): string {
  return req.protocol === 'https' || req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
}

/**
 * Sets (or with `token` undefined clears) an HttpOnly, SameSite=Lax cookie. The session cookie
 * is only ever set here, by the server: page scripts can neither read nor forge it.
 */
export function setCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string | undefined,
  opts: { maxAgeSeconds: number; path?: string },
): void {
  const maxAge = value === undefined ? 0 : opts.maxAgeSeconds;
  const cookie = `${name}=${value ?? ''}; Path=${opts.path ?? '/'}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure(req)}`;
  const prior = reply.getHeader('set-cookie');
  reply.header('set-cookie', prior ? [...(Array.isArray(prior) ? prior : [String(prior)]), cookie] : cookie);
}

export function cookieFrom(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
