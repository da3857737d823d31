import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the OWASP minimum: 19 MiB, two passes, one lane. */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;
/** A moving average of how long the password checks here take, in ms. */
let typicalMs = 50;

/**
 * How long a password check takes on this machine: a refusal that checks no password waits this
 * long, so its timing does not tell a name that exists from one that does not (`login-throttle.ts`).
 */
export const typicalCheckMs = () => typicalMs;

/** Verifies; for an unknown user pass `undefined` so the answer takes as long as a real check. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  const started = performance.now();
  try {
    if (!stored) {
      dummy ??= hashPassword('ringmes-timing-equaliser');
      await verify(await dummy, password).catch(() => false);
      return false;
    }
    return await verify(stored, password);
  } catch {
    return false;
  } finally {
    typicalMs = 0.9 * typicalMs + 0.1 * (performance.now() - started);
  }
}
