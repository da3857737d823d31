/**
 * Webhook events (issue 44 §4): what a change tells the third-party apps subscribed to it. An event
 * is written as one delivery row per matching subscription (`webhook_delivery`) inside the
 * transaction of the change — a transactional outbox: a change that rolls back sends nothing, one
 * that commits is delivered even if the process dies right after. The queue
 * (`modules/system/outbound-queue.ts`, pg-boss) takes the rows from there; `pg_notify` (sent at
 * commit) wakes it at once.
 */
import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { prepared } from '../db/prepared.ts';

/** The events an app can subscribe to, with the label 第三方应用 shows. */
export const WEBHOOK_EVENTS = {
  'document.status': '单据状态变更',
  'stock.posted': '库存过账',
  'inspection.result': '检验判定',
  'report.approved': '报工审核',
  'wage.closed': '工资月结',
} as const;
export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;

/** The database channel that wakes the queue's relay when a change with deliveries commits. */
export const OUTBOX_CHANNEL = 'ringmes_outbox';

export interface OutboxEvent {
  /** Every kind this change is (a 过账 is a state change and a stock posting). */
  events: WebhookEvent[];
  /** The resource (`purchase-order`), or the area of a change that is no document (`wage`). */
  resource: string;
  /** Deliveries of one key go out in the order they were written (a document: `resource:id`). */
  key: string;
  /**
   * The read permission a receiver needs (`sale:order:list`): an app is told only of what its
   * scopes let it read, whatever it subscribed to.
   */
  permission: string;
  data: Record<string, unknown>;
}

/**
 * Writes the deliveries of one change for every enabled subscription of an enabled app to one of
 * its events (all resources, or this one) whose scopes include the change's read permission, and
 * wakes the relay — one statement, which writes
 * nothing when nobody subscribes. Call it inside the change's transaction.
 */
export async function recordEvent(db: Db, e: OutboxEvent): Promise<void> {
  const payload = JSON.stringify({ ...e.data, resource: e.resource, occurredAt: new Date().toISOString() });
  await prepared(sql`
    WITH ins AS (
      INSERT INTO webhook_delivery (subscription_id, client_id, event, doc_key, payload)
      SELECT s.id, s.client_id, s.event, ${e.key},
             jsonb_build_object('event', s.event) || ${payload}::jsonb
        FROM webhook_subscription s JOIN api_client c ON c.id = s.client_id AND c.status = '1'
       WHERE s.status = '1' AND s.event = ANY(${e.events}::text[])
         AND (s.resource IS NULL OR s.resource = ${e.resource})
         AND (c.scopes @> jsonb_build_array(${e.permission}::text) OR c.scopes @> '["*:*:*"]'::jsonb)
       ORDER BY s.id
      RETURNING 1)
    SELECT pg_notify(${OUTBOX_CHANNEL}, 'webhook') FROM (SELECT 1 FROM ins LIMIT 1) w`).execute(db);
}

/** The events of one lifecycle transition: always a state change, some also a business event. */
export function transitionEvents(resource: string, transition: string, to: string): WebhookEvent[] {
  const events: WebhookEvent[] = ['document.status'];
  if (transition === 'post' && to === 'posted') events.push('stock.posted');
  if (resource === 'inspection-task' && ['pass', 'reject', 'concede'].includes(transition))
    events.push('inspection.result');
  if (resource === 'work-report' && transition === 'approve') events.push('report.approved');
  return events;
}
