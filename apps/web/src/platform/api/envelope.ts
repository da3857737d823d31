/** Every server answer: `{ code, message, result }`; validation errors add `errors`. */
export interface Envelope<T = unknown> {
  code: string | number;
  message?: string;
  msg?: string;
  result?: T;
  errors?: FieldError[];
}

export interface FieldError {
  field: string;
  message: string;
}

/** Codes that mean "your session is gone; log in again" (spec section 8). */
export const RELOGIN_CODES: readonly number[] = [50008, 50012, 50014];

export type EnvelopeOutcome =
  | { kind: 'success' }
  | { kind: 'session-expired' }
  | { kind: 'relogin' }
  | { kind: 'error' };

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value;
}

/** "200" (and numeric 200) and numeric 20000 are success. */
export function isSuccessCode(code: unknown): boolean {
  return code === '200' || code === 200 || code === 20000;
}

/** Applies the error catalogue of spec section 8 to an envelope's code. */
export function classifyEnvelope(envelope: Envelope): EnvelopeOutcome {
  const { code } = envelope;
  if (isSuccessCode(code)) return { kind: 'success' };
  if (code === '407' || code === 407) return { kind: 'session-expired' };
  if (typeof code === 'number' && RELOGIN_CODES.includes(code)) return { kind: 'relogin' };
  return { kind: 'error' };
}

export function envelopeMessage(envelope: Envelope): string | undefined {
  return envelope.message || envelope.msg || undefined;
}
