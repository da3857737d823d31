import {
  type MrpCalendar,
  MrpCycleError,
  type MrpDemand,
  type MrpFirmOrder,
  type MrpInput,
  type MrpItem,
  type MrpPegRef,
  type MrpPlannedOrder,
  type MrpReceipt,
  type MrpReschedule,
  type MrpRow,
  PRODUCTION_ORDER_RESERVING,
  runMrp,
  type TreeLine,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { type App, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';

/**
 * MRP (物料需求计划) on the database's figures: this file gathers them, `runMrp` in
 * packages/domain computes (level-by-level netting, lot sizes, lead times, pegging), and the
 * answers are the MRP sheet and the documents made from its planned orders. Two scopes:
 *
 * - **One production order** (`orderMrp`): the order is a firm planned order of its product; its
 *   components are netted against free stock (qualified on hand less what other released orders
 *   still hold) and open supply, and it plans for itself only. 下达 freezes its BOM from this
 *   run, 生成自制件订单 makes its direct made components' planned orders into orders, 生成请购单
 *   requisitions its planned purchases. What the order already has counts as its own supply: what
 *   was issued to it, its 自制件订单 (drafts too), the requisitions and purchase orders open.
 * - **The plan** (`planMrp`, 「运算」): every open sales order line is a demand at its delivery
 *   date, every open 备货单 line one at its 完成日期, every released order's open requirement one
 *   at its start, every draft order a firm planned order; released orders arrive at their due
 *   date. The plan restores safety stock.
 *
 * Lead times are counted in the working days of the factory calendar (系统设置 › 生产日历,
 * `planningCalendar`); without one, every day works.
 *
 * Open supply (scheduled receipts): released and producing orders (quantity − produced, at the due
 * date), requisitions not yet ordered, purchase orders not yet received (draft, approved, partly
 * received; their lines' delivery date), and 委外 pieces at the supplier (sent − received +
 * returned, on buyers' 委外订单; a card's outsourced step is its order's work, not supply).
 */

/** Releases and MRP documents run one at a time: the same lock as writeRequirements. */
export const lockPlanning = (db: Db) =>
  sql`SELECT pg_advisory_xact_lock(hashtext('production_order.release'))`.execute(db);

const SALES_OPEN = ['approved', 'producing', 'partly-shipped'];
/** 备货单 states whose lines are still to be made (as 从备货单生成 plans them). */
const STOCK_UP_OPEN = ['approved', 'producing'];
const REQUISITION_OPEN = ['draft', 'approved', 'partly-ordered'];
const PURCHASE_OPEN = ['draft', 'approved', 'partly-received'];
const OUTSOURCING_OPEN = ['approved', 'partly-received'];

interface MaterialRow {
  id: number;
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  precision: number;
  leadTimeDays: number | null;
  lotSizeMin: string | null;
  lotSizeMultiple: string | null;
  safetyStock: string | null;
  make: boolean;
  routeSteps: { standardMinutes: string | null; outsourced: boolean }[] | null;
  onHand: string;
}

interface LineRow extends TreeLine {
  childName: string;
  unitName: string | null;
  perNull: boolean;
}

/** What the sheet tells about a receipt counted as supply. */
export interface SheetReceipt {
  kind: string;
  label: string;
  quantity: string;
  date: string;
}

export interface SheetRow extends MrpRow {
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  leadTimeDays: number | null;
  lotSizeMin: string | null;
  lotSizeMultiple: string | null;
  receipts: SheetReceipt[];
}

export interface SheetOrder extends MrpPlannedOrder {
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
}

export interface MrpSheet {
  scope: 'production-order' | 'plan';
  today: string;
  /** The factory calendar lead times were counted in; null: every day works. */
  calendar: MrpCalendar | null;
  order?: {
    id: number;
    docNo: string;
    status: string;
    productId: number;
    quantity: string;
    plannedStartDate: string;
    dueDate: string;
  };
  /** How many demands the run served (sales order lines, released orders' requirements). */
  demandCount: number;
  rows: SheetRow[];
  plannedOrders: SheetOrder[];
  /** Open orders due after they are needed, counted as brought in: to expedite. */
  rescheduled: (MrpReschedule & { code: string; name: string; label: string })[];
  /** Why there is nothing to plan (a completed order), or null. */
  note: string | null;
}

const LINE_QUERY_COLUMNS = sql`
  l.material_id AS child_id, (l.quantity * f.factor)::text AS quantity_per, (f.factor IS NULL) AS per_null,
  l.loss_rate::text AS loss_rate, l.line_no, l.process_id, m.name AS child_name, u.name AS unit_name`;
const LINE_JOINS = sql`
  JOIN material m ON m.id = l.material_id
  LEFT JOIN material_unit u ON u.id = l.unit_id
  LEFT JOIN LATERAL (SELECT CASE WHEN l.unit_id IS NULL OR l.unit_id = m.unit_id THEN 1::numeric
                                 ELSE (SELECT c.factor FROM material_unit_conversion c
                                        WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END AS factor) f ON true`;

function checkedLines(rows: LineRow[]): TreeLine[] {
  const bad = rows.find((x) => x.perNull);
  if (bad) {
    throw conflict(
      `BOM 中「${bad.childName}」的单位「${bad.unitName ?? ''}」没有换算到基本单位，请在物料的单位换算中添加`,
    );
  }
  return rows.map((x) => ({
    parentId: Number(x.parentId),
    childId: Number(x.childId),
    quantityPer: x.quantityPer,
    lossRate: x.lossRate,
    lineNo: Number(x.lineNo),
    bomId: Number(x.bomId),
    processId: x.processId == null ? null : Number(x.processId),
  }));
}

/** The lines of the given BOMs (an order's chosen BOM), each under `parentId`. */
async function bomLinesOf(db: Db, boms: { bomId: number; parentId: number }[]): Promise<TreeLine[]> {
  if (!boms.length) return [];
  const r = await sql<LineRow>`
    SELECT x.parent_id, x.bom_id, ${LINE_QUERY_COLUMNS}
      FROM unnest(${sql.val(boms.map((b) => b.bomId))}::bigint[], ${sql.val(boms.map((b) => b.parentId))}::bigint[])
           AS x(bom_id, parent_id)
      JOIN bom_line l ON l.bom_id = x.bom_id
      ${LINE_JOINS}`.execute(db);
  return checkedLines(r.rows);
}

/** Every active-BOM line below the seed items, each parent's first active BOM. */
async function activeLinesBelow(db: Db, seeds: number[]): Promise<TreeLine[]> {
  if (!seeds.length) return [];
  const r = await sql<LineRow>`
    WITH RECURSIVE reach(material_id) AS (
      SELECT unnest(${sql.val([...new Set(seeds)])}::bigint[])
      UNION
      SELECT l.material_id
        FROM reach r
        JOIN LATERAL (SELECT id FROM bom WHERE product_id = r.material_id AND status = 'active' ORDER BY id LIMIT 1) b ON true
        JOIN bom_line l ON l.bom_id = b.id
    )
    SELECT r.material_id AS parent_id, b.id AS bom_id, ${LINE_QUERY_COLUMNS}
      FROM reach r
      JOIN LATERAL (SELECT id FROM bom WHERE product_id = r.material_id AND status = 'active' ORDER BY id LIMIT 1) b ON true
      JOIN bom_line l ON l.bom_id = b.id
      ${LINE_JOINS}`.execute(db);
  return checkedLines(r.rows);
}

async function materialsOf(db: Db, ids: number[]): Promise<Map<number, MaterialRow>> {
  const r = await sql<MaterialRow>`
    SELECT m.id, m.code, m.name, m.spec, u.name AS unit_name, COALESCE(u.precision, 4) AS precision,
           m.lead_time_days, m.lot_size_min::text AS lot_size_min, m.lot_size_multiple::text AS lot_size_multiple,
           m.safety_stock_min::text AS safety_stock,
           EXISTS (SELECT 1 FROM bom b WHERE b.product_id = m.id AND b.status = 'active') AS make,
           (SELECT json_agg(json_build_object('standardMinutes', s.standard_minutes::text, 'outsourced', s.outsourced))
              FROM process_route_step s
             WHERE s.process_route_id = (SELECT pr.id FROM process_route pr
                                          WHERE pr.product_id = m.id AND pr.status = 'active' ORDER BY pr.id LIMIT 1)) AS route_steps,
           COALESCE((SELECT sum(s.quantity) FROM stock_balance s
                      WHERE s.material_id = m.id AND s.quality_status = 'qualified'), 0)::text AS on_hand
      FROM material m LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE m.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  return new Map(r.rows.map((x) => [Number(x.id), { ...x, id: Number(x.id) }]));
}

interface ReceiptRow {
  materialId: number;
  quantity: string;
  date: string;
  kind: string;
  id: number;
  docNo: string;
  dedicated?: boolean;
}

const RECEIPT_LABEL: Record<string, string> = {
  'production-order': '生产订单',
  'sub-order': '自制件订单',
  requisition: '请购单',
  'purchase-order': '采购订单',
  outsourcing: '委外在途',
  issued: '已领料',
};

/**
 * Open supply of the items: released orders (but `exceptOrder`), requisitions, purchase orders
 * and 委外 in transit.
 */
async function openSupply(db: Db, ids: number[], forOrder: number, today: string) {
  // `dedicated`: made or bought for `forOrder` — its 自制件订单 (drafts too), the requisitions made
  // for it (生成请购单) and the purchase order lines made from them.
  const r = await sql<ReceiptRow>`
    SELECT p.product_id AS material_id, greatest(p.quantity - p.produced_quantity, 0)::text AS quantity,
           to_char(p.due_date, 'YYYY-MM-DD') AS date,
           CASE WHEN p.parent_order_id = ${forOrder} THEN 'sub-order' ELSE 'production-order' END AS kind,
           p.id, p.doc_no, p.parent_order_id = ${forOrder} AS dedicated
      FROM production_order p
     WHERE p.product_id = ANY(${sql.val(ids)}::bigint[]) AND p.id <> ${forOrder} AND p.quantity > p.produced_quantity
       AND (p.status = ANY(${sql.val(PRODUCTION_ORDER_RESERVING)}::text[])
            OR (p.status = 'draft' AND p.parent_order_id = ${forOrder}))
    UNION ALL
    SELECT l.material_id, greatest(COALESCE(l.base_quantity, l.quantity) - l.ordered_quantity, 0)::text,
           to_char(COALESCE(l.required_date, r.required_date, ${today}::date), 'YYYY-MM-DD'), 'requisition', r.id, r.doc_no,
           EXISTS (SELECT 1 FROM production_order_requisition pr
                    WHERE pr.purchase_requisition_id = r.id AND pr.production_order_id = ${forOrder})
      FROM purchase_requisition_line l JOIN purchase_requisition r ON r.id = l.purchase_requisition_id
     WHERE l.material_id = ANY(${sql.val(ids)}::bigint[]) AND r.status = ANY(${sql.val(REQUISITION_OPEN)}::text[])
       AND COALESCE(l.base_quantity, l.quantity) > l.ordered_quantity
    UNION ALL
    SELECT l.material_id, greatest(COALESCE(l.base_quantity, l.quantity) - l.received_quantity + l.returned_quantity, 0)::text,
           to_char(COALESCE(l.delivery_date, o.delivery_date, ${today}::date), 'YYYY-MM-DD'), 'purchase-order', o.id, o.doc_no,
           EXISTS (SELECT 1 FROM purchase_requisition_line rl
                     JOIN production_order_requisition pr ON pr.purchase_requisition_id = rl.purchase_requisition_id
                    WHERE rl.id = l.requisition_line_id AND pr.production_order_id = ${forOrder})
      FROM purchase_order_line l JOIN purchase_order o ON o.id = l.purchase_order_id
     WHERE l.material_id = ANY(${sql.val(ids)}::bigint[]) AND o.status = ANY(${sql.val(PURCHASE_OPEN)}::text[])
       AND COALESCE(l.base_quantity, l.quantity) > l.received_quantity - l.returned_quantity
    UNION ALL
    SELECT l.material_id, greatest(l.sent_quantity - l.received_quantity + l.returned_quantity, 0)::text,
           to_char(COALESCE(l.delivery_date, o.delivery_date, ${today}::date), 'YYYY-MM-DD'), 'outsourcing', o.id, o.doc_no,
           false
      FROM outsourcing_order_line l JOIN outsourcing_order o ON o.id = l.outsourcing_order_id
     WHERE l.material_id = ANY(${sql.val(ids)}::bigint[]) AND o.status = ANY(${sql.val(OUTSOURCING_OPEN)}::text[])
       AND o.production_order_id IS NULL AND l.sent_quantity > l.received_quantity - l.returned_quantity`.execute(
    db,
  );
  return r.rows;
}

const receiptOf = (x: ReceiptRow): MrpReceipt => ({
  itemId: Number(x.materialId),
  quantity: x.quantity,
  date: x.date,
  kind: x.kind,
  ref: { type: x.kind, id: Number(x.id), label: x.docNo },
  dedicated: Boolean(x.dedicated),
});

/** The domain's item from a material row. */
function itemOf(m: MaterialRow, allocated?: string): MrpItem {
  return {
    id: m.id,
    source: m.make ? 'make' : 'buy',
    leadTimeDays: m.leadTimeDays,
    routeSteps: m.routeSteps,
    lotSizeMin: m.lotSizeMin,
    lotSizeMultiple: m.lotSizeMultiple,
    safetyStock: m.safetyStock,
    precision: m.precision,
    onHand: m.onHand,
    allocated: allocated ?? '0',
  };
}

/**
 * The factory calendar (系统设置 › 生产日历): the weekdays worked, holidays and 调休 days; null when
 * every day works (nothing set, or all seven days without holidays), so dates are calendar days.
 */
export async function planningCalendar(db: Db): Promise<MrpCalendar | null> {
  const s = await readSettings(db, [
    SETTING_KEYS.planningWeekdays,
    SETTING_KEYS.planningHolidays,
    SETTING_KEYS.planningWorkdays,
  ]);
  const list = <T>(k: string) => {
    const v = s.get(k);
    return Array.isArray(v) ? (v as T[]) : null;
  };
  const weekdays = list<number>(SETTING_KEYS.planningWeekdays) ?? [1, 2, 3, 4, 5, 6, 7];
  const holidays = list<string>(SETTING_KEYS.planningHolidays) ?? [];
  const workdays = list<string>(SETTING_KEYS.planningWorkdays) ?? [];
  if (!weekdays.length || (new Set(weekdays).size === 7 && !holidays.length)) return null;
  return { weekdays, holidays, workdays };
}

/** Runs the domain's MRP, a BOM cycle answered as a 409 naming the materials. */
function run(input: MrpInput, materials: Map<number, MaterialRow>) {
  try {
    return runMrp(input);
  } catch (e) {
    if (e instanceof MrpCycleError) {
      const names = e.itemIds.map((id) => materials.get(id)?.name ?? `#${id}`);
      throw conflict(`BOM 存在循环引用：${names.join(' → ')}`);
    }
    throw e;
  }
}

