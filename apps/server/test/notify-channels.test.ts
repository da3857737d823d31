// Issue 44 §7: notifications that reach people — email through a local SMTP server, 企业微信 and
// 钉钉 group robots (钉钉's signed address checked) through a local receiver, sent by the queue with
// retries, and the hourly digest of a high-volume kind (待检验) instead of one message each.
import crypto from 'node:crypto';
import http from 'node:http';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundQueue, QUEUES } from '../src/modules/system/outbound-queue.ts';
import { notify } from '../src/platform/messages.ts';
import { createTestApp, freePort, type TestApp, until } from './helpers.ts';

process.env.OUTBOUND_RETRY_DELAY_SECONDS = '1';
process.env.OUTBOUND_POLLING_SECONDS = '0.5';
process.env.OUTBOUND_SWEEP_MS = '500';
process.env.OUTBOUND_TIMEOUT_MS = '4000';

let t: TestApp;
let token: string;
let adminId: number;

const DING_SECRET = 'SEC0123456789abcdef';
const mails: { to: string[]; raw: string }[] = [];
const robots: { path: string; body: any; signOk?: boolean }[] = [];
const robotState = { refuseWecom: 0 };
let smtp: SMTPServer;
let robot: http.Server;
let smtpPort: number;
let robotBase: string;

/** The text of RFC 2047 encoded words (=?UTF-8?B?…?= / ?Q?) in a header. */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  smtpPort = await freePort();
  await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', r));
  robot = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const entry: (typeof robots)[number] = { path: u.pathname, body: JSON.parse(text) };
      let answer = { errcode: 0, errmsg: 'ok' };
      if (u.pathname === '/dingtalk') {
        const ts = u.searchParams.get('timestamp') ?? '';
        const want = crypto
          .createHmac('sha256', DING_SECRET)
          .update(`${ts}\n${DING_SECRET}`)
          .digest('base64');
        entry.signOk = want === u.searchParams.get('sign') && Math.abs(Date.now() - Number(ts)) < 3_600_000;
        if (!entry.signOk) answer = { errcode: 310000, errmsg: 'sign not match' };
      }
      if (u.pathname === '/wecom' && robotState.refuseWecom > 0) {
        robotState.refuseWecom--;
        answer = { errcode: 45009, errmsg: 'api freq out of limit' };
      }
      robots.push(entry);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => robot.listen(port, '127.0.0.1', r));
  robotBase = `http://127.0.0.1:${port}`;
  t = await createTestApp();
  token = await t.login();
  adminId = (await t.call('GET', '/api/v1/sso/getUserByToken', { token })).body.result.userId;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => smtp.close(r as () => void));
  robot.closeAllConnections();
  await new Promise((r) => robot.close(r));
});

