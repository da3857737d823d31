import {
  INSPECTION_CATEGORIES,
  type InspectionCategory,
  PRODUCTION_MANAGE_PATH,
  WORKSHOP_KINDS,
  type WorkshopKind,
  workshopPaths,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import type { App, Permission } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { businessDay } from '../../platform/numbering.ts';
import { onTimeDelivery, overdueLine } from '../orders/on-time.ts';
import { SALE_REPORT } from '../orders/report.ts';
import { alertPage } from '../warehouse/alert.ts';
import { landingRoutes } from './landing.ts';

/**
 * 首页 cockpit: cards for the signed-in user's work. A card comes from a provider keyed by the
 * permission that opens it (its list page's permission), so a role sees the cards of the pages it
 * has and a new kind of card is one entry in `COCKPIT_PROVIDERS`. Every figure links to the
 * list that shows those records, with the filter in the URL query.
 */

export interface CockpitMetric {
  label: string;
  value: string | number;
  /** `danger` (late, below minimum), `warning`, or plain. */
  tone?: 'danger' | 'warning';
  /** The list (path + query) showing these records. */
  link?: string;
  suffix?: string;
}

export interface CockpitRow {
  text: string;
  sub?: string;
  tone?: 'danger' | 'warning';
  link?: string;
}

export interface CockpitCard {
  key: string;
  title: string;
  metrics: CockpitMetric[];
  rows?: CockpitRow[];
  /** Where 更多 goes. */
  more?: string;
}

export interface CockpitContext {
  db: Db;
  user: AuthUser;
  today: string;
  timeZone: string;
}

export interface CockpitProvider {
  key: string;
  /** The permission that shows the card (any of them). */
  permissions: string[];
  build(ctx: CockpitContext): Promise<CockpitCard | CockpitCard[] | null>;
}

const SALE_ORDER = '/sale-manage/sale-order';
const SALES_WAREHOUSE = '/sale-manage/sales-warehouse';
const SALE_REPORT_PAGE = '/sale-manage/statisticalStatement/salesReport';
const PRODUCTION_ORDER = `${PRODUCTION_MANAGE_PATH}/production-order`;
const PRODUCTION_ORDER_DETAIL = `${PRODUCTION_MANAGE_PATH}/produce-order-detail`;
const REQUISITION = '/production-department/buying-requisition';
const WORK_REPORT_RECORD = `${PRODUCTION_MANAGE_PATH}/work-report-record`;
const RECEIVABLES = '/finance-department/receivable-management';

/** Money as the cards show it: thousands separated, two decimals. */
const money = (v: string) =>
  Number(v).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const INBOUND = '/warehouse-logistics/warehouse-manage';
const OUTBOUND = '/warehouse-logistics/outbound-manage';
const TRANSFER = '/warehouse-logistics/warehouse-allot';
const ALERT = '/finance-department/inventory-alert';

const qs = (path: string, query: Record<string, string | number>) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

const num = (v: string | number | Decimal) => new Decimal(v).toString();

/** Monday … Sunday of the week of `day`. */
function weekOf(day: string): [string, string] {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  const mon = new Date(d.getTime() - back * 86_400_000);
  const sun = new Date(mon.getTime() + 6 * 86_400_000);
  return [mon.toISOString().slice(0, 10), sun.toISOString().slice(0, 10)];
}
const dayBefore = (day: string) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10);

const OPEN_SALE = ['approved', 'producing', 'partly-shipped'] as const;
const SALE_LABEL: Record<string, string> = {
  approved: '已审核',
  producing: '生产中',
  'partly-shipped': '部分发货',
};