function sheetOf(
  scope: MrpSheet['scope'],
  input: MrpInput,
  result: ReturnType<typeof runMrp>,
  materials: Map<number, MaterialRow>,
  receipts: MrpReceipt[],
  demandCount: number,
): MrpSheet {
  const today = input.today;
  const about = (id: number) => {
    const m = materials.get(id);
    return {
      code: m?.code ?? '',
      name: m?.name ?? `#${id}`,
      spec: m?.spec ?? null,
      unitName: m?.unitName ?? null,
    };
  };
  const receiptsOf = new Map<number, SheetReceipt[]>();
  for (const r of receipts) {
    const list = receiptsOf.get(r.itemId) ?? [];
    list.push({
      kind: r.kind,
      label: `${RECEIPT_LABEL[r.kind] ?? r.kind} ${r.ref?.label ?? ''}`.trim(),
      quantity: r.quantity,
      date: r.date,
    });
    receiptsOf.set(r.itemId, list);
  }
  return {
    scope,
    today,
    calendar: input.calendar ?? null,
    demandCount,
    rows: result.rows.map((r) => {
      const m = materials.get(r.itemId);
      return {
        ...r,
        ...about(r.itemId),
        leadTimeDays: m?.leadTimeDays ?? null,
        lotSizeMin: m?.lotSizeMin ?? null,
        lotSizeMultiple: m?.lotSizeMultiple ?? null,
        receipts: receiptsOf.get(r.itemId) ?? [],
      };
    }),
    plannedOrders: result.plannedOrders.map((o) => ({ ...o, ...about(o.itemId) })),
    rescheduled: result.rescheduled.map((x) => ({
      ...x,
      code: about(x.itemId).code,
      name: about(x.itemId).name,
      label:
        `${RECEIPT_LABEL[x.kind] ?? (x.kind === 'firm' ? '生产订单（草稿）' : x.kind)} ${x.ref?.label ?? ''}`.trim(),
    })),
    note: null,
  };
}

