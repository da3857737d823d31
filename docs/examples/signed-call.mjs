// A signed call of a RingMES third-party app (docs/api.md, "Signed calls of third-party apps").
// Usage: RINGMES_URL=http://host:8080 APP_KEY=ak_… APP_SECRET=… node docs/examples/signed-call.mjs
import crypto from 'node:crypto';

export async function signedCall({ baseUrl, appKey, secret, method = 'GET', path, body }) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const timestamp = String(Date.now());
  const bodyHash = crypto.createHash('sha256').update(text).digest('hex');
  const toSign = `${method}\n${path}\n${timestamp}\n${bodyHash}`;
  const signature = crypto.createHmac('sha256', secret).update(toSign).digest('hex');
  const headers = { 'X-App-Key': appKey, 'X-Timestamp': timestamp, 'X-Signature': signature };
  if (text) headers['Content-Type'] = 'application/json';
  const res = await fetch(new URL(path, baseUrl), { method, headers, body: text || undefined });
  return { status: res.status, body: await res.json() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { RINGMES_URL, APP_KEY, APP_SECRET } = process.env;
  const path = process.argv[2] ?? '/api/v1/menu/tree';
  console.log(await signedCall({ baseUrl: RINGMES_URL, appKey: APP_KEY, secret: APP_SECRET, path }));
}
