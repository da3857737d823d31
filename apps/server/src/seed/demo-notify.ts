import { sql } from 'kysely';
import { digestNow } from '../modules/system/notify-channels.routes.ts';
import type { Db } from '../platform/db/db.ts';

/**
 * 消息通知 in the demo (issue 44 §7): 质检员 qc01 takes 待检验 as an hourly digest. The 待检验
 * messages the seed sent him one by one become the items of one digest — 「待检验摘要：过去一小时 N 条」
 * linking to the list — as the hour's job would have made them.
 */
export async function seedDemoDigest(db: Db): Promise<void> {
  const qc = (await sql<{ id: number }>`SELECT id FROM app_user WHERE user_name = 'qc01'`.execute(db))
    .rows[0];
  if (!qc) return;
  await db
    .insertInto('notifyPref')
    .values({ userId: qc.id, kind: 'inspection', channels: [], digest: true })
    .onConflict((oc) => oc.columns(['userId', 'kind']).doUpdateSet({ digest: true }))
    .execute();
  await sql`
    WITH moved AS (
      DELETE FROM message WHERE user_id = ${qc.id} AND kind = 'inspection' AND read_at IS NULL
      RETURNING title, link, event_key, created_at)
    INSERT INTO notify_digest_item (user_id, kind, title, link, event_key, created_at)
    SELECT ${qc.id}, 'inspection', left(title, 200), link, event_key, created_at FROM moved ORDER BY created_at`.execute(
    db,
  );
  await digestNow(db);
}