// ------------------------------------------------------------------------------ one order

interface OrderHead {
  id: number;
  docNo: string;
  status: string;
  productId: number;
  productName: string;
  quantity: string;
  plannedStartDate: string;
  dueDate: string;
  bomId: number | null;
  saleOrderDocNo: string | null;
}

async function orderHead(db: Db, orderId: number): Promise<OrderHead> {
  const r = await sql<OrderHead>`
    SELECT p.id, p.doc_no, p.status, p.product_id, m.name AS product_name, p.quantity::text AS quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS planned_start_date, to_char(p.due_date, 'YYYY-MM-DD') AS due_date,
           p.bom_id, (SELECT s.doc_no FROM sale_order s WHERE s.id = p.sale_order_id) AS sale_order_doc_no
      FROM production_order p JOIN material m ON m.id = p.product_id WHERE p.id = ${orderId}`.execute(db);
  const o = r.rows[0];
  if (!o) throw notFound('生产订单不存在或已被删除');
  return {
    ...o,
    id: Number(o.id),
    productId: Number(o.productId),
    bomId: o.bomId == null ? null : Number(o.bomId),
  };
}

/** The BOM an order is made by: the one chosen on it, else its product's active one. */
export async function orderBom(db: Db, o: Pick<OrderHead, 'bomId' | 'productId' | 'productName'>) {
  const r = o.bomId
    ? await sql<{
        id: number;
        versionNo: string;
      }>`SELECT id, version_no FROM bom WHERE id = ${o.bomId}`.execute(db)
    : await sql<{ id: number; versionNo: string }>`
        SELECT id, version_no FROM bom WHERE product_id = ${o.productId} AND status = 'active' ORDER BY id LIMIT 1`.execute(
        db,
      );
  const bom = r.rows[0];
  if (!bom) throw conflict(`产品「${o.productName}」没有启用的BOM，请先启用BOM或在订单上选择BOM`);
  return { id: Number(bom.id), versionNo: bom.versionNo };
}

