/**
 * Notifications that reach people (issue 44 §7): each user's outside channels — email (SMTP,
 * configured in 系统设置 → 消息通知), a 企业微信 group robot, a 钉钉 group robot (signed as
 * 钉钉 asks: `timestamp` and `sign` = Base64 HMAC-SHA256 of `${timestamp}\n${secret}`) — and, per
 * message kind, which of them a message also goes to, or an hourly digest instead of one message
 * each (待检验). `platform/messages.ts` writes what to send; the queue sends it (`sendNotification`)
 * and makes the digests (`sendDigests`).
 */
import crypto from 'node:crypto';
import { MESSAGE_KINDS, type MessageKind, messageKindLabel } from '@ringmes/domain';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import type { Db } from '../../platform/db/db.ts';
import { fieldError, notFound } from '../../platform/errors.ts';
import type { App, AppContext } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { sendOutside } from '../../platform/messages.ts';
import { outboundQueue } from './outbound-queue.ts';

export const CHANNEL_KINDS = { email: '邮件', wecom: '企业微信机器人', dingtalk: '钉钉机器人' } as const;
type ChannelKind = keyof typeof CHANNEL_KINDS;
const CHANNEL_NAMES = Object.keys(CHANNEL_KINDS) as [ChannelKind, ...ChannelKind[]];
const KIND_NAMES = Object.keys(MESSAGE_KINDS) as [MessageKind, ...MessageKind[]];

/** The setting (sys_setting) of 系统设置 → 消息通知: the SMTP server and the site's address. */
const SETTING_KEY = 'notify.outbound';

interface Stored {
  siteUrl?: string;
  smtp?: {
    host: string;
    port: number;
    secure: boolean;
    user: string;
    from: string;
    passwordEnc?: string;
    passwordHash?: string;
  };
}

async function readStored(db: Db): Promise<Stored> {
  const row = await db
    .selectFrom('sysSetting')
    .select('value')
    .where('key', '=', SETTING_KEY)
    .executeTakeFirst();
  return (row?.value as Stored) ?? {};
}

/** A message's link as a full address (the site's address from the settings), else as it is. */
function fullLink(stored: Stored, link: string | null): string | null {
  if (!link) return null;
  if (!stored.siteUrl) return link;
  return `${stored.siteUrl.replace(/\/+$/, '')}${link.startsWith('/') ? '' : '/'}${link}`;
}

/** 钉钉's signed robot address: `&timestamp=…&sign=…` (its docs: HmacSHA256 of "timestamp\nsecret", Base64, URL-encoded). */
export function dingtalkSignedUrl(url: string, secret: string, timestamp = Date.now()): string {
  const sign = crypto.createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
  return `${url}${url.includes('?') ? '&' : '?'}timestamp=${timestamp}&sign=${encodeURIComponent(sign)}`;
}

async function postRobot(url: string, body: unknown, signal: AbortSignal): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`机器人答复 HTTP ${res.status}`);
  // Both robots answer {"errcode":0,"errmsg":"ok"}; anything else is a refusal.
  let answer: any;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error('机器人的答复不是 JSON');
  }
  if (answer?.errcode !== 0) throw new Error(`机器人拒绝：${answer?.errcode} ${answer?.errmsg ?? ''}`.trim());
}

/**
 * Sends one `notify_send` row (the queue's job). A refusal or an unreachable server is retried with
 * backoff until 24 hours after it was written, then the row is `failed`.
 */
