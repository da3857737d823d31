/**
 * In-app messages (站内消息): how any part of the server sends one. The routes that read and
 * mark them are `modules/system/message.routes.ts`.
 */
import type { MessageKind } from '@ringmes/domain';
import type { Db } from './db/db.ts';

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

/** Sends an in-app message to users; call it inside the transaction of the event it reports. */
export async function notify(db: Db, userIds: number[], msg: NewMessage): Promise<void> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  const insert = db.insertInto('message').values(
    ids.map((userId) => ({
      userId,
      title: msg.title,
      content: msg.content ?? '',
      kind: msg.kind ?? 'system',
      link: msg.link ?? null,
      eventKey: msg.eventKey ?? null,
    })),
  );
  if (!msg.eventKey) await insert.execute();
  else
    await insert
      .onConflict((oc) => oc.columns(['userId', 'eventKey']).where('eventKey', 'is not', null).doNothing())
      .execute();
}
