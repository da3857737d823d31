// Issue 44 §4: webhooks of third-party apps — subscriptions, signed deliveries through the pg-boss
// queue (transactional outbox), retries with backoff, order per document, a restart mid-delivery,
// 重发, and the Python subscriber of docs/api.md.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, freePort, type TestApp, until } from './helpers.ts';

// Seconds instead of minutes: the first retry after 1–2 s, a lost job back within seconds.
process.env.OUTBOUND_RETRY_DELAY_SECONDS = '1';
process.env.OUTBOUND_POLLING_SECONDS = '0.5';
process.env.OUTBOUND_SWEEP_MS = '500';
process.env.OUTBOUND_TIMEOUT_MS = '4000';

let t: TestApp;
let token: string;
let f: Factory;

interface Received {
  deliveryId: string;
  event: string;
  body: any;
  signed: boolean;
}

/** A local receiver: records every request, answers by `mode`, acknowledges each delivery id once. */
function receiver(secret: () => string) {
  const got: Received[] = [];
  const acked = new Map<string, number>();
  const state = { failNext: 0, hold: false, held: [] as http.ServerResponse[] };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const ts = String(req.headers['x-timestamp']);
      const want = crypto.createHmac('sha256', secret()).update(`${ts}\n${text}`).digest('hex');
      const body = JSON.parse(text);
      const r: Received = {
        deliveryId: String(req.headers['x-ringmes-delivery']),
        event: String(req.headers['x-ringmes-event']),
        body,
        signed: want === req.headers['x-signature'] && body.deliveryId === req.headers['x-ringmes-delivery'],
      };
      got.push(r);
      if (state.hold) {
        state.held.push(res);
        return;
      }
      if (state.failNext > 0) {
        state.failNext--;
        res.writeHead(500).end('busy');
        return;
      }
      if (!acked.has(r.deliveryId)) acked.set(r.deliveryId, 0);
      acked.set(r.deliveryId, (acked.get(r.deliveryId) as number) + 1);
      res.writeHead(200).end('ok');
    });
  });
  return { server, got, acked, state };
}

let client: { id: number; secret: string };
let rx: ReturnType<typeof receiver>;
let rxUrl: string;

beforeAll(async () => {
  t = await createTestApp({ apiSecretKey: 'test-api-secret-key' });
  token = await t.login();
  f = factory(t, async () => token);
  const made = await t.call('POST', '/api/v1/threeApp/add', {
    token,
    body: { name: '财务系统', scopes: ['sale:order:list', 'finance:wage:list'] },
  });
  client = made.body.result;
  rx = receiver(() => client.secret);
  const port = await freePort();
  await new Promise<void>((r) => rx.server.listen(port, '127.0.0.1', r));
  rxUrl = `http://127.0.0.1:${port}/hook`;
});
afterAll(async () => {
  for (const res of rx.state.held) res.destroy();
  rx.server.closeAllConnections();
  await new Promise((r) => rx.server.close(r));
  await t.close();
});

const deliveries = (where: Record<string, unknown> = {}) => {
  let q = t.database.db.selectFrom('webhookDelivery').selectAll().orderBy('id');
  for (const [k, v] of Object.entries(where)) q = q.where(k as any, '=', v);
  return q.execute();
};

/** A sale order moved 审核 → 反审核 → 审核: three state changes of one document. */
async function cycle(): Promise<{ id: number; docNo: string }> {
  const so = await f.create('sale-order');
  const call = async (name: string, body: Record<string, unknown> = {}) => {
    const r = await t.call('POST', `/api/v1/sale-order/${name}/${so.id}`, { token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  await call('approve');
  await call('unapprove', { reason: '改价' });
  await call('approve');
  return { id: so.id, docNo: so.docNo };
}

describe('subscriptions', () => {
  it('are refused with a Chinese message for bad input, and 403 without 第三方应用 edit', async () => {
    const bad = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token,
      body: { clientId: client.id, event: 'document.status', url: 'ftp://x.example/hook' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatchObject({ field: 'url' });
    expect(bad.body.errors?.[0].message).toMatch(/接收地址必须是 http/);
    const badEvent = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token,
      body: { clientId: client.id, event: 'nope', url: rxUrl },
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.errors?.[0].message).toMatch(/事件只能是/);
    const badDoc = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token,
      body: { clientId: client.id, event: 'document.status', resource: 'material', url: rxUrl },
    });
    expect(badDoc.status).toBe(400);
    expect(badDoc.body.errors?.[0].message).toBe('单据类型不存在或没有状态流转');
    const reader = await t.userWith(['system:app:list'], 'webhook_reader');
    const refused = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token: reader.token,
      body: { clientId: client.id, event: 'document.status', url: rxUrl },
    });
    expect(refused.status).toBe(403);
    const listed = await t.call('GET', '/api/v1/threeApp/webhook/list', {
      token: reader.token,
      query: { clientId: client.id },
    });
    expect(listed.status).toBe(200);
    const outsider = await t.userWith(['system:user:list'], 'webhook_outsider');
    expect(
      (
        await t.call('GET', '/api/v1/threeApp/delivery/page', {
          token: outsider.token,
          query: { clientId: client.id },
        })
      ).status,
    ).toBe(403);
  });

  it('nothing is written for a change nobody subscribes to, or one that rolls back', async () => {
    await cycle();
    expect(await deliveries()).toHaveLength(0);
  });

  it('an app is told only of what its scopes let it read, whatever it subscribed to', async () => {
    const blind = await t.call('POST', '/api/v1/threeApp/add', {
      token,
      body: { name: '物料系统', scopes: ['factory:material:list'] },
    });
    expect(blind.status, JSON.stringify(blind.body)).toBe(200);
    const sub = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token,
      body: { clientId: blind.body.result.id, event: 'document.status', url: rxUrl },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    await cycle();
    expect(await deliveries({ clientId: blind.body.result.id })).toHaveLength(0);
    const off = await t.call('DELETE', `/api/v1/threeApp/webhook/delete/${sub.body.result.id}`, { token });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
  });
});