export interface OrderRun {
  head: OrderHead;
  bom: { id: number; versionNo: string };
  /** The order's own BOM lines (its chosen BOM). */
  rootLines: TreeLine[];
  /** Every active BOM's lines below them, by parent. */
  linesOf: Map<number, TreeLine[]>;
  sheet: MrpSheet;
}

const orderPeg = (o: Pick<OrderHead, 'id' | 'docNo' | 'saleOrderDocNo'>): MrpPegRef => ({
  type: 'production-order',
  id: o.id,
  label: o.saleOrderDocNo ? `${o.docNo}（${o.saleOrderDocNo}）` : o.docNo,
});

/**
 * One order's MRP run. The order's product is made by its chosen BOM; stock that other released
 * orders hold is theirs (`allocated`), and the order counts its own issues and 自制件订单 as its
 * supply, so running it again after 生成请购单 or 生成自制件订单 plans nothing twice.
 */
export async function orderMrp(db: Db, orderId: number): Promise<OrderRun> {
  const head = await orderHead(db, orderId);
  const bom = await orderBom(db, head);
  const today = businessDay();
  const rootLines = await bomLinesOf(db, [{ bomId: bom.id, parentId: head.productId }]);
  const below = await activeLinesBelow(
    db,
    rootLines.map((l) => l.childId),
  );
  const linesOf = new Map<number, TreeLine[]>();
  for (const l of below) linesOf.set(l.parentId, [...(linesOf.get(l.parentId) ?? []), l]);
  const ids = [
    ...new Set([head.productId, ...rootLines.map((l) => l.childId), ...below.map((l) => l.childId)]),
  ];
  const materials = await materialsOf(db, ids);

  const allocated = await sql<{ materialId: number; quantity: string }>`
    SELECT pm.material_id, sum(greatest(pm.required_quantity - pm.issued_quantity, 0))::text AS quantity
      FROM production_order_material pm JOIN production_order p ON p.id = pm.production_order_id
     WHERE pm.material_id = ANY(${sql.val(ids)}::bigint[]) AND p.id <> ${orderId}
       AND p.status = ANY(${sql.val(PRODUCTION_ORDER_RESERVING)}::text[])
     GROUP BY pm.material_id`.execute(db);
  const allocatedOf = new Map(allocated.rows.map((x) => [Number(x.materialId), x.quantity]));
  const issued = await sql<ReceiptRow>`
    SELECT pm.material_id, pm.issued_quantity::text AS quantity, ${today} AS date, 'issued' AS kind,
           ${orderId}::bigint AS id, ${head.docNo} AS doc_no, true AS dedicated
      FROM production_order_material pm WHERE pm.production_order_id = ${orderId} AND pm.issued_quantity > 0`.execute(
    db,
  );
  const receipts = [...(await openSupply(db, ids, orderId, today)), ...issued.rows].map(receiptOf);

  const items = [...materials.values()].map((m) => itemOf(m, allocatedOf.get(m.id)));
  const root = items.find((i) => i.id === head.productId);
  if (root) root.source = 'make';
  const firm: MrpFirmOrder = {
    itemId: head.productId,
    quantity: head.quantity,
    startDate: head.plannedStartDate,
    dueDate: head.dueDate,
    peg: orderPeg(head),
    bomLines: rootLines,
  };
  const input: MrpInput = {
    today,
    calendar: await planningCalendar(db),
    items,
    bom: below,
    demands: [],
    receipts,
    firmOrders: [firm],
    coverShortfalls: false,
  };
  const sheet = sheetOf('production-order', input, run(input, materials), materials, receipts, 1);
  sheet.order = {
    id: head.id,
    docNo: head.docNo,
    status: head.status,
    productId: head.productId,
    quantity: head.quantity,
    plannedStartDate: head.plannedStartDate,
    dueDate: head.dueDate,
  };
  if (!['draft', ...PRODUCTION_ORDER_RESERVING].includes(head.status)) {
    sheet.note = `生产订单 ${head.docNo} 已完工或已关闭，不再计划物料`;
    sheet.rows = [];
    sheet.plannedOrders = [];
    sheet.rescheduled = [];
  }
  return { head, bom, rootLines, linesOf, sheet };
}