/** 销售员: orders to ship this week, and the late ones. */
const salesProvider: CockpitProvider = {
  key: 'sales',
  permissions: ['sale:order:list'],
  async build({ db, today, user }) {
    const [mon, sun] = weekOf(today);
    const r = await sql<{ status: string; week: number; late: number }>`
      SELECT status, count(*) FILTER (WHERE delivery_date BETWEEN ${mon} AND ${sun})::int AS week,
             count(*) FILTER (WHERE delivery_date < ${today}::date)::int AS late
        FROM sale_order WHERE status = ANY(${sql.val([...OPEN_SALE])}::text[])
       GROUP BY status`.execute(db);
    const late = await sql<{ id: number; docNo: string; customerName: string; deliveryDate: string }>`
      SELECT o.id, o.doc_no, c.name AS customer_name, o.delivery_date
        FROM sale_order o LEFT JOIN customer c ON c.id = o.customer_id
       WHERE o.status = ANY(${sql.val([...OPEN_SALE])}::text[]) AND o.delivery_date < ${today}::date
       ORDER BY o.delivery_date, o.id LIMIT 5`.execute(db);
    const by = (s: string) => r.rows.find((x) => x.status === s);
    const week = r.rows.reduce((n, x) => n + x.week, 0);
    const yesterday = dayBefore(today);
    // 逾期未交货 and 准时交货率 by the one definition of on-time delivery (orders/on-time.ts), the
    // same the 销售统计报表 reads: lines, each by its own promised date.
    const overdue = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM sale_order_line l JOIN sale_order o ON o.id = l.sale_order_id
       WHERE ${overdueLine(SALE_REPORT, today)}`.execute(db);
    const lateTotal = overdue.rows[0].n;
    // This month's: what the report shows for this month (its lines promised before today).
    const month = today.slice(0, 7);
    const [onTime] = await onTimeDelivery(db, SALE_REPORT, {
      from: `${month}-01`,
      to: yesterday,
      asOf: today,
    });
    return {
      key: 'sales',
      title: '销售发货',
      metrics: [
        {
          label: '本周应交货',
          value: week,
          suffix: '单',
          link: qs(SALE_ORDER, { deliveryDateFrom: mon, deliveryDateTo: sun }),
        },
        {
          label: '逾期未交货',
          value: lateTotal,
          suffix: '行',
          tone: lateTotal > 0 ? 'danger' : undefined,
          link: can(user, 'sale:warehouse:list') ? qs(SALES_WAREHOUSE, { late: 1 }) : undefined,
        },
        {
          label: '本月准时交货率',
          value: onTime?.onTimeRate == null ? '-' : `${onTime.onTimeRate}%`,
          suffix: onTime ? `（${onTime.onTimeLines}/${onTime.dueLines} 行）` : undefined,
          tone: onTime && onTime.lateLines > 0 ? 'warning' : undefined,
          link: can(user, 'sale:report:query') ? qs(SALE_REPORT_PAGE, { from: month, to: month }) : undefined,
        },
        ...OPEN_SALE.map((s) => ({
          label: `逾期·${SALE_LABEL[s]}`,
          value: by(s)?.late ?? 0,
          tone: (by(s)?.late ?? 0) > 0 ? ('danger' as const) : undefined,
          link: qs(SALE_ORDER, { status: s, deliveryDateTo: yesterday }),
        })),
      ],
      rows: late.rows.map((o) => ({
        text: `${o.docNo} ${o.customerName ?? ''}`,
        sub: `交货日期 ${o.deliveryDate}`,
        tone: 'danger' as const,
        link: qs('/sale-manage/sale-order-detail', { id: o.id }),
      })),
      more: SALE_ORDER,
    };
  },
};

/** 计划员: material shortages of released orders, and the orders not yet released. */
const plannerProvider: CockpitProvider = {
  key: 'planner',
  permissions: ['production:order:list'],
  async build({ db, user }) {
    const counts = await sql<{ draft: number; released: number }>`
      SELECT count(*) FILTER (WHERE status = 'draft')::int AS draft,
             count(*) FILTER (WHERE status = 'released')::int AS released
        FROM production_order`.execute(db);
    const short = await sql<{ id: number; docNo: string; productName: string; lines: number }>`
      SELECT p.id, p.doc_no, m.name AS product_name, count(*)::int AS lines
        FROM production_order p
        JOIN material m ON m.id = p.product_id
        JOIN production_order_material pm ON pm.production_order_id = p.id
       WHERE p.status IN ('released', 'producing') AND pm.shortage_quantity > 0
         AND pm.shortage_quantity > COALESCE((
               SELECT sum(CASE WHEN r.status = 'closed' THEN rl.ordered_quantity ELSE rl.base_quantity END)
                 FROM production_order_requisition pr
                 JOIN purchase_requisition r ON r.id = pr.purchase_requisition_id
                 JOIN purchase_requisition_line rl ON rl.purchase_requisition_id = r.id
                WHERE pr.production_order_id = p.id AND rl.material_id = pm.material_id), 0)
       GROUP BY p.id, p.doc_no, m.name
       ORDER BY p.id DESC`.execute(db);
    const metrics: CockpitMetric[] = [
      {
        label: '缺料订单',
        value: short.rows.length,
        suffix: '单',
        tone: short.rows.length > 0 ? 'danger' : undefined,
      },
      {
        label: '未下达订单',
        value: counts.rows[0].draft,
        suffix: '单',
        tone: counts.rows[0].draft > 0 ? 'warning' : undefined,
        link: qs(PRODUCTION_ORDER, { status: 'draft' }),
      },
      {
        label: '已下达待开工',
        value: counts.rows[0].released,
        suffix: '单',
        link: qs(PRODUCTION_ORDER, { status: 'released' }),
      },
    ];
    if (can(user, 'production:requisition:list')) {
      const req = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM purchase_requisition WHERE status = 'draft'`.execute(db);
      metrics.push({
        label: '待审核请购单',
        value: req.rows[0].n,
        suffix: '张',
        link: qs(REQUISITION, { status: 'draft' }),
      });
    }
    return {
      key: 'planner',
      title: '计划与缺料',
      metrics,
      rows: short.rows.slice(0, 5).map((o) => ({
        text: `${o.docNo} ${o.productName}`,
        sub: `${o.lines} 种物料缺料，尚未请购足额`,
        tone: 'danger' as const,
        link: qs(PRODUCTION_ORDER_DETAIL, { id: o.id }),
      })),
      more: PRODUCTION_ORDER,
    };
  },
};

