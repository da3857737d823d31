import { recordLink, saleOrderResource } from '@ringmes/domain';
import { sql } from 'kysely';
import type { Db } from '../platform/db/db.ts';
import { notify } from '../platform/messages.ts';

/**
 * 动态 of the demo (issue 41 §1): a few comments on the newest sales orders and production orders
 * between sales, planning and the warehouse, one of them mentioning 王强 (plan01), who gets its
 * message as a comment made in the app sends it.
 */
export async function seedDemoComments(db: Db): Promise<void> {
  const users = new Map(
    (
      await db
        .selectFrom('appUser')
        .select(['id', 'userName', 'firstName'])
        .where('userName', 'in', ['sales01', 'plan01', 'wh01'])
        .execute()
    ).map((u: any) => [u.userName as string, { id: Number(u.id), name: u.firstName as string }]),
  );
  const sales = users.get('sales01');
  const plan = users.get('plan01');
  const keeper = users.get('wh01');
  if (!sales || !plan || !keeper) return;
  const newest = async (table: string) =>
    (
      await sql<{ id: number; docNo: string }>`
        SELECT id, doc_no FROM ${sql.table(table)} WHERE status <> 'draft' ORDER BY id DESC LIMIT 2`.execute(
        db,
      )
    ).rows.map((r) => ({ id: Number(r.id), docNo: r.docNo }));
  const [order, older] = await newest('sale_order');
  const [production] = await newest('production_order');
  if (!order || !production) return;

  const comment = async (
    resource: string,
    recordId: number,
    by: { id: number },
    content: string,
    minutesAgo: number,
    mentions: number[] = [],
  ) => {
    const r = await sql<{ id: number }>`
      INSERT INTO record_comment (resource, record_id, content, mentions, created_by, created_at)
      VALUES (${resource}, ${recordId}, ${content}, ${sql.val(mentions)}::bigint[], ${by.id},
              now() - make_interval(mins => ${minutesAgo}))
      RETURNING id`.execute(db);
    return Number(r.rows[0].id);
  };

  const asked = await comment(
    'sale-order',
    order.id,
    sales,
    `@${plan.name} 客户希望提前一周交货，生产能否排进下周？`,
    180,
    [plan.id],
  );
  await notify(db, [plan.id], {
    kind: 'mention',
    title: `${sales.name} 在销售订单 ${order.docNo}的评论中提到了你`,
    content: `@${plan.name} 客户希望提前一周交货，生产能否排进下周？`,
    link: recordLink(saleOrderResource, order.id, order.docNo),
    eventKey: `comment:${asked}`,
  });
  await comment('sale-order', order.id, plan, '车加工本周满负荷，可以先交一半，余下按原交期。', 120);
  await comment('sale-order', order.id, sales, '已和客户确认：先发一半，余下按原交期。', 60);
  if (older) await comment('sale-order', older.id, keeper, '成品仓库存够发，等出货检验合格即可发货。', 240);
  await comment('production-order', production.id, plan, '内圈毛坯明早到货，到货后优先开卡。', 90);
}