// ------------------------------------------------------------------------------ the plan

/**
 * The plan: every open sales order line (approved, 生产中, partly shipped: ordered − shipped, at
 * the line's delivery date), every released order's open requirements (required − issued, at its
 * planned start) and every draft order as a firm planned order, netted together.
 */
export async function planMrp(db: Db): Promise<MrpSheet> {
  const today = businessDay();
  const sales = await sql<{
    materialId: number;
    quantity: string;
    date: string;
    saleOrderId: number;
    lineId: number;
    docNo: string;
  }>`
    SELECT l.material_id, greatest(COALESCE(l.base_quantity, l.quantity) - l.shipped_quantity, 0)::text AS quantity,
           to_char(COALESCE(l.delivery_date, o.delivery_date), 'YYYY-MM-DD') AS date,
           o.id AS sale_order_id, l.id AS line_id, o.doc_no
      FROM sale_order o JOIN sale_order_line l ON l.sale_order_id = o.id
     WHERE o.status = ANY(${sql.val(SALES_OPEN)}::text[]) AND COALESCE(l.base_quantity, l.quantity) > l.shipped_quantity
     ORDER BY 3, o.doc_no, l.line_no`.execute(db);
  // A 备货单 line is made for stock: what its production orders have not produced yet is a demand
  // at its 完成日期 (the line's, else the 备货单's); its orders are supply like any other.
  const stockUp = await sql<{
    materialId: number;
    quantity: string;
    date: string;
    stockUpOrderId: number;
    lineId: number;
    docNo: string;
  }>`
    SELECT l.material_id,
           greatest(COALESCE(l.base_quantity, l.quantity)
                    - COALESCE((SELECT sum(p.produced_quantity) FROM production_order p WHERE p.stock_up_line_id = l.id), 0),
                    0)::text AS quantity,
           to_char(COALESCE(l.required_date, o.required_date), 'YYYY-MM-DD') AS date,
           o.id AS stock_up_order_id, l.id AS line_id, o.doc_no
      FROM stock_up_order o JOIN stock_up_order_line l ON l.stock_up_order_id = o.id
     WHERE o.status = ANY(${sql.val(STOCK_UP_OPEN)}::text[])
       AND COALESCE(l.base_quantity, l.quantity)
           > COALESCE((SELECT sum(p.produced_quantity) FROM production_order p WHERE p.stock_up_line_id = l.id), 0)
     ORDER BY 3, o.doc_no, l.line_no`.execute(db);
  const held = await sql<{ materialId: number; quantity: string; date: string; id: number; docNo: string }>`
    SELECT pm.material_id, greatest(pm.required_quantity - pm.issued_quantity, 0)::text AS quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS date, p.id,
           p.doc_no || COALESCE('（' || (SELECT s.doc_no FROM sale_order s WHERE s.id = p.sale_order_id) || '）', '') AS doc_no
      FROM production_order p JOIN production_order_material pm ON pm.production_order_id = p.id
     WHERE p.status = ANY(${sql.val(PRODUCTION_ORDER_RESERVING)}::text[]) AND pm.required_quantity > pm.issued_quantity
     ORDER BY 3, p.doc_no`.execute(db);
  const drafts = await sql<{
    id: number;
    docNo: string;
    productId: number;
    quantity: string;
    startDate: string;
    dueDate: string;
    chosenBomId: number | null;
  }>`
    SELECT p.id, p.doc_no || COALESCE('（' || (SELECT s.doc_no FROM sale_order s WHERE s.id = p.sale_order_id) || '）', '') AS doc_no,
           p.product_id, p.quantity::text AS quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS start_date, to_char(p.due_date, 'YYYY-MM-DD') AS due_date,
           CASE WHEN p.bom_id IS NOT NULL AND p.bom_id IS DISTINCT FROM
                     (SELECT b.id FROM bom b WHERE b.product_id = p.product_id AND b.status = 'active' ORDER BY b.id LIMIT 1)
                THEN p.bom_id END AS chosen_bom_id
      FROM production_order p WHERE p.status = 'draft' ORDER BY p.due_date, p.doc_no`.execute(db);
  const chosen = await bomLinesOf(
    db,
    drafts.rows
      .filter((d) => d.chosenBomId != null)
      .map((d) => ({ bomId: Number(d.chosenBomId), parentId: Number(d.productId) })),
  );
  const seeds = [
    ...sales.rows.map((x) => Number(x.materialId)),
    ...stockUp.rows.map((x) => Number(x.materialId)),
    ...held.rows.map((x) => Number(x.materialId)),
    ...drafts.rows.map((x) => Number(x.productId)),
    ...chosen.map((l) => l.childId),
  ];
  const below = await activeLinesBelow(db, seeds);
  const ids = [...new Set([...seeds, ...below.map((l) => l.childId)])];
  const materials = await materialsOf(db, ids);
  const receipts = (await openSupply(db, ids, 0, today)).map(receiptOf);
  const demands: MrpDemand[] = [
    ...sales.rows.map((x) => ({
      itemId: Number(x.materialId),
      quantity: x.quantity,
      date: x.date,
      peg: { type: 'sale-order', id: Number(x.saleOrderId), lineId: Number(x.lineId), label: x.docNo },
    })),
    ...stockUp.rows.map((x) => ({
      itemId: Number(x.materialId),
      quantity: x.quantity,
      date: x.date,
      peg: { type: 'stock-up-order', id: Number(x.stockUpOrderId), lineId: Number(x.lineId), label: x.docNo },
    })),
    ...held.rows.map((x) => ({
      itemId: Number(x.materialId),
      quantity: x.quantity,
      date: x.date,
      peg: { type: 'production-order', id: Number(x.id), label: x.docNo },
    })),
  ];
  const firmOrders: MrpFirmOrder[] = drafts.rows.map((d) => ({
    itemId: Number(d.productId),
    quantity: d.quantity,
    startDate: d.startDate,
    dueDate: d.dueDate,
    peg: { type: 'production-order', id: Number(d.id), label: d.docNo },
    bomLines: d.chosenBomId != null ? chosen.filter((l) => l.bomId === Number(d.chosenBomId)) : undefined,
  }));
  const items = [...materials.values()].map((m) => itemOf(m));
  for (const f of firmOrders) {
    const it = items.find((i) => i.id === f.itemId);
    if (it && f.bomLines?.length) it.source = 'make';
  }
  const input: MrpInput = {
    today,
    calendar: await planningCalendar(db),
    items,
    bom: below,
    demands,
    receipts,
    firmOrders,
    coverShortfalls: true,
  };
  return sheetOf('plan', input, run(input, materials), materials, receipts, demands.length);
}