/** 车间主任: his workshop's plan against actual, today. */
const workshopProvider: CockpitProvider = {
  key: 'workshop',
  permissions: WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Task')}:list`),
  async build({ db, user, today }) {
    let kinds = WORKSHOP_KINDS.filter((k) => can(user, `${workshopPermission(k, 'Task')}:list`));
    // A head of one workshop (his department is that workshop) sees his own.
    const dept = await sql<{ type: string | null }>`
      SELECT w.type FROM dept d JOIN workshop w ON w.name = d.dept_name AND w.status = '1'
       WHERE d.id = ${user.deptId ?? 0} LIMIT 1`.execute(db);
    const own = dept.rows[0]?.type;
    if (own && kinds.some((k) => k.type === own)) kinds = kinds.filter((k) => k.type === own);
    const types = kinds.map((k) => k.type);
    const [plan, actual, tasks] = await Promise.all([
      sql<{ workshopType: string; q: string }>`
        SELECT workshop_type, sum(quantity)::text AS q FROM work_dispatch
         WHERE work_date = ${today} AND status <> 'closed' AND workshop_type = ANY(${sql.val(types)}::text[])
         GROUP BY workshop_type`.execute(db),
      sql<{ workshopType: string; good: string; scrap: string }>`
        SELECT workshop_type, sum(good_quantity)::text AS good,
               sum(work_scrap_quantity + material_scrap_quantity)::text AS scrap FROM work_report
         WHERE report_date = ${today} AND status = 'posted' AND workshop_type = ANY(${sql.val(types)}::text[])
         GROUP BY workshop_type`.execute(db),
      sql<{ workshopType: string; pending: number; started: number; late: number }>`
        SELECT workshop_type, count(*) FILTER (WHERE status = 'pending')::int AS pending,
               count(*) FILTER (WHERE status = 'started')::int AS started,
               count(*) FILTER (WHERE planned_finish_date < ${today}::date)::int AS late
          FROM workshop_task
         WHERE status NOT IN ('completed', 'closed') AND workshop_type = ANY(${sql.val(types)}::text[])
         GROUP BY workshop_type`.execute(db),
    ]);
    return kinds.map((k: WorkshopKind) => {
      const p = new Decimal(plan.rows.find((r) => r.workshopType === k.type)?.q ?? 0);
      const a = actual.rows.find((r) => r.workshopType === k.type);
      const good = new Decimal(a?.good ?? 0);
      const t = tasks.rows.find((r) => r.workshopType === k.type);
      const paths = workshopPaths(k);
      const dashboard = `/workshop-dashboard/${k.type === 'assembly' ? 'assemble' : k.type}-dashboard`;
      return {
        key: `workshop-${k.type}`,
        title: `${k.name} · 今日计划与实际`,
        metrics: [
          {
            label: '今日派工',
            value: num(p),
            link: qs(paths.dispatch, { workDateFrom: today, workDateTo: today }),
          },
          {
            label: '今日合格',
            value: num(good),
            suffix: p.gt(0) ? `（${good.div(p).times(100).toDecimalPlaces(0).toString()}%）` : undefined,
            link: qs(WORK_REPORT_RECORD, {
              workshopType: k.type,
              status: 'posted',
              reportDateFrom: today,
              reportDateTo: today,
            }),
          },
          {
            label: '今日废品',
            value: num(a?.scrap ?? 0),
            tone: new Decimal(a?.scrap ?? 0).gt(0) ? 'warning' : undefined,
          },
          { label: '待派工任务', value: t?.pending ?? 0, link: qs(paths.task, { status: 'pending' }) },
          { label: '进行中任务', value: t?.started ?? 0, link: qs(paths.task, { status: 'started' }) },
          { label: '逾期任务', value: t?.late ?? 0, tone: (t?.late ?? 0) > 0 ? 'danger' : undefined },
        ],
        more: can(user, `dashboard:${k.type}:query`) ? dashboard : paths.panel,
      } satisfies CockpitCard;
    });
  },
};

