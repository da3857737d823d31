import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { App } from '../../platform/http/route.ts';
import { notifyChannelRoutes, sendDigests, sendNotification } from './notify-channels.routes.ts';
import { QUEUES, registerOutboundQueue } from './outbound-queue.ts';
import { deliverWebhook, webhookRoutes } from './webhooks.routes.ts';

/**
 * What leaves the server on its own (issue 44 §4, §7): the durable queue with its jobs — webhook
 * deliveries, notifications to outside channels, the hourly digests — and the routes that set them up.
 */
export function outboundRoutes(app: App) {
  registerOutboundQueue(
    app,
    { [QUEUES.webhook]: deliverWebhook, [QUEUES.notify]: sendNotification },
    async (ctx) => {
      await sendDigests(ctx.db);
      await pruneOutbound(ctx.db);
    },
  );
  webhookRoutes(app);
  notifyChannelRoutes(app);
}

/**
 * The hour's pruning: delivered or failed webhook deliveries and outside messages older than
 * RETAIN_DELIVERIES_DAYS (30; 0 keeps them), and digest items counted more than 180 days ago
 * (kept that long so a repeated event is not counted again), at most 5,000 rows a table per hour.
 */
export async function pruneOutbound(db: Db): Promise<void> {
  const days = Number(process.env.RETAIN_DELIVERIES_DAYS ?? 30);
  if (Number.isFinite(days) && days > 0)
    for (const table of ['webhook_delivery', 'notify_send'])
      await sql`
        DELETE FROM ${sql.table(table)} WHERE id IN (
          SELECT id FROM ${sql.table(table)}
           WHERE status <> 'pending' AND created_at < now() - make_interval(days => ${days})
           ORDER BY id LIMIT 5000)`.execute(db);
  await sql`
    DELETE FROM notify_digest_item WHERE id IN (
      SELECT id FROM notify_digest_item WHERE digested_at < now() - interval '180 days' ORDER BY id LIMIT 5000)`.execute(
    db,
  );
}
