/**
 * In-app messages (站内消息): how any part of the server sends one. The routes that read and
 * mark them are `modules/system/message.routes.ts`.
 */
import type { MessageKind } from '@ringmes/domain';
import { sql } from 'kysely';
import type { Db } from './db/db.ts';
import { prepared } from './db/prepared.ts';

export interface NewMessage {
  title: string;
  content?: string;
  kind?: MessageKind;
  link?: string;
  /**
   * Names the event (e.g. `repair-dispatch:12:5`): each user gets at most one message for it,
   * however often the sender runs (a retried request, a periodic scan).
   */
  eventKey?: string;
}

/**
 * Sends an in-app message to users; call it inside the transaction of the event it reports.
 * Each user's preference for the kind (个人中心 → 消息通知, `notify_pref`) may also send it to his
 * outside channels (email, 企业微信, 钉钉: `notify_send` rows, sent by the queue after commit), or
 * gather it into an hourly digest instead (`notify_digest_item`: one message with the count).
 */
export async function notify(db: Db, userIds: number[], msg: NewMessage): Promise<void> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  const kind = msg.kind ?? 'system';
  // Most users have no preference: one indexed read of the few that do.
  const prefs = (
    await prepared(sql<{ userId: number; outside: boolean; digest: boolean }>`
      SELECT user_id, cardinality(channels) > 0 AS outside, digest FROM notify_pref
       WHERE kind = ${kind} AND user_id = ANY(${ids}::bigint[]) AND (digest OR cardinality(channels) > 0)`).execute(
      db,
    )
  ).rows;
  const digest = new Set(prefs.filter((p) => p.digest).map((p) => Number(p.userId)));
  const outside = new Set(prefs.filter((p) => p.outside && !p.digest).map((p) => Number(p.userId)));
  if (digest.size)
    await db
      .insertInto('notifyDigestItem')
      .values(
        [...digest].map((userId) => ({
          userId,
          kind,
          title: msg.title.slice(0, 200),
          link: msg.link ?? null,
          eventKey: msg.eventKey ?? null,
        })),
      )
      .onConflict((oc) => oc.columns(['userId', 'eventKey']).where('eventKey', 'is not', null).doNothing())
      .execute();
  const direct = ids.filter((id) => !digest.has(id));
  if (!direct.length) return;
  const insert = db.insertInto('message').values(
    direct.map((userId) => ({
      userId,
      title: msg.title,
      content: msg.content ?? '',
      kind,
      link: msg.link ?? null,
      eventKey: msg.eventKey ?? null,
    })),
  );
  if (!outside.size) {
    if (!msg.eventKey) await insert.execute();
    else
      await insert
        .onConflict((oc) => oc.columns(['userId', 'eventKey']).where('eventKey', 'is not', null).doNothing())
        .execute();
    return;
  }
  // Only a message actually written (not one already sent for the event) goes out again.
  const written = (
    await insert
      .onConflict((oc) => oc.columns(['userId', 'eventKey']).where('eventKey', 'is not', null).doNothing())
      .returning('userId')
      .execute()
  )
    .map((r) => Number(r.userId))
    .filter((id) => outside.has(id));
  if (written.length) await sendOutside(db, written, kind, msg);
}

/**
 * Queues a message for the outside channels each user chose for its kind (one `notify_send` row
 * per enabled channel) and wakes the queue at commit.
 */
export async function sendOutside(db: Db, userIds: number[], kind: string, msg: NewMessage): Promise<void> {
  await sql`
    WITH ins AS (
      INSERT INTO notify_send (user_id, channel, kind, title, content, link)
      SELECT p.user_id, ch.kind, ${kind}, ${msg.title.slice(0, 200)}, ${msg.content ?? ''}, ${msg.link ?? null}
        FROM notify_pref p
        JOIN notify_channel ch ON ch.user_id = p.user_id AND ch.kind = ANY(p.channels) AND ch.status = '1'
       WHERE p.kind = ${kind} AND p.user_id = ANY(${userIds}::bigint[])
       ORDER BY p.user_id, ch.kind
      RETURNING 1)
    SELECT pg_notify('ringmes_outbox', 'notify') FROM (SELECT 1 FROM ins LIMIT 1) w`.execute(db);
}