/** 仓管员: documents to post, and materials below their safety minimum. */
const warehouseProvider: CockpitProvider = {
  key: 'warehouse',
  permissions: ['warehouse:inbound:list', 'warehouse:outbound:list', 'warehouse:stock:list'],
  async build({ db, user }) {
    const metrics: CockpitMetric[] = [];
    const drafts = await sql<{ inbound: number; outbound: number; transfer: number }>`
      SELECT (SELECT count(*) FROM stock_inbound WHERE status = 'draft')::int AS inbound,
             (SELECT count(*) FROM stock_outbound WHERE status = 'draft')::int AS outbound,
             (SELECT count(*) FROM stock_transfer WHERE status = 'draft')::int AS transfer`.execute(db);
    const d = drafts.rows[0];
    if (can(user, 'warehouse:inbound:list'))
      metrics.push({
        label: '待过账入库单',
        value: d.inbound,
        suffix: '张',
        link: qs(INBOUND, { status: 'draft' }),
      });
    if (can(user, 'warehouse:outbound:list'))
      metrics.push({
        label: '待过账出库单',
        value: d.outbound,
        suffix: '张',
        link: qs(OUTBOUND, { status: 'draft' }),
      });
    if (can(user, 'warehouse:transfer:list'))
      metrics.push({
        label: '待过账调拨单',
        value: d.transfer,
        suffix: '张',
        link: qs(TRANSFER, { status: 'draft' }),
      });
    let rows: CockpitRow[] = [];
    if (can(user, 'warehouse:stock:list') || can(user, 'finance:inventoryAlert:query')) {
      const low = await alertPage(db, { kind: 'below', pageNum: 1, pageSize: 5 });
      metrics.push({
        label: '低于安全库存',
        value: low.total,
        suffix: '种',
        tone: low.total > 0 ? 'danger' : undefined,
        link: qs(ALERT, { kind: 'below' }),
      });
      rows = low.list.map((m: any) => ({
        text: `${m.materialName}（${m.materialCode}）`,
        sub: `库存 ${num(m.quantity)}，下限 ${num(m.safetyStockMin)}`,
        tone: 'danger' as const,
        link: qs('/warehouse-logistics/inventory-details', { materialId: m.materialId }),
      }));
    }
    return { key: 'warehouse', title: '仓库待办与预警', metrics, rows, more: INBOUND };
  },
};

