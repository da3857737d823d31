import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { SecretBox } from '../auth/api-clients.ts';
import type { Db } from '../db/db.ts';

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
  /** A random nonce: the ticket opens one stream (`spendTicket`). */
  n: string;
}

export interface OpenedTicket {
  token: string;
  scope: string;
  nonce: string;
  expiresAt: number;
}

/**
 * A stream ticket. `EventSource` cannot send headers, and a token in a URL would end up in logs,
 * so a signed-in page asks for a ticket with its header token and opens the stream with it: the
 * token and the view, sealed with the server key (AES-256-GCM, `SecretBox`), valid for 60 s and
 * for one stream. The server key is shared by every process (API_SECRET_KEY), so any of them
 * accepts it; the session is resolved again when the stream opens, so a revoked session opens
 * nothing.
 */
export function issueTicket(box: SecretBox, token: string, scope: string, now = Date.now()): string {
  const body: TicketBody = {
    p: 'live',
    t: token,
    s: scope,
    e: now + TICKET_SECONDS * 1000,
    n: crypto.randomBytes(16).toString('base64url'),
  };
  const { secretEnc, secretHash } = box.seal(JSON.stringify(body));
  return `${secretEnc.toString('base64url')}.${secretHash.toString('base64url')}`;
}

/** The ticket's token, view and nonce, or undefined when it is forged, damaged or expired. */
export function openTicket(box: SecretBox, ticket: string, now = Date.now()): OpenedTicket | undefined {
  const [enc, hash] = ticket.split('.');
  if (!enc || !hash || ticket.length > 2000) return undefined;
  const text = box.open(Buffer.from(enc, 'base64url'), Buffer.from(hash, 'base64url'));
  if (!text) return undefined;
  try {
    const body = JSON.parse(text) as TicketBody;
    if (body.p !== 'live' || typeof body.t !== 'string' || typeof body.s !== 'string') return undefined;
    if (typeof body.n !== 'string' || body.n.length > 40) return undefined;
    if (!(body.e > now)) return undefined;
    return { token: body.t, scope: body.s, nonce: body.n, expiresAt: body.e };
  } catch {
    return undefined;
  }
}

/**
 * Spends a ticket: true the first time, in whichever process; false ever after. A ticket that
 * leaked (a proxy's log, a shared screen) opened any number of streams until it expired.
 * Nonces are kept until their ticket would have expired, then cleared out by later spends.
 */
export async function spendTicket(db: Db, ticket: OpenedTicket): Promise<boolean> {
  const r = await sql<{ nonce: string }>`
    WITH gone AS (DELETE FROM live_ticket_spent WHERE expires_at < now() - interval '1 minute')
    INSERT INTO live_ticket_spent (nonce, expires_at)
    VALUES (${ticket.nonce}, to_timestamp(${ticket.expiresAt / 1000}))
    ON CONFLICT (nonce) DO NOTHING
    RETURNING nonce`.execute(db);
  return r.rows.length === 1;
}