// ------------------------------------------------------------------------------ documents

/** Stores what a requisition or production order made from planned orders serves. */
export async function storePegs(
  db: Db,
  supply: { requisitionId?: number; productionOrderId?: number },
  orders: Pick<MrpPlannedOrder, 'itemId' | 'needDate' | 'pegs'>[],
) {
  const rows = orders.flatMap((o) =>
    o.pegs.map((p) => ({
      materialId: o.itemId,
      needDate: o.needDate,
      quantity: p.quantity,
      type: ['sale-order', 'stock-up-order', 'production-order', 'safety-stock'].includes(p.ref.type)
        ? p.ref.type
        : 'stock',
      saleOrderId: p.ref.type === 'sale-order' ? p.ref.id : null,
      saleOrderLineId: p.ref.type === 'sale-order' ? (p.ref.lineId ?? null) : null,
      stockUpOrderId: p.ref.type === 'stock-up-order' ? p.ref.id : null,
      stockUpLineId: p.ref.type === 'stock-up-order' ? (p.ref.lineId ?? null) : null,
      demandOrderId: p.ref.type === 'production-order' ? p.ref.id : null,
    })),
  );
  if (!rows.length) return;
  await sql`
    INSERT INTO mrp_peg (purchase_requisition_id, production_order_id, material_id, demand_type, sale_order_id,
                         sale_order_line_id, stock_up_order_id, stock_up_order_line_id, demand_order_id, quantity, need_date)
    SELECT ${supply.requisitionId ?? null}::bigint, ${supply.productionOrderId ?? null}::bigint, x.material, x.type,
           x.sale_order, x.sale_line, x.stock_up, x.stock_up_line, x.demand_order, x.quantity, x.need
      FROM unnest(${sql.val(rows.map((r) => r.materialId))}::bigint[], ${sql.val(rows.map((r) => r.type))}::text[],
                  ${sql.val(rows.map((r) => r.saleOrderId))}::bigint[], ${sql.val(rows.map((r) => r.saleOrderLineId))}::bigint[],
                  ${sql.val(rows.map((r) => r.stockUpOrderId))}::bigint[], ${sql.val(rows.map((r) => r.stockUpLineId))}::bigint[],
                  ${sql.val(rows.map((r) => r.demandOrderId))}::bigint[], ${sql.val(rows.map((r) => r.quantity))}::numeric[],
                  ${sql.val(rows.map((r) => r.needDate))}::date[])
           AS x(material, type, sale_order, sale_line, stock_up, stock_up_line, demand_order, quantity, need)`.execute(
    db,
  );
}