/** 质检员: the inspection tasks waiting, per category (待检验 and 检验中), oldest first. */
const qualityProvider: CockpitProvider = {
  key: 'quality',
  permissions: INSPECTION_CATEGORIES.map((c) => `${c.permission}:list`),
  async build({ db, user, today }) {
    const mine = INSPECTION_CATEGORIES.filter((c) => can(user, `${c.permission}:list` as Permission));
    const r = await sql<{ category: string; status: string; n: number; oldest: string; assigned: number }>`
      SELECT category, status, count(*)::int AS n, min(created_at)::date::text AS oldest,
             count(*) FILTER (WHERE assignee_id = ${user.id})::int AS assigned
        FROM inspection_task
       WHERE status IN ('pending', 'inspecting') AND category = ANY(${sql.val(mine.map((c) => c.value))}::text[])
       GROUP BY category, status`.execute(db);
    const assigned = r.rows.reduce((n, x) => n + x.assigned, 0);
    const firstAssigned = mine.find((c) => r.rows.some((x) => x.category === c.value && x.assigned > 0));
    const of = (c: InspectionCategory, status: string) =>
      r.rows.find((x) => x.category === c.value && x.status === status);
    const waiting = mine
      .map((c) => ({ c, pending: of(c, 'pending'), running: of(c, 'inspecting') }))
      .filter((x) => x.pending || x.running);
    const total = (status: string) => r.rows.filter((x) => x.status === status).reduce((n, x) => n + x.n, 0);
    // Each figure opens the first category that has such tasks.
    const firstPending = waiting.find((x) => x.pending)?.c ?? mine[0];
    const firstRunning = waiting.find((x) => x.running)?.c ?? mine[0];
    return {
      key: 'quality',
      title: '待检验任务',
      metrics: [
        {
          label: '待检验',
          value: total('pending'),
          suffix: '单',
          tone: total('pending') > 0 ? 'warning' : undefined,
          link: firstPending ? qs(firstPending.path, { status: 'pending' }) : undefined,
        },
        {
          label: '检验中',
          value: total('inspecting'),
          suffix: '单',
          link: firstRunning ? qs(firstRunning.path, { status: 'inspecting' }) : undefined,
        },
        {
          label: '指派给我',
          value: assigned,
          suffix: '单',
          tone: assigned > 0 ? 'warning' : undefined,
          link: firstAssigned ? qs(firstAssigned.path, { mine: '1' }) : undefined,
        },
      ],
      rows: waiting.map(({ c, pending, running }) => {
        const oldest = [pending?.oldest, running?.oldest].filter(Boolean).sort()[0] as string;
        return {
          text: `${c.label}：待检验 ${pending?.n ?? 0} 单，检验中 ${running?.n ?? 0} 单`,
          sub: `最早一单 ${oldest}`,
          tone: oldest < today ? ('warning' as const) : undefined,
          link: qs(c.path, { status: pending ? 'pending' : 'inspecting' }),
        };
      }),
      more: firstPending ? qs(firstPending.path, { status: 'pending' }) : undefined,
    };
  },
};