export async function sendNotification(ctx: AppContext, id: number, signal: AbortSignal): Promise<void> {
  const { db } = ctx;
  const q = outboundQueue(ctx);
  const row = (
    await sql<Record<string, any>>`
      SELECT n.*, n.created_at < now() - make_interval(secs => ${q.tuning.giveUpHours * 3600}) AS expired,
             ch.target, ch.secret, ch.status AS channel_status, u.first_name
        FROM notify_send n
        JOIN app_user u ON u.id = n.user_id
        LEFT JOIN notify_channel ch ON ch.user_id = n.user_id AND ch.kind = n.channel
       WHERE n.id = ${id}`.execute(db)
  ).rows[0];
  if (row?.status !== 'pending') return;
  const stored = await readStored(db);
  const link = fullLink(stored, row.link);
  const label = messageKindLabel(row.kind);
  let error: string | null = null;
  try {
    if (!row.target || row.channelStatus !== '1') throw new Error('该渠道已删除或停用');
    if (row.channel === 'email') {
      const smtp = stored.smtp;
      if (!smtp?.host) throw new Error('系统设置中尚未配置邮件服务器');
      const password =
        smtp.passwordEnc && smtp.passwordHash
          ? ctx.secrets.open(
              Buffer.from(smtp.passwordEnc, 'base64'),
              Buffer.from(smtp.passwordHash, 'base64'),
            )
          : undefined;
      const transport = nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        ...(smtp.user ? { auth: { user: smtp.user, pass: password ?? '' } } : {}),
        connectionTimeout: q.tuning.timeoutMs,
        greetingTimeout: q.tuning.timeoutMs,
        socketTimeout: q.tuning.timeoutMs,
        // A plain local relay (no STARTTLS offered) is allowed; a server that offers it is used with it.
        tls: { rejectUnauthorized: false },
      });
      try {
        await transport.sendMail({
          from: smtp.from,
          to: row.target,
          subject: `【${label}】${row.title}`,
          text: [row.title, row.content, link ? `查看：${link}` : ''].filter(Boolean).join('\n\n'),
        });
      } finally {
        transport.close();
      }
    } else if (row.channel === 'wecom') {
      const content = [`**【${label}】${row.title}**`, row.content, link ? `[查看](${link})` : '']
        .filter(Boolean)
        .join('\n');
      await postRobot(row.target, { msgtype: 'markdown', markdown: { content } }, signal);
    } else if (row.channel === 'dingtalk') {
      const text = [`### 【${label}】${row.title}`, row.content, link ? `[查看](${link})` : '']
        .filter(Boolean)
        .join('\n\n');
      const url = row.secret ? dingtalkSignedUrl(row.target, row.secret) : row.target;
      await postRobot(url, { msgtype: 'markdown', markdown: { title: row.title, text } }, signal);
    } else throw new Error(`未知渠道 ${row.channel}`);
  } catch (err: any) {
    error = signal.aborted ? '发送超时或服务停止' : String(err?.message ?? err).slice(0, 500);
  }
  const give = error !== null && row.expired;
  await sql`
    UPDATE notify_send SET attempts = attempts + 1, last_error = ${error},
           status = ${error === null ? 'sent' : give ? 'failed' : 'pending'},
           sent_at = ${error === null ? sql`now()` : sql`sent_at`}
     WHERE id = ${id}`.execute(db);
  if (error !== null && !give) throw new Error(error);
}

/** The list page a digest links to: the items' common page (an item's link without its record). */
function digestLink(links: string[]): string | null {
  const pages = new Set(links.filter(Boolean).map((l) => l.replace(/\?.*$/, '').replace(/\/detail$/, '')));
  return pages.size === 1 ? [...pages][0] : '/message';
}

/**
 * The hour's digests: for each user and kind with items not yet counted, one in-app message with
 * their count and a link (and the user's outside channels for the kind), in one transaction.
 */
export function sendDigests(db: Db): Promise<number> {
  return db.transaction().execute((trx) => digestNow(trx));
}

/** The digests, in the caller's transaction (the demo seed makes qc01's). */
export async function digestNow(trx: Db): Promise<number> {
  const groups = (
    await sql<{ userId: number; kind: string; n: number; links: string[]; first: string }>`
      WITH items AS (
        UPDATE notify_digest_item SET digested_at = now() WHERE digested_at IS NULL
        RETURNING user_id, kind, link, title, id)
      SELECT user_id, kind, count(*)::int AS n, array_agg(coalesce(link, '')) AS links,
             (array_agg(title ORDER BY id))[1] AS first
        FROM items GROUP BY user_id, kind ORDER BY user_id, kind`.execute(trx)
  ).rows;
  for (const g of groups) {
    const label = messageKindLabel(g.kind);
    const msg = {
      title: `${label}摘要：过去一小时 ${g.n} 条`,
      content: g.n === 1 ? g.first : `最早一条：${g.first}`,
      link: digestLink(g.links) ?? undefined,
    };
    await trx
      .insertInto('message')
      .values({
        userId: g.userId,
        kind: g.kind,
        title: msg.title,
        content: msg.content,
        link: msg.link ?? null,
      })
      .execute();
    await sendOutside(trx, [Number(g.userId)], g.kind, msg);
  }
  return groups.length;
}

const target = (kind: ChannelKind, v: string) => {
  if (kind === 'email') return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};

const channelRow = z.object({
  kind: z.string(),
  target: z.string(),
  hasSecret: z.boolean(),
  status: z.string(),
});
const prefRow = z.object({ kind: z.string(), channels: z.array(z.string()), digest: z.boolean() });

