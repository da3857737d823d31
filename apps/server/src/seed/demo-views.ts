import { sql } from 'kysely';
import type { Db } from '../platform/db/db.ts';

/**
 * Saved views of the demo (issue 41 §5): 张丽 (sales01) keeps two 销售订单 views of her own — drafts
 * by delivery date, and fifty rows a page, her default; the administrator shares 已审核待生产 with
 * the 销售员 role and 生产中（按计划开工）(生产订单) with the 计划员 role.
 */
export async function seedDemoViews(db: Db): Promise<void> {
  const user = async (userName: string) =>
    (await sql<{ id: number }>`SELECT id FROM app_user WHERE user_name = ${userName}`.execute(db)).rows[0]
      ?.id;
  const role = async (roleKey: string) =>
    (await sql<{ id: number }>`SELECT id FROM role WHERE role_key = ${roleKey}`.execute(db)).rows[0]?.id;
  const [admin, sales01, salesRole, plannerRole] = [
    await user('admin'),
    await user('sales01'),
    await role('sales'),
    await role('planner'),
  ];
  if (!admin || !sales01 || !salesRole || !plannerRole) return;
  const view = async (listKey: string, name: string, owner: number, roleId: number | null, state: object) =>
    (
      await sql<{ id: number }>`
        INSERT INTO list_view (list_key, name, owner_id, role_id, state)
        VALUES (${listKey}, ${name}, ${owner}, ${roleId}, ${JSON.stringify(state)}::jsonb) RETURNING id`.execute(
        db,
      )
    ).rows[0]?.id;

  await view('sale-order', '我的草稿（按交期）', sales01, null, {
    filters: { status: 'draft' },
    sortField: 'deliveryDate',
    sortOrder: 'asc',
    hidden: ['createdAt', 'updatedAt'],
    pageSize: 50,
  });
  // Her default changes only the page size: the list opens as always, fifty rows a page.
  const fifty = await view('sale-order', '每页 50 条', sales01, null, {
    filters: {},
    hidden: ['createdAt', 'updatedAt'],
    pageSize: 50,
  });
  await sql`INSERT INTO list_view_default (user_id, list_key, view_id) VALUES (${sales01}, 'sale-order', ${fifty})`.execute(
    db,
  );
  await view('sale-order', '已审核待生产', admin, salesRole, {
    filters: { status: 'approved' },
    sortField: 'deliveryDate',
    sortOrder: 'asc',
  });
  await view('production-order', '生产中（按计划开工）', admin, plannerRole, {
    filters: { status: 'producing' },
    sortField: 'plannedStartDate',
    sortOrder: 'asc',
    pageSize: 50,
  });
}