/** 财务: receivables due — overdue, due within 7 days, and the largest overdue customers. */
const financeProvider: CockpitProvider = {
  key: 'finance',
  permissions: ['finance:receivable:list'],
  async build({ db, today }) {
    const week = new Date(`${today}T00:00:00Z`);
    week.setUTCDate(week.getUTCDate() + 7);
    const inWeek = week.toISOString().slice(0, 10);
    const open = sql`status IN ('open', 'partly')`;
    const sums = (
      await sql<{ overdue: string; overdueN: number; soon: string; soonN: number }>`
        SELECT coalesce(sum(open_amount) FILTER (WHERE due_date < ${today}::date), 0)::text AS overdue,
               count(*) FILTER (WHERE due_date < ${today}::date)::int AS overdue_n,
               coalesce(sum(open_amount) FILTER (WHERE due_date BETWEEN ${today}::date AND ${inWeek}::date), 0)::text AS soon,
               count(*) FILTER (WHERE due_date BETWEEN ${today}::date AND ${inWeek}::date)::int AS soon_n
          FROM receivable WHERE ${open}`.execute(db)
    ).rows[0];
    const top = await sql<{ customerId: number; name: string; amount: string; oldest: string }>`
      SELECT r.customer_id, c.name, sum(r.open_amount)::text AS amount, min(r.due_date)::text AS oldest
        FROM receivable r JOIN customer c ON c.id = r.customer_id
       WHERE ${open} AND r.due_date < ${today}::date
       GROUP BY r.customer_id, c.name ORDER BY sum(r.open_amount) DESC LIMIT 5`.execute(db);
    const dayBefore = new Date(`${today}T00:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    const yesterday = dayBefore.toISOString().slice(0, 10);
    return {
      key: 'finance',
      title: '应收到期',
      metrics: [
        {
          label: `已逾期（${sums.overdueN} 笔）`,
          value: money(sums.overdue),
          suffix: '元',
          tone: Number(sums.overdue) > 0 ? 'danger' : undefined,
          link: qs(RECEIVABLES, { status: 'open,partly', dueDateTo: yesterday }),
        },
        {
          label: `7 天内到期（${sums.soonN} 笔）`,
          value: money(sums.soon),
          suffix: '元',
          tone: Number(sums.soon) > 0 ? 'warning' : undefined,
          link: qs(RECEIVABLES, { status: 'open,partly', dueDateFrom: today, dueDateTo: inWeek }),
        },
      ],
      rows: top.rows.map((x) => ({
        text: `${x.name}：逾期 ${money(x.amount)} 元`,
        sub: `最早到期 ${x.oldest}`,
        tone: 'danger' as const,
        link: qs(RECEIVABLES, { status: 'open,partly', customerId: x.customerId, dueDateTo: yesterday }),
      })),
      more: RECEIVABLES,
    };
  },
};

/** The card providers, in the order the cards show. */
export const COCKPIT_PROVIDERS: CockpitProvider[] = [
  salesProvider,
  plannerProvider,
  workshopProvider,
  warehouseProvider,
  qualityProvider,
  financeProvider,
];

/** The cards of a user: every provider one of whose permissions the user holds. */
export async function cockpitCards(db: Db, user: AuthUser, timeZone: string): Promise<CockpitCard[]> {
  const ctx: CockpitContext = { db, user, today: businessDay(new Date(), timeZone), timeZone };
  const mine = COCKPIT_PROVIDERS.filter((p) => p.permissions.some((perm) => can(user, perm)));
  const built = await Promise.all(mine.map((p) => p.build(ctx)));
  return built.flatMap((c) => (c === null ? [] : Array.isArray(c) ? c : [c]));
}

export function cockpitRoutes(app: App) {
  // Where a user lands after signing in: the page of his daily work (landing.ts).
  landingRoutes(app);
  route(app, {
    method: 'GET',
    url: '/api/v1/cockpit/cards',
    permission: 'authenticated',
    async handler({ user, app: { db, config } }) {
      return { cards: await cockpitCards(db, user, config.timeZone) };
    },
  });
}
