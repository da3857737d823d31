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
    },
  );
  webhookRoutes(app);
  notifyChannelRoutes(app);
}
