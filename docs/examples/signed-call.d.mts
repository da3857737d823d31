/** Types of signed-call.mjs (the server tests import it). */
export function signedCall(opts: {
  baseUrl: string;
  appKey: string;
  secret: string;
  method?: string;
  path: string;
  body?: unknown;
}): Promise<{ status: number; body: any }>;