async function mine(db: Db, userId: number) {
  const [channels, prefs] = await Promise.all([
    db
      .selectFrom('notifyChannel')
      .select(['kind', 'target', sql<boolean>`secret IS NOT NULL`.as('hasSecret'), 'status'])
      .where('userId', '=', userId)
      .orderBy('kind')
      .execute(),
    db
      .selectFrom('notifyPref')
      .select(['kind', 'channels', 'digest'])
      .where('userId', '=', userId)
      .orderBy('kind')
      .execute(),
  ]);
  return {
    channels,
    prefs,
    kinds: KIND_NAMES.map((value) => ({ value, label: MESSAGE_KINDS[value].label })),
    channelKinds: CHANNEL_NAMES.map((value) => ({ value, label: CHANNEL_KINDS[value] })),
  };
}

const smtpAnswer = z.object({
  siteUrl: z.string(),
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  from: z.string(),
  hasPassword: z.boolean(),
});

function smtpView(s: Stored) {
  return {
    siteUrl: s.siteUrl ?? '',
    host: s.smtp?.host ?? '',
    port: s.smtp?.port ?? 25,
    secure: s.smtp?.secure ?? false,
    user: s.smtp?.user ?? '',
    from: s.smtp?.from ?? '',
    hasPassword: !!s.smtp?.passwordEnc,
  };
}