describe('deliveries', () => {
  let subId: number;
  it('a state change reaches the receiver signed, with its delivery id, type and number', async () => {
    const sub = await t.call('POST', '/api/v1/threeApp/webhook/add', {
      token,
      body: {
        clientId: client.id,
        event: 'document.status',
        resource: 'sale-order',
        url: rxUrl,
        remark: '销售订单',
      },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    subId = sub.body.result.id;
    const so = await cycle();
    const key = `sale-order:${so.id}`;
    await until('three acknowledged deliveries', async () => {
      const rows = await deliveries({ docKey: key });
      return rows.length === 3 && rows.every((r) => r.status === 'sent');
    });
    const mine = rx.got.filter((g) => g.body.id === so.id);
    expect(mine.map((g) => [g.body.transition, g.body.to])).toEqual([
      ['approve', 'approved'],
      ['unapprove', 'draft'],
      ['approve', 'approved'],
    ]);
    for (const g of mine) {
      expect(g.signed).toBe(true);
      expect(g.event).toBe('document.status');
      expect(g.body).toMatchObject({ docNo: so.docNo, type: '销售订单', resource: 'sale-order' });
    }
  });

  it('a receiver answering 500 is retried with backoff, and the document keeps its order', async () => {
    rx.state.failNext = 2;
    const before = rx.got.length;
    const so = await cycle();
    const key = `sale-order:${so.id}`;
    const rows = await until('three sent', async () => {
      const r = await deliveries({ docKey: key });
      return r.length === 3 && r.every((d) => d.status === 'sent') && r;
    });
    // The first delivery took three attempts (500, 500, 200); the two behind it waited for it.
    expect(rows.map((r) => r.attempts)).toEqual([3, 1, 1]);
    expect(rows[0].responseCode).toBe(200);
    const seen = rx.got.slice(before).filter((g) => g.body.id === so.id);
    // Acknowledged order = written order, whatever the retries.
    const firstAck = (id: string) =>
      seen.findIndex((g, i) => g.deliveryId === id && i === seen.map((s) => s.deliveryId).lastIndexOf(id));
    const order = rows.map((r) => firstAck(r.deliveryId));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(seen.filter((g) => g.deliveryId === rows[0].deliveryId)).toHaveLength(3);
    // The log answers status, attempts and the response code.
    const page = await t.call('GET', '/api/v1/threeApp/delivery/page', {
      token,
      query: { clientId: client.id, pageSize: 50 },
    });
    expect(page.status).toBe(200);
    const logged = page.body.result.list.find((d: any) => d.deliveryId === rows[0].deliveryId);
    expect(logged).toMatchObject({ status: 'sent', attempts: 3, responseCode: 200, url: rxUrl });
  });

  it('a rolled-back change sends nothing (the outbox row goes with it)', async () => {
    const so = await f.create('sale-order');
    const n = (await deliveries()).length;
    // A reason is required by 反审核: refused, so its transaction (and any event) rolls back.
    const r = await t.call('POST', `/api/v1/sale-order/unapprove/${so.id}`, { token, body: {} });
    expect(r.status).toBe(409);
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await sql`UPDATE sale_order SET remark = 'x' WHERE id = ${so.id}`.execute(trx);
        const { recordEvent } = await import('../src/platform/events/outbox.ts');
        await recordEvent(trx, {
          events: ['document.status'],
          resource: 'sale-order',
          key: `sale-order:${so.id}`,
          permission: 'sale:order:list',
          data: {},
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await deliveries()).length).toBe(n);
  });

  it('重发 sends a delivered event again with the same delivery id', async () => {
    const [row] = await deliveries({ subscriptionId: subId, status: 'sent' });
    const before = rx.acked.get(row.deliveryId) ?? 0;
    const again = await t.call('POST', `/api/v1/threeApp/delivery/resend/${row.id}`, { token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await until('the resent delivery acknowledged', () => (rx.acked.get(row.deliveryId) ?? 0) === before + 1);
    const after = (await deliveries({ id: row.id }))[0];
    expect(after.status).toBe('sent');
    expect(after.attempts).toBe(row.attempts + 1);
    const missing = await t.call('POST', '/api/v1/threeApp/delivery/resend/999999', { token });
    expect(missing.status).toBe(404);
  });

  it('a server stopped mid-delivery delivers it once back up: each delivery id acknowledged once', async () => {
    const base = rx.got.length;
    rx.state.hold = true;
    const so = await cycle();
    const key = `sale-order:${so.id}`;
    // The receiver holds the first delivery's request …
    await until('the first delivery held', () => rx.state.held.length === 1);
    // … and the server stops with it in flight.
    await t.app.close();
    rx.state.hold = false;
    for (const res of rx.state.held.splice(0)) res.destroy();
    expect((await deliveries({ docKey: key })).every((d) => d.status === 'pending')).toBe(true);
    // A new server on the same database takes the jobs up.
    const app2 = await buildApp(t.database, t.config, { logger: false });
    await app2.ready();
    try {
      const rows = await until(
        'all three sent after the restart',
        async () => {
          const r = await deliveries({ docKey: key });
          return r.length === 3 && r.every((d) => d.status === 'sent') && r;
        },
        60_000,
      );
      for (const r of rows) expect(rx.acked.get(r.deliveryId)).toBe(1);
      const seen = rx.got.slice(base);
      // The held one was sent twice (the second time acknowledged), the others once.
      expect(seen.filter((g) => g.deliveryId === rows[0].deliveryId).length).toBeGreaterThanOrEqual(2);
      expect(seen.map((g) => g.body.transition).slice(-3)).toEqual(['approve', 'unapprove', 'approve']);
      console.log(
        `restart: ${rows.length} deliveries, attempts ${rows.map((r) => r.attempts).join('/')}, ` +
          `${seen.length} requests, each id acknowledged once`,
      );
    } finally {
      await app2.close();
    }
  });
});

describe('the Python subscriber of docs/api.md', () => {
  let py: ChildProcess | undefined;
  afterAll(() => {
    py?.kill();
  });
  const hasPython = (() => {
    try {
      execFileSync('python3', ['--version']);
      return true;
    } catch {
      return false;
    }
  })();

  it('is the script the chapter shows', () => {
    const script = fs.readFileSync(
      new URL('../../../docs/examples/webhook-subscriber.py', import.meta.url),
      'utf8',
    );
    expect(fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8')).toContain(
      script.trim(),
    );
    expect(script.split('\n').length).toBeLessThanOrEqual(35);
  });

  it.runIf(hasPython)(
    'receives, verifies and acknowledges a wage month closed; refuses a forged one',
    async () => {
      // A fresh server (the one above was closed by the restart test) on a fresh database.
      const t2 = await createTestApp({ apiSecretKey: 'test-api-secret-key' });
      try {
        const admin = await t2.login();
        const app = (
          await t2.call('POST', '/api/v1/threeApp/add', {
            token: admin,
            body: { name: '薪资系统', scopes: ['finance:wage:list'] },
          })
        ).body.result;
        const port = await freePort();
        py = spawn(
          'python3',
          [new URL('../../../docs/examples/webhook-subscriber.py', import.meta.url).pathname],
          {
            env: { ...process.env, PORT: String(port), RINGMES_APP_SECRET: app.secret },
          },
        );
        let out = '';
        py.stdout?.on('data', (c) => (out += c));
        const url = `http://127.0.0.1:${port}/`;
        await until('the subscriber listening', async () => {
          try {
            const r = await fetch(url, {
              method: 'POST',
              body: '{}',
              headers: { 'x-timestamp': '1', 'x-signature': 'x' },
            });
            return r.status === 401;
          } catch {
            return false;
          }
        });
        const sub = await t2.call('POST', '/api/v1/threeApp/webhook/add', {
          token: admin,
          body: { clientId: app.id, event: 'wage.closed', url },
        });
        expect(sub.status).toBe(200);
        const closed = await t2.call('POST', '/api/v1/process-wage/close', {
          token: admin,
          body: { month: '2026-01' },
        });
        expect(closed.status, JSON.stringify(closed.body)).toBe(200);
        await until('the python subscriber printing the event', () => out.includes('"wage.closed"'));
        const event = JSON.parse(out.trim().split('\n')[0]);
        expect(event).toMatchObject({ event: 'wage.closed', month: '2026-01', resource: 'process-wage' });
        const row = await until('sent', async () => {
          const r = await t2.database.db.selectFrom('webhookDelivery').selectAll().executeTakeFirst();
          return r?.status === 'sent' && r;
        });
        expect(row.responseCode).toBe(204);
      } finally {
        py?.kill();
        await t2.close();
      }
    },
  );
});
