import { inspectionTaskResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { audit } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { conflict } from '../../platform/errors.ts';
import { businessDay } from '../../platform/numbering.ts';
import { updateRecord } from '../../platform/resource/crud.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';
import { shopFloorEvents } from '../production/inspection-events.ts';
import { taken } from '../production/pieces.ts';
import { beforeStockPost, onStockPosted } from '../warehouse/stock-events.ts';
import { createInspectionTask, findTemplate, inspectionTaskHooks } from './inspection.ts';

/**
 * Where inspection tasks come from and what waits for them. Each function is one call from the
 * module that owns the source (报工, 入库过账, 出库过账), inside that module's transaction.
 */

const DONE = ['passed', 'conceded'];

/**
 * 报工 on a step flagged for inspection, approved (待检验): a 报工检验 task of the workshop —
 * 首检 for the dispatch's first, 末检 when it completes the dispatch, else 巡检.
 */
export async function onReportAwaitingInspection(db: Db, user: AuthUser, report: Record<string, any>) {
  const open = await sql<{ id: number }>`
    SELECT id FROM inspection_task WHERE work_report_id = ${report.id} AND status IN ('pending', 'inspecting', 'failed')`.execute(
    db,
  );
  if (open.rows.length) return Number(open.rows[0].id);
  // A first article whose inspection was overridden is none: the next report is sent for 首检.
  const d = await sql<{ quantity: string; reported: string; firsts: number }>`
    SELECT d.quantity::text AS quantity, d.reported_quantity::text AS reported,
           (SELECT count(*)::int FROM inspection_task t WHERE t.dispatch_id = d.id AND t.check_kind = 'first'
               AND t.status <> 'overridden') AS firsts
      FROM work_dispatch d WHERE d.id = ${report.dispatchId}`.execute(db);
  const disp = d.rows[0];
  const good = new Decimal(report.goodQuantity ?? 0);
  const checkKind = !disp?.firsts
    ? 'first'
    : disp && good.plus(disp.reported).gte(disp.quantity)
      ? 'final'
      : 'patrol';
  const card = await sql<{
    heatNo: string | null;
  }>`SELECT heat_no FROM flow_card WHERE id = ${report.flowCardId}`.execute(db);
  const lot = Decimal.max(
    good.plus(report.workScrapQuantity ?? 0).plus(report.materialScrapQuantity ?? 0),
    1,
  );
  return createInspectionTask(db, user, {
    category: `${report.workshopType}-reporting`,
    checkKind,
    productId: Number(report.productId),
    processId: report.processId ? Number(report.processId) : null,
    lotQuantity: lot.toString(),
    batchNo: card.rows[0]?.heatNo ?? null,
    sourceType: 'work-report',
    sourceNo: report.docNo,
    workReportId: Number(report.id),
    dispatchId: Number(report.dispatchId),
    flowCardId: Number(report.flowCardId),
    planDate: report.reportDate ?? businessDay(),
  });
}

/**
 * A report taken back (反审核): its unjudged tasks go with it; judged ones stay as history
 * (a held card stays held until its task is re-inspected).
 */
export async function onReportWithdrawn(db: Db, reportId: number) {
  await sql`DELETE FROM inspection_task WHERE work_report_id = ${reportId} AND status IN ('pending', 'inspecting')`.execute(
    db,
  );
  await sql`UPDATE inspection_task SET work_report_id = NULL WHERE work_report_id = ${reportId}`.execute(db);
}

/**
 * 越过检验入账 of a report waiting 待检验 (work-report.ts, in its transaction): its open inspection
 * task is closed as 已越过 with the reason, and audited. A failed one refuses — its card is held
 * and 返工复检 or 让步接收 decide it. Answers the closed tasks' numbers.
 */
export async function onInspectionOverridden(
  db: Db,
  user: AuthUser,
  report: Record<string, any>,
  reason: string,
  requestId?: string,
) {
  const r = await sql<{ id: number; docNo: string; status: string }>`
    SELECT id, doc_no, status FROM inspection_task WHERE work_report_id = ${report.id}
       AND status IN ('pending', 'inspecting', 'failed') ORDER BY id FOR UPDATE`.execute(db);
  const failed = r.rows.find((x) => x.status === 'failed');
  if (failed)
    throw conflict(
      `报工单 ${report.docNo} 的检验单 ${failed.docNo} 已判定不合格（流转卡暂扣），不能越过检验入账；请返工复检或让步接收`,
    );
  for (const x of r.rows) {
    await sql`UPDATE inspection_task SET status = 'overridden', status_reason = ${reason}, updated_by = ${user.id},
                     updated_at = now(), version = version + 1 WHERE id = ${x.id}`.execute(db);
    await audit(
      db,
      user,
      {
        entity: inspectionTaskResource.name,
        entityId: Number(x.id),
        action: 'override',
        before: { status: x.status },
        after: { status: 'overridden', reason, workReport: report.docNo },
      },
      requestId,
    );
  }
  return r.rows.map((x) => x.docNo);
}

/**
 * 首检 gating: on a step flagged for inspection, a dispatch's first report is its first article;
 * any further report (bulk production) waits until a first-article inspection passed (合格 or
 * 让步接收) — nothing else opens it: not the report's posting, nor 越过检验入账. A report whose 首检
 * was overridden is no first article (the next report is sent for 首检 in its place).
 */
export async function assertFirstArticle(db: Db, dispatchId: number, exceptReportId: number) {
  const r = await prepared(sql<{ flagged: boolean; docNo: string; others: number }>`
    SELECT t.inspection_required AS flagged, d.doc_no,
           (SELECT count(*)::int FROM work_report w WHERE w.dispatch_id = d.id AND w.id <> ${exceptReportId}
               AND NOT EXISTS (SELECT 1 FROM inspection_task x WHERE x.work_report_id = w.id
                                  AND x.check_kind = 'first' AND x.status = 'overridden')) AS others
      FROM work_dispatch d JOIN workshop_task t ON t.id = d.task_id WHERE d.id = ${dispatchId}`).execute(db);
  const d = r.rows[0];
  if (!d?.flagged || !d.others) return;
  const first = await sql<{ docNo: string; status: string }>`
    SELECT doc_no, status FROM inspection_task WHERE dispatch_id = ${dispatchId} AND check_kind = 'first'
       AND status <> 'overridden'
     ORDER BY (status IN ('passed', 'conceded')) DESC, id LIMIT 1`.execute(db);
  const f = first.rows[0];
  if (f && DONE.includes(f.status)) return;
  throw conflict(
    f
      ? `派工单 ${d.docNo} 的首检（检验单 ${f.docNo}）尚未合格，不能报批量生产；请等待首检合格`
      : `派工单 ${d.docNo} 的首件尚未送检（首件报工审核后生成首检单），不能报批量生产`,
  );
}

/**
 * 车间来料: a flow card's good pieces arriving at its next step (报工入账 of step `fromSeq`, or 委外
 * 收回 of it) are the incoming semi-finished of that step's workshop when the step before was done
 * elsewhere (another workshop, or a supplier). They get a 来料检验 task of that workshop when a
 * template for it exists. Called after every change of what arrived, in the same transaction:
 * - the step's waiting (待检验) task — at most one (a partial unique index) — holds what has arrived
 *   beyond the lots of its tasks already started or judged; it grows with further arrivals and
 *   shrinks, or goes, when an arrival is taken back (反审核, 撤销收回);
 * - pieces arriving after the inspection started are a new lot: a new waiting task;
 * - started and judged tasks keep their lots, as history; when everything is taken back, the
 *   unjudged ones (待检验, 检验中) are deleted.
 */
export async function onCardArrival(db: Db, user: AuthUser, cardId: number, fromSeq: number) {
  const r = await prepared(sql<{
    productId: number;
    stepId: number;
    processId: number;
    arrived: string;
    workshopType: string;
  }>`
    SELECT c.product_id, n.id AS step_id, n.process_id, n.input_quantity::text AS arrived, w.type AS workshop_type
      FROM flow_card c
      JOIN flow_card_step p ON p.flow_card_id = c.id AND p.seq = ${fromSeq}
      JOIN LATERAL (SELECT * FROM flow_card_step x WHERE x.flow_card_id = c.id AND x.seq > p.seq
                     ORDER BY x.seq LIMIT 1) n ON true
      JOIN workshop w ON w.id = n.workshop_id
     WHERE c.id = ${cardId} AND NOT n.outsourced AND n.workshop_id IS DISTINCT FROM p.workshop_id`).execute(
    db,
  );
  const step = r.rows[0];
  if (!step) return null;
  if (new Decimal(step.arrived).lte(0)) {
    // Everything taken back: the unjudged tasks go with it.
    await sql`DELETE FROM inspection_task WHERE flow_card_step_id = ${step.stepId}
               AND status IN ('pending', 'inspecting')`.execute(db);
    return null;
  }
  const tasks = (
    await sql<{ id: number; status: string; lotQuantity: string }>`
      SELECT id, status, lot_quantity::text AS lot_quantity FROM inspection_task
       WHERE flow_card_step_id = ${step.stepId} ORDER BY id FOR UPDATE`.execute(db)
  ).rows;
  const waiting = tasks.find((t) => t.status === 'pending');
  const covered = tasks
    .filter((t) => t !== waiting)
    .reduce((sum, t) => sum.plus(t.lotQuantity), new Decimal(0));
  const open = new Decimal(step.arrived).minus(covered);
  if (open.lte(0)) {
    if (waiting) await sql`DELETE FROM inspection_task WHERE id = ${waiting.id}`.execute(db);
    return null;
  }
  if (waiting) {
    if (!open.eq(waiting.lotQuantity)) {
      await updateRecord(
        { db, user: { ...user, isAdmin: true }, def: inspectionTaskResource },
        Number(waiting.id),
        { lotQuantity: open.toString() },
        inspectionTaskHooks,
      );
    }
    return Number(waiting.id);
  }
  const kind = 'incoming';
  const templateId = await findTemplate(db, Number(step.productId), Number(step.processId), kind);
  if (!templateId) return null;
  return createInspectionTask(db, user, {
    category: `${step.workshopType}-${kind}`,
    productId: Number(step.productId),
    processId: Number(step.processId),
    templateId,
    lotQuantity: open.toString(),
    sourceType: 'flow-card',
    flowCardId: cardId,
    flowCardStepId: Number(step.stepId),
    planDate: businessDay(),
  });
}

// Production announces its shop-floor events (`production/inspection-events.ts`); quality answers
// them with its tasks and gates.
shopFloorEvents.reportAdding.on((db, dispatchId) => assertFirstArticle(db, dispatchId, 0));
shopFloorEvents.reportAwaitingInspection.on(onReportAwaitingInspection);
shopFloorEvents.inspectionOverridden.on(onInspectionOverridden);
shopFloorEvents.reportWithdrawn.on(onReportWithdrawn);
shopFloorEvents.cardArrived.on(onCardArrival);

/** 采购入库 posted: each line received 待检 gets a 来料检验 task (钢球、保持架… 装配; steel 车加工). */
export async function onInboundPosted(db: Db, user: AuthUser, docId: number) {
  const r = await sql<Record<string, any>>`
    SELECT i.doc_no, i.type, i.biz_date::text AS biz_date, l.id AS line_id, l.material_id, l.batch_no,
           l.base_quantity::text AS base_quantity,
           (mt.code LIKE 'AUX%' OR COALESCE(pt.code, '') LIKE 'AUX%') AS component
      FROM stock_inbound i JOIN stock_inbound_line l ON l.stock_inbound_id = i.id
      JOIN material m ON m.id = l.material_id JOIN material_type mt ON mt.id = m.material_type_id
      LEFT JOIN material_type pt ON pt.id = mt.parent_id
     WHERE i.id = ${docId} AND i.type = 'purchase' AND l.quality_status = 'pending'
     ORDER BY l.line_no`.execute(db);
  for (const l of r.rows) {
    await createInspectionTask(db, user, {
      category: l.component ? 'assembly-incoming' : 'machine-incoming',
      productId: Number(l.materialId),
      lotQuantity: l.baseQuantity,
      batchNo: l.batchNo || null,
      sourceType: 'stock-inbound',
      sourceNo: l.docNo,
      stockInboundId: docId,
      stockInboundLineId: Number(l.lineId),
      planDate: l.bizDate,
    });
  }
}

/** 出货检验 tasks for a 销售出库 draft: one per material not yet covered. Answers the new ids. */
export async function tasksForOutbound(db: Db, user: AuthUser, outboundId: number) {
  const r = await sql<Record<string, any>>`
    SELECT o.doc_no, o.type, o.status, o.biz_date::text AS biz_date, l.material_id,
           sum(l.base_quantity)::text AS quantity, min(l.batch_no) AS batch_no
      FROM stock_outbound o JOIN stock_outbound_line l ON l.stock_outbound_id = o.id
     WHERE o.id = ${outboundId}
       AND NOT EXISTS (SELECT 1 FROM inspection_task t WHERE t.stock_outbound_id = o.id
                          AND t.product_id = l.material_id AND t.status <> 'failed')
     GROUP BY o.id, l.material_id ORDER BY l.material_id`.execute(db);
  const ids: number[] = [];
  for (const l of r.rows) {
    if (l.type !== 'sales') throw conflict(`出库单 ${l.docNo} 不是销售出库，不做出货检验`);
    if (l.status !== 'draft') throw conflict(`销售出库 ${l.docNo} 已过账，不能再生成出货检验`);
    ids.push(
      await createInspectionTask(db, user, {
        category: 'shipment',
        productId: Number(l.materialId),
        lotQuantity: l.quantity,
        batchNo: l.batchNo || null,
        stockOutboundId: outboundId,
        sourceType: 'stock-outbound',
        planDate: l.bizDate,
      }),
    );
  }
  return ids;
}

/** A 销售出库's 出货检验 tasks, oldest first, with what its keeper follows: state, verdict, inspector. */
export async function tasksOfOutbound(db: Db, outboundId: number) {
  const r = await sql<Record<string, any>>`
    SELECT t.id, t.doc_no, t.status, t.result, t.product_id, m.name AS product_name, t.lot_quantity::text AS lot_quantity,
           t.sample_size, t.batch_no, u.first_name AS inspector_name, t.inspected_at
      FROM inspection_task t JOIN material m ON m.id = t.product_id LEFT JOIN app_user u ON u.id = t.inspector_id
     WHERE t.stock_outbound_id = ${outboundId} ORDER BY t.id LIMIT 200`.execute(db);
  return r.rows.map((x) => ({ ...x, id: Number(x.id), productId: Number(x.productId) }));
}

/**
 * The 销售出库 a shipment inspection checks, as its inspector reads it on the task (he need not
 * read the warehouse's documents): the header, and the lines with their batches.
 */
export async function outboundForInspection(db: Db, outboundId: number) {
  const head = await sql<Record<string, any>>`
    SELECT o.id, o.doc_no, o.status, to_char(o.biz_date, 'YYYY-MM-DD') AS biz_date, c.name AS customer_name,
           w.name AS warehouse_name, so.doc_no AS sale_order_no
      FROM stock_outbound o JOIN warehouse w ON w.id = o.warehouse_id
      LEFT JOIN customer c ON c.id = o.customer_id LEFT JOIN sale_order so ON so.id = o.sale_order_id
     WHERE o.id = ${outboundId}`.execute(db);
  if (!head.rows[0]) return null;
  const lines = await sql<Record<string, any>>`
    SELECT l.line_no, m.code AS material_code, m.name AS material_name, l.quantity::text AS quantity,
           u.name AS unit_name, l.batch_no
      FROM stock_outbound_line l JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = COALESCE(l.unit_id, m.unit_id)
     WHERE l.stock_outbound_id = ${outboundId} ORDER BY l.line_no`.execute(db);
  return { ...head.rows[0], id: Number(head.rows[0].id), lines: lines.rows };
}

/**
 * 出货检验 gate (系统设置 › 发货前必须出货检验合格): a 销售出库 posts only when every material on
 * it has a passed (or conceded) shipment inspection.
 */
export async function assertShipmentInspected(db: Db, outboundId: number) {
  const settings = await readSettings(db, [SETTING_KEYS.shipmentInspectionRequired]);
  if (settings.get(SETTING_KEYS.shipmentInspectionRequired) !== true) return;
  const r = await sql<{ docNo: string; type: string; name: string; status: string | null }>`
    SELECT o.doc_no, o.type, m.name,
           (SELECT t.status FROM inspection_task t WHERE t.stock_outbound_id = o.id AND t.product_id = l.material_id
             ORDER BY (t.status IN ('passed', 'conceded')) DESC, t.id DESC LIMIT 1) AS status
      FROM stock_outbound o JOIN stock_outbound_line l ON l.stock_outbound_id = o.id JOIN material m ON m.id = l.material_id
     WHERE o.id = ${outboundId} ORDER BY l.line_no`.execute(db);
  const missing = r.rows.find((x) => x.type === 'sales' && !DONE.includes(x.status ?? ''));
  if (!missing) return;
  throw conflict(
    `销售出库 ${missing.docNo} 的「${missing.name}」${missing.status ? '出货检验尚未合格' : '还没有出货检验'}，` +
      '不能过账（系统设置要求发货前出货检验合格）',
  );
}

// The warehouse tells quality of its postings (`warehouse/stock-events.ts`): a 采购入库 opens
// 来料检验, a 销售出库 waits for 出货检验.
beforeStockPost(async (db, e) => {
  if (e.kind === 'outbound' && e.type === 'sales') await assertShipmentInspected(db, e.id);
});
onStockPosted(async (db, e) => {
  if (e.kind === 'inbound' && e.type === 'purchase') await onInboundPosted(db, e.user, e.id);
});

/**
 * 巡检计划: a 过程检验 task for every open card waiting at a step flagged for inspection that has
 * none planned that day. Answers the new ids.
 */
export async function planPatrols(db: Db, user: AuthUser, day: string) {
  const r = await sql<Record<string, any>>`
    SELECT c.id, c.product_id, c.heat_no, s.process_id,
           (s.input_quantity - ${taken('s')})::text AS waiting
      FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id AND s.seq = c.current_seq
     WHERE c.status = 'open' AND s.inspection_required
       AND s.input_quantity - ${taken('s')} > 0
       AND NOT EXISTS (SELECT 1 FROM inspection_task t WHERE t.flow_card_id = c.id AND t.category = 'process'
                          AND t.plan_date = ${day}::date)
     ORDER BY c.doc_no LIMIT 200`.execute(db);
  const ids: number[] = [];
  for (const c of r.rows) ids.push(await createInspectionTask(db, user, patrolTask(c, { planDate: day })));
  return ids;
}

/** The 巡检 task for a card row (id, product, heat, process, pieces waiting) of a patrol query. */
const patrolTask = (c: Record<string, any>, extra: Record<string, unknown>) => ({
  category: 'process',
  checkKind: 'patrol',
  productId: Number(c.productId),
  processId: Number(c.processId),
  lotQuantity: c.waiting,
  flowCardId: Number(c.id),
  batchNo: c.heatNo,
  sourceType: 'schedule',
  ...extra,
});

/**
 * 巡检计划 run: for each active schedule, the current period is the `intervalHours`-hour slot of
 * now; every open card with pieces waiting at a step flagged for inspection in the schedule's
 * workshop (and process, if set) whose step has a dispatch 已开工 gets one 过程检验 task for that slot
 * (its first such step). Running
 * again in the same slot creates nothing (checked here and by a unique index). Answers the new ids.
 */
export async function runPatrolSchedules(db: Db, user: AuthUser, at: Date = new Date()) {
  // One run at a time: two runs in the same slot would both see no task yet.
  await sql`SELECT pg_advisory_xact_lock(38038001)`.execute(db);
  const schedules = await sql<{
    id: number;
    name: string;
    workshopId: number;
    processId: number | null;
    intervalHours: number;
  }>`
    SELECT id, name, workshop_id, process_id, interval_hours FROM patrol_schedule WHERE status = '1' ORDER BY id`.execute(
    db,
  );
  const ids: number[] = [];
  for (const p of schedules.rows) {
    const period = p.intervalHours * 3_600_000;
    const slot = new Date(Math.floor(at.getTime() / period) * period).toISOString();
    const cards = await sql<Record<string, any>>`
      SELECT DISTINCT ON (c.id) c.id, c.product_id, c.heat_no, s.process_id,
             (s.input_quantity - ${taken('s')})::text AS waiting
        FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
       WHERE c.status = 'open' AND s.inspection_required AND s.workshop_id = ${p.workshopId}
         AND (${p.processId}::bigint IS NULL OR s.process_id = ${p.processId})
         AND s.input_quantity - ${taken('s')} > 0
         AND EXISTS (SELECT 1 FROM work_dispatch d JOIN workshop_task w ON w.id = d.task_id
                      WHERE w.order_step_id = s.order_step_id AND d.status = 'started')
         AND NOT EXISTS (SELECT 1 FROM inspection_task t WHERE t.patrol_schedule_id = ${p.id}
                            AND t.flow_card_id = c.id AND t.patrol_slot = ${slot}::timestamptz)
       ORDER BY c.id, s.seq LIMIT 200`.execute(db);
    for (const c of cards.rows) {
      const extra = { sourceNo: p.name.slice(0, 30), patrolScheduleId: Number(p.id), patrolSlot: slot };
      ids.push(await createInspectionTask(db, user, patrolTask(c, { ...extra, planDate: businessDay(at) })));
    }
    await sql`UPDATE patrol_schedule SET last_run_at = ${at.toISOString()}::timestamptz WHERE id = ${p.id}`.execute(
      db,
    );
  }
  return { ids };
}