export function notifyChannelRoutes(app: App) {
  // 个人中心 → 消息通知: one's own channels and preferences (any signed-in person, never an app).
  route(app, {
    method: 'GET',
    url: '/api/v1/notify/mine',
    permission: 'authenticated',
    response: z.object({
      channels: z.array(channelRow),
      prefs: z.array(prefRow),
      kinds: z.array(z.object({ value: z.string(), label: z.string() })),
      channelKinds: z.array(z.object({ value: z.string(), label: z.string() })),
    }),
    handler: ({ user, app: { db } }) => mine(db, user.id),
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/notify/mine/channel',
    permission: 'authenticated',
    body: z
      .strictObject({
        kind: z.enum(CHANNEL_NAMES, { error: '渠道只能是 email、wecom 或 dingtalk' }),
        target: z
          .string({ error: '请填写邮箱或机器人地址' })
          .trim()
          .min(1, '请填写邮箱或机器人地址')
          .max(500, '地址不能超过 500 个字符'),
        secret: z.string().trim().max(200, '加签密钥不能超过 200 个字符').nullable().optional(),
        status: zx.flag.default('1'),
      })
      .superRefine((b, c) => {
        if (!target(b.kind, b.target))
          c.addIssue({
            code: 'custom',
            path: ['target'],
            message:
              b.kind === 'email' ? '邮箱地址格式不正确' : '机器人地址必须是 http:// 或 https:// 开头的网址',
          });
      }),
    response: z.null(),
    async handler({ body, user, req, app: ctx }) {
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('notifyChannel')
          .values({
            userId: user.id,
            kind: body.kind,
            target: body.target,
            secret: body.secret || null,
            status: body.status,
          })
          .onConflict((oc) =>
            oc.columns(['userId', 'kind']).doUpdateSet({
              target: body.target,
              ...(body.secret !== undefined ? { secret: body.secret || null } : {}),
              status: body.status,
              updatedAt: sql`now()`,
            }),
          )
          .execute();
        await audit(
          trx,
          user,
          {
            entity: 'notifyChannel',
            entityId: user.id,
            action: 'update',
            after: { kind: body.kind, target: body.target },
          },
          req.id,
        );
      });
      return null;
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/notify/mine/channel/:kind',
    permission: 'authenticated',
    params: z.strictObject({ kind: z.enum(CHANNEL_NAMES, { error: '渠道只能是 email、wecom 或 dingtalk' }) }),
    response: z.null(),
    async handler({ params, user, app: { db } }) {
      const r = await db
        .deleteFrom('notifyChannel')
        .where('userId', '=', user.id)
        .where('kind', '=', params.kind)
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw notFound('该渠道尚未设置');
      return null;
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/notify/mine/pref',
    permission: 'authenticated',
    body: z.strictObject({
      kind: z.enum(KIND_NAMES, { error: '消息类型不存在' }),
      channels: z
        .array(z.enum(CHANNEL_NAMES, { error: '渠道只能是 email、wecom 或 dingtalk' }), {
          error: '渠道必须是列表',
        })
        .max(3)
        .transform((a) => [...new Set(a)]),
      digest: z.boolean({ error: '摘要必须是 true 或 false' }),
    }),
    response: z.null(),
    async handler({ body, user, app: ctx }) {
      const have = new Set(
        (await ctx.db.selectFrom('notifyChannel').select('kind').where('userId', '=', user.id).execute()).map(
          (c) => c.kind,
        ),
      );
      const missing = body.channels.find((c) => !have.has(c));
      if (missing) throw fieldError('channels', `请先设置${CHANNEL_KINDS[missing]}`);
      await ctx.db
        .insertInto('notifyPref')
        .values({ userId: user.id, kind: body.kind, channels: body.channels, digest: body.digest })
        .onConflict((oc) =>
          oc.columns(['userId', 'kind']).doUpdateSet({ channels: body.channels, digest: body.digest }),
        )
        .execute();
      if (body.digest || body.channels.length) await outboundQueue(ctx).start();
      return null;
    },
  });

  // 系统设置 → 消息通知: the SMTP server (its password stored encrypted, never answered) and the site's address.
  route(app, {
    method: 'GET',
    url: '/api/v1/notify/settings',
    permission: 'system:setting:edit',
    response: smtpAnswer,
    handler: async ({ app: { db } }) => smtpView(await readStored(db)),
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/notify/settings',
    permission: 'system:setting:edit',
    body: z
      .strictObject({
        siteUrl: z
          .string()
          .trim()
          .max(200, '系统访问地址不能超过 200 个字符')
          .refine(
            (v) => !v || /^https?:\/\/[^\s/]+/.test(v),
            '系统访问地址必须是 http:// 或 https:// 开头的网址',
          )
          .default(''),
        host: z.string().trim().max(200, '邮件服务器地址过长').default(''),
        port: z
          .number({ error: '端口必须是数字' })
          .int('端口必须是整数')
          .min(1, '端口必须在 1 到 65535 之间')
          .max(65535, '端口必须在 1 到 65535 之间')
          .default(25),
        secure: z.boolean({ error: 'SSL 必须是 true 或 false' }).default(false),
        user: z.string().trim().max(200, '用户名过长').default(''),
        password: z.string().max(200, '密码过长').nullable().optional(),
        from: z
          .string()
          .trim()
          .max(200, '发件人过长')
          .refine(
            (v) => !v || /[^\s@]+@[^\s@]+\.[^\s@>]+/.test(v),
            '发件人必须含有邮箱地址，如 RingMES <mes@example.com>',
          )
          .default(''),
      })
      .refine((b) => !b.host || b.from, { path: ['from'], message: '请填写发件人' }),
    response: smtpAnswer,
    async handler({ body, user, req, app: ctx }) {
      await ctx.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(724102, 0)`.execute(trx);
        const before = await readStored(trx);
        let passwordEnc = before.smtp?.passwordEnc;
        let passwordHash = before.smtp?.passwordHash;
        if (body.password !== undefined) {
          if (body.password) {
            const sealed = ctx.secrets.seal(body.password);
            passwordEnc = sealed.secretEnc.toString('base64');
            passwordHash = sealed.secretHash.toString('base64');
          } else passwordEnc = passwordHash = undefined;
        }
        const value: Stored = {
          siteUrl: body.siteUrl,
          smtp: {
            host: body.host,
            port: body.port,
            secure: body.secure,
            user: body.user,
            from: body.from,
            passwordEnc,
            passwordHash,
          },
        };
        const json = JSON.stringify(value);
        await trx
          .insertInto('sysSetting')
          .values({ key: SETTING_KEY, value: json, updatedBy: user.id })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              value: json,
              updatedBy: user.id,
              updatedAt: sql`now()`,
              version: sql`sys_setting.version + 1`,
            }),
          )
          .execute();
        await audit(
          trx,
          user,
          {
            entity: 'setting',
            entityId: SETTING_KEY,
            action: 'update',
            before: smtpView(before),
            after: smtpView(value),
          },
          req.id,
        );
      });
      return smtpView(await readStored(ctx.db));
    },
  });

  // 发送记录: one's own outside messages, newest first (the last 50).
  route(app, {
    method: 'GET',
    url: '/api/v1/notify/mine/sent',
    permission: 'authenticated',
    response: z.array(
      z.object({
        id: z.number().int(),
        channel: z.string(),
        kind: z.string(),
        title: z.string(),
        status: z.string(),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        createdAt: z.string(),
        sentAt: z.string().nullable(),
      }),
    ),
    handler: ({ user, app: { db } }) =>
      db
        .selectFrom('notifySend')
        .select(['id', 'channel', 'kind', 'title', 'status', 'attempts', 'lastError', 'createdAt', 'sentAt'])
        .where('userId', '=', user.id)
        .orderBy('id', 'desc')
        .limit(50)
        .execute(),
  });
}