export const pegQuery = z
  .strictObject({
    requisitionId: zx.id.optional(),
    productionOrderId: zx.id.optional(),
  })
  .refine((q) => (q.requisitionId == null) !== (q.productionOrderId == null), {
    message: '请指定请购单或生产订单之一',
    path: ['requisitionId'],
  });

/** What a requisition or production order made from planned orders serves. */
export async function pegsOf(db: Db, q: z.infer<typeof pegQuery>) {
  const r = await sql<Record<string, unknown>>`
    SELECT g.id, g.material_id, m.code AS material_code, m.name AS material_name, g.demand_type,
           g.sale_order_id, s.doc_no AS sale_order_doc_no, g.sale_order_line_id,
           g.stock_up_order_id, su.doc_no AS stock_up_order_doc_no, g.stock_up_order_line_id,
           g.demand_order_id, p.doc_no AS demand_order_doc_no, g.quantity::text AS quantity,
           to_char(g.need_date, 'YYYY-MM-DD') AS need_date
      FROM mrp_peg g
      JOIN material m ON m.id = g.material_id
      LEFT JOIN sale_order s ON s.id = g.sale_order_id
      LEFT JOIN stock_up_order su ON su.id = g.stock_up_order_id
      LEFT JOIN production_order p ON p.id = g.demand_order_id
     WHERE ${q.requisitionId ? sql`g.purchase_requisition_id = ${q.requisitionId}` : sql`g.production_order_id = ${q.productionOrderId}`}
     ORDER BY g.id`.execute(db);
  return { list: r.rows };
}

export function mrpRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/mrp/production-order/:id',
    permission: 'production:order:list',
    alsoAllowedBy: ['production:mrp:query'],
    params: idParams,
    handler: async ({ params, app: { db } }) => (await orderMrp(db, params.id)).sheet,
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/mrp/plan',
    permission: 'production:mrp:query',
    handler: ({ app: { db } }) => planMrp(db),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/mrp/pegs',
    permission: 'production:mrp:query',
    alsoAllowedBy: ['production:order:list', 'production:requisition:list'],
    query: pegQuery,
    handler: ({ query, app: { db } }) => pegsOf(db, query),
  });
}
