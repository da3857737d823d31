import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** Tokens and passwords never reach the log, whichever line writes the URL or the headers. */
let t: TestApp;
let log = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (c) => {
    log += c.toString();
  });
  t = await createTestApp({}, 'minimal', stream);
});
afterAll(() => t.close());

describe('log redaction', () => {
  it('the request warning and the error line carry the URL without the token', async () => {
    const token = await t.login();
    let requestId = '';
    const sessions = t.app.ringmes.sessions;
    const resolve = sessions.resolve;
    // A database failure makes the request a logged 5xx (the same line as a slow request).
    sessions.resolve = async () => {
      throw Object.assign(new Error('boom'), { code: '57P01' });
    };
    try {
      const r = await t.call('GET', `/api/v1/sso/getUserByToken?token=${token}&x=1`, {
        headers: { authorization: `Bearer ${token}`, cookie: `Admin-Token=${token}`, 'x-token': token },
      });
      expect(r.status).toBe(503);
      requestId = String(r.headers['x-request-id']);
    } finally {
      sessions.resolve = resolve;
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toMatch(/getUserByToken\?token=\[REDACTED\]&x=1/);
    expect(log).not.toContain(token);
    // The request's own logger (made when it first logs) carries the request's id.
    const line = log.split('\n').find((l) => l.includes('getUserByToken')) ?? '';
    expect(JSON.parse(line).reqId).toBe(requestId);
  });

  it("a live-board stream's ticket is not logged (issue 34 §3)", async () => {
    const token = await t.login();
    const r = await t.call('POST', '/api/v1/dashboard/ticket', { token, body: { scope: 'whole' } });
    const ticket = encodeURIComponent(r.body.result.ticket);
    const sessions = t.app.ringmes.sessions;
    const resolve = sessions.resolve;
    sessions.resolve = async () => {
      throw Object.assign(new Error('boom'), { code: '57P01' });
    };
    try {
      expect((await t.call('GET', `/api/v1/dashboard/stream?ticket=${ticket}`)).status).toBe(503);
    } finally {
      sessions.resolve = resolve;
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toMatch(/dashboard\/stream\?ticket=\[REDACTED\]/);
    expect(log).not.toContain(ticket);
  });

  it('headers and query passwords in any logged object are censored', async () => {
    const secret = 'not-in-the-log-0123456789';
    t.app.log.warn(
      {
        req: { method: 'GET', url: `/a?passWord=${secret}&accessToken=${secret}`, id: '1' },
        headers: { authorization: `Bearer ${secret}`, cookie: `Admin-Token=${secret}` },
        res: { headers: { 'set-cookie': `Admin-Token=${secret}`, 'x-token': secret } },
        url: `/b?token=${secret}`,
      },
      'probe',
    );
    await new Promise((r) => setTimeout(r, 50));
    const line = log.split('\n').find((l) => l.includes('"probe"')) ?? '';
    expect(line).toContain('[REDACTED]');
    expect(line).not.toContain(secret);
  });
});