describe('settings and channels', () => {
  it('系统设置 → 消息通知: the SMTP server, password never answered; bad input 400 in Chinese; 403 without the setting permission', async () => {
    const bad = await t.call('PUT', '/api/v1/notify/settings', {
      token,
      body: { host: '127.0.0.1', port: 70000, from: 'RingMES <mes@example.com>' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatchObject({ field: 'port', message: '端口必须在 1 到 65535 之间' });
    const noFrom = await t.call('PUT', '/api/v1/notify/settings', { token, body: { host: '127.0.0.1' } });
    expect(noFrom.status).toBe(400);
    expect(noFrom.body.errors?.[0].message).toBe('请填写发件人');
    const ok = await t.call('PUT', '/api/v1/notify/settings', {
      token,
      body: {
        siteUrl: 'http://mes.example.com',
        host: '127.0.0.1',
        port: smtpPort,
        user: '',
        password: 'not-shown',
        from: 'RingMES <mes@example.com>',
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toMatchObject({ host: '127.0.0.1', port: smtpPort, hasPassword: true });
    expect(JSON.stringify(ok.body.result)).not.toContain('not-shown');
    const stored = await t.database.db
      .selectFrom('sysSetting')
      .select('value')
      .where('key', '=', 'notify.outbound')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.value)).not.toContain('not-shown');
    const clerk = await t.userWith(['system:user:list'], 'notify_clerk');
    expect((await t.call('GET', '/api/v1/notify/settings', { token: clerk.token })).status).toBe(403);
    // … but his own channels are his to set.
    expect((await t.call('GET', '/api/v1/notify/mine', { token: clerk.token })).status).toBe(200);
  });

  it('a channel: a valid email or robot address; a preference only with channels set up', async () => {
    const badMail = await t.call('PUT', '/api/v1/notify/mine/channel', {
      token,
      body: { kind: 'email', target: 'admin@' },
    });
    expect(badMail.status).toBe(400);
    expect(badMail.body.errors?.[0]).toMatchObject({ field: 'target', message: '邮箱地址格式不正确' });
    const badRobot = await t.call('PUT', '/api/v1/notify/mine/channel', {
      token,
      body: { kind: 'wecom', target: 'qyapi' },
    });
    expect(badRobot.body.errors?.[0].message).toBe('机器人地址必须是 http:// 或 https:// 开头的网址');
    const early = await t.call('PUT', '/api/v1/notify/mine/pref', {
      token,
      body: { kind: 'repair', channels: ['email'], digest: false },
    });
    expect(early.status).toBe(400);
    expect(early.body.errors?.[0].message).toBe('请先设置邮件');
    for (const body of [
      { kind: 'email', target: 'admin@example.com' },
      { kind: 'wecom', target: `${robotBase}/wecom?key=abc` },
      { kind: 'dingtalk', target: `${robotBase}/dingtalk?access_token=xyz`, secret: DING_SECRET },
    ]) {
      const r = await t.call('PUT', '/api/v1/notify/mine/channel', { token, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const pref = await t.call('PUT', '/api/v1/notify/mine/pref', {
      token,
      body: { kind: 'repair', channels: ['email', 'wecom', 'dingtalk'], digest: false },
    });
    expect(pref.status).toBe(200);
    const mine = await t.call('GET', '/api/v1/notify/mine', { token });
    expect(mine.body.result.channels.map((c: any) => [c.kind, c.hasSecret])).toEqual([
      ['dingtalk', true],
      ['email', false],
      ['wecom', false],
    ]);
  });
});

describe('sending', () => {
  it('a message goes in-app and to email, 企业微信 and 钉钉 (signed); a refusing robot is retried', async () => {
    robotState.refuseWecom = 1;
    await t.database.db.transaction().execute((trx) =>
      notify(trx, [adminId], {
        kind: 'repair',
        title: '设备报修：CNC-01 主轴异响',
        content: '报修人 张三',
        link: '/equipment/repair/detail?id=7',
        eventKey: 'repair:7',
      }),
    );
    // Once only: the same event again sends nothing more.
    await t.database.db
      .transaction()
      .execute((trx) =>
        notify(trx, [adminId], { kind: 'repair', title: '设备报修：CNC-01 主轴异响', eventKey: 'repair:7' }),
      );
    const sent = await until('three channels sent', async () => {
      const rows = await t.database.db.selectFrom('notifySend').selectAll().orderBy('id').execute();
      return rows.length === 3 && rows.every((r) => r.status === 'sent') && rows;
    });
    expect(sent.map((r) => [r.channel, r.attempts])).toEqual([
      ['dingtalk', 1],
      ['email', 1],
      ['wecom', 2],
    ]);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['admin@example.com']);
    const subject = decodeWords(/^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mails[0].raw)?.[1] ?? '');
    expect(subject).toBe('【设备维修】设备报修：CNC-01 主轴异响');
    const wecom = robots.filter((r) => r.path === '/wecom');
    expect(wecom).toHaveLength(2);
    expect(wecom[1].body.msgtype).toBe('markdown');
    expect(wecom[1].body.markdown.content).toContain(
      '[查看](http://mes.example.com/equipment/repair/detail?id=7)',
    );
    const ding = robots.filter((r) => r.path === '/dingtalk');
    expect(ding).toHaveLength(1);
    expect(ding[0].signOk).toBe(true);
    expect(ding[0].body).toMatchObject({
      msgtype: 'markdown',
      markdown: { title: '设备报修：CNC-01 主轴异响' },
    });
    const inApp = await t.database.db
      .selectFrom('message')
      .select('title')
      .where('userId', '=', adminId)
      .where('kind', '=', 'repair')
      .execute();
    expect(inApp).toHaveLength(1);
    const log = await t.call('GET', '/api/v1/notify/mine/sent', { token });
    expect(log.body.result.map((r: any) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('待检验 as a digest: no message per task; one per hour with the count and a link', async () => {
    const pref = await t.call('PUT', '/api/v1/notify/mine/pref', {
      token,
      body: { kind: 'inspection', channels: ['wecom'], digest: true },
    });
    expect(pref.status).toBe(200);
    for (let i = 1; i <= 4; i++)
      await t.database.db.transaction().execute((trx) =>
        notify(trx, [adminId], {
          kind: 'inspection',
          title: `待检验：首检 6205 内圈 50（IQ-${i}）`,
          link: `/quality/inspection-task/detail?id=${i}`,
          eventKey: `inspection:${i}`,
        }),
      );
    // A repeated event is one item.
    await t.database.db
      .transaction()
      .execute((trx) =>
        notify(trx, [adminId], { kind: 'inspection', title: '待检验：重复', eventKey: 'inspection:4' }),
      );
    const messages = () =>
      t.database.db
        .selectFrom('message')
        .selectAll()
        .where('userId', '=', adminId)
        .where('kind', '=', 'inspection')
        .execute();
    expect(await messages()).toHaveLength(0);
    const wecomBefore = robots.filter((r) => r.path === '/wecom').length;
    // The hour's job (a pg-boss schedule), run now.
    await outboundQueue(t.app.ringmes).enqueue(QUEUES.digest, 0);
    const [digest] = await until('the digest message', async () => {
      const m = await messages();
      return m.length === 1 && m;
    });
    expect(digest.title).toBe('待检验摘要：过去一小时 4 条');
    expect(digest.link).toBe('/quality/inspection-task');
    await until(
      'the digest on 企业微信',
      () => robots.filter((r) => r.path === '/wecom').length === wecomBefore + 1,
    );
    expect(robots.at(-1)?.body.markdown.content).toContain('待检验摘要：过去一小时 4 条');
    // Counted once: the next hour has nothing to say.
    await outboundQueue(t.app.ringmes).enqueue(QUEUES.digest, 0);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await messages()).toHaveLength(1);
  });

  it("the hour's job also prunes sent messages older than RETAIN_DELIVERIES_DAYS (30)", async () => {
    const db = t.database.db;
    const [old] = await db
      .selectFrom('notifySend')
      .select('id')
      .where('status', '=', 'sent')
      .orderBy('id')
      .limit(1)
      .execute();
    await sql`UPDATE notify_send SET created_at = now() - interval '31 days' WHERE id = ${old.id}`.execute(
      db,
    );
    const before = (await db.selectFrom('notifySend').select('id').execute()).length;
    await outboundQueue(t.app.ringmes).enqueue(QUEUES.digest, 0);
    await until('the old row pruned', async () => {
      const ids = (await db.selectFrom('notifySend').select('id').execute()).map((r) => r.id);
      return !ids.includes(old.id) && ids.length === before - 1;
    });
  });
});
