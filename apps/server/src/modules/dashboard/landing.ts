import {
  INSPECTION_CATEGORIES,
  PRODUCTION_MANAGE_PATH,
  WORKSHOP_KINDS,
  workshopPaths,
  workshopPermission,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import { ALL, type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';

/**
 * Where a user lands after signing in (`/`): on the page of his daily work. Each work queue below
 * belongs to a job; a user holds a queue when he holds the permission of its page (his roles'
 * granted pages). His job is the job of the first queue he holds, in the order below; he lands on
 * the first of that job's queues that has open work — the list filtered to that work — else on the
 * job's first queue. A user who holds none (an operator, whose 操作工任务 the web picks by his own
 * open dispatches) or who holds everything (a super-admin) gets no answer, and the web's menu rule
 * applies.
 *
 * The order puts the narrower job first: a workshop head's tasks before the production orders he
 * may also read, a planner's production orders before the sales orders he may also read, and the
 * warehouse's documents before the purchase pages a keeper may hold one of (委外退货).
 */
export interface WorkQueue {
  key: string;
  /** The job the queue is part of (the warehouse's 出库 and 入库). */
  job: string;
  /** Does the user hold the queue (the permission of its page)? */
  holds: (user: AuthUser) => boolean;
  /** The page, and the page filtered to the open work when there is some. */
  page: (user: AuthUser, db: Db) => Promise<{ path: string; open: number; openPath?: string } | null>;
}

const HOME = '/home/info';
const PRODUCTION_ORDER = `${PRODUCTION_MANAGE_PATH}/production-order`;
const OUTBOUND = '/warehouse-logistics/outbound-manage';
const INBOUND = '/warehouse-logistics/warehouse-manage';
const PURCHASE_ORDER = '/purchase/purchase-manage';
const RECEIVABLES = '/finance-department/receivable-management';
const SALE_ORDER = '/sale-manage/sale-order';

const count = async (db: Db, query: RawBuilder<{ n: number }>) =>
  Number((await query.execute(db)).rows[0]?.n ?? 0);

/** A queue of one page whose open work is counted by one statement. */
function listQueue(
  key: string,
  job: string,
  permission: string,
  path: string,
  open: (db: Db) => Promise<number>,
  openQuery?: string,
): WorkQueue {
  return {
    key,
    job,
    holds: (user) => can(user, permission),
    async page(_user, db) {
      const n = await open(db);
      return { path, open: n, openPath: openQuery ? `${path}?${openQuery}` : path };
    },
  };
}

export const WORK_QUEUES: WorkQueue[] = [
  // 车间主任: his workshop's tasks waiting for 派工 (his department is the workshop).
  {
    key: 'workshop',
    job: 'workshop',
    holds: (user) => WORKSHOP_KINDS.some((k) => can(user, `${workshopPermission(k, 'Task')}:list`)),
    async page(user, db) {
      const own = await sql<{ type: string }>`
        SELECT w.type FROM dept d JOIN workshop w ON w.name = d.dept_name AND w.status = '1'
         WHERE d.id = ${user.deptId ?? 0} LIMIT 1`.execute(db);
      const kind = WORKSHOP_KINDS.find((k) => k.type === own.rows[0]?.type);
      if (!kind || !can(user, `${workshopPermission(kind, 'Task')}:list`)) return null;
      const n = await count(
        db,
        sql<{ n: number }>`SELECT count(*)::int AS n FROM workshop_task
                            WHERE workshop_type = ${kind.type} AND status = 'pending'`,
      );
      const path = workshopPaths(kind).task;
      return { path, open: n, openPath: `${path}?status=pending` };
    },
  },
  // 质检员: the inspection tasks waiting, on 首页's 待检验任务 card (assigned to him first).
  {
    key: 'quality',
    job: 'quality',
    holds: (user) => INSPECTION_CATEGORIES.some((c) => can(user, `${c.permission}:inspect`)),
    async page(user, db) {
      const mine = INSPECTION_CATEGORIES.filter((c) => can(user, `${c.permission}:inspect`)).map(
        (c) => c.value,
      );
      const n = await count(
        db,
        sql<{ n: number }>`SELECT count(*)::int AS n FROM inspection_task
                            WHERE status IN ('pending', 'inspecting') AND category = ANY(${sql.val(mine)}::text[])`,
      );
      return { path: HOME, open: n };
    },
  },
  // 计划员: production orders to release or under way.
  listQueue(
    'production',
    'planning',
    'production:order:list',
    PRODUCTION_ORDER,
    (db) =>
      count(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM production_order WHERE status = 'draft'`),
    'status=draft',
  ),
  // 仓管员: 出库 and 入库 documents waiting to be posted (销售出库 made by sales, 采购入库 …).
  listQueue(
    'outbound',
    'warehouse',
    'warehouse:outbound:list',
    OUTBOUND,
    (db) =>
      count(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM stock_outbound WHERE status = 'draft'`),
    'status=draft',
  ),
  listQueue(
    'inbound',
    'warehouse',
    'warehouse:inbound:list',
    INBOUND,
    (db) =>
      count(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM stock_inbound WHERE status = 'draft'`),
    'status=draft',
  ),
  // 采购员: approved requisitions to order (从请购单生成 on the order list), orders to approve.
  listQueue('purchase', 'purchase', 'purchase:order:list', PURCHASE_ORDER, (db) =>
    count(
      db,
      sql<{ n: number }>`SELECT ((SELECT count(*) FROM purchase_requisition WHERE status = 'approved')
                              + (SELECT count(*) FROM purchase_order WHERE status = 'draft'))::int AS n`,
    ),
  ),
  // 财务: receivables still open.
  listQueue(
    'finance',
    'finance',
    'finance:receivable:list',
    RECEIVABLES,
    (db) =>
      count(
        db,
        sql<{ n: number }>`SELECT count(*)::int AS n FROM receivable WHERE status IN ('open', 'partly')`,
      ),
    'status=open,partly',
  ),
  // 销售员: orders to submit and orders still to ship.
  listQueue('sales', 'sales', 'sale:order:list', SALE_ORDER, (db) =>
    count(
      db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM sale_order
                          WHERE status IN ('draft', 'approved', 'producing', 'partly-shipped')`,
    ),
  ),
];

/** The landing of a user by the queues (null: the web's menu rule decides). */
export async function landingOf(db: Db, user: AuthUser): Promise<{ path: string | null; queue?: string }> {
  if (user.isAdmin || user.permissions.has(ALL)) return { path: null };
  let job: string | undefined;
  let first: { path: string; queue: string } | undefined;
  for (const q of WORK_QUEUES) {
    if ((job && q.job !== job) || !q.holds(user)) continue;
    const page = await q.page(user, db);
    if (!page) continue;
    job ??= q.job;
    if (page.open > 0) return { path: page.openPath ?? page.path, queue: q.key };
    first ??= { path: page.path, queue: q.key };
  }
  return first ?? { path: null };
}

export function landingRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/cockpit/landing',
    permission: 'authenticated',
    handler: ({ user, app: { db } }) => landingOf(db, user),
  });
}
