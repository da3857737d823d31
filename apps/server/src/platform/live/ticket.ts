import type { SecretBox } from '../auth/api-clients.ts';

/** How long a stream ticket opens a stream. */
export const TICKET_SECONDS = 60;

interface TicketBody {
  p: 'live';
  /** The session token the ticket was issued to (re-resolved when the stream opens). */
  t: string;
  /** The view it opens (a dashboard scope). */
  s: string;
  /** Expiry, epoch ms. */
  e: number;
}

/**
 * A stream ticket. `EventSource` cannot send headers, and a token in a URL would end up in logs,
 * so a signed-in page asks for a ticket with its header token and opens the stream with it: the
 * token and the view, sealed with the server key (AES-256-GCM, `SecretBox`), valid for 60 s. The
 * server key is shared by every process (API_SECRET_KEY), so any of them accepts it; the session
 * is resolved again when the stream opens, so a revoked session opens nothing.
 */
export function issueTicket(box: SecretBox, token: string, scope: string, now = Date.now()): string {
  const body: TicketBody = { p: 'live', t: token, s: scope, e: now + TICKET_SECONDS * 1000 };
  const { secretEnc, secretHash } = box.seal(JSON.stringify(body));
  return `${secretEnc.toString('base64url')}.${secretHash.toString('base64url')}`;
}

/** The ticket's token and view, or undefined when it is forged, damaged or expired. */
export function openTicket(
  box: SecretBox,
  ticket: string,
  now = Date.now(),
): { token: string; scope: string } | undefined {
  const [enc, hash] = ticket.split('.');
  if (!enc || !hash || ticket.length > 2000) return undefined;
  const text = box.open(Buffer.from(enc, 'base64url'), Buffer.from(hash, 'base64url'));
  if (!text) return undefined;
  try {
    const body = JSON.parse(text) as TicketBody;
    if (body.p !== 'live' || typeof body.t !== 'string' || typeof body.s !== 'string') return undefined;
    if (!(body.e > now)) return undefined;
    return { token: body.t, scope: body.s };
  } catch {
    return undefined;
  }
}
