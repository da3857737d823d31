import {
  type Severity,
  type SwitchingEvent,
  type SwitchingState,
  severityLabel,
  switchingLabel,
  switchingState,
} from '@ringmes/domain';
import { sql } from 'kysely';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict } from '../../platform/errors.ts';
import { SETTING_KEYS, settingOn } from '../../platform/settings.ts';

/**
 * GB/T 2828.1 severity of 来料检验 per supplier × material (issue 38 §1). The lots are the
 * incoming inspection tasks of 采购入库 lines from that supplier of that material whose items are
 * sampled by AQL, in the order they were first judged; each lot's original verdict (not that of
 * a reworked resubmission) and, for the switching score, each AQL item's Ac, defects found and
 * the Ac one AQL step tighter are frozen at that first judgement. The severity for the next lot
 * is the pure `switchingState` of packages/domain over that history (and the resumptions after
 * a discontinuation); 放宽 also needs 系统设置 › 抽样检验 › 放宽检验已批准.
 */

/** Where the history of a task's lots lives: the supplier and material of its purchase receipt. */
export interface SamplingSource {
  supplierId: number;
  materialId: number;
}

/** The supplier × material of an incoming task made from a 采购入库 line; null for any other task. */
export async function samplingSourceOf(db: Db, task: Record<string, any>): Promise<SamplingSource | null> {
  if (task.stockInboundId == null || task.productId == null) return null;
  const r = await sql<{ supplierId: number | null }>`
    SELECT supplier_id FROM stock_inbound WHERE id = ${Number(task.stockInboundId)} AND type = 'purchase'`.execute(
    db,
  );
  const supplierId = r.rows[0]?.supplierId;
  return supplierId == null ? null : { supplierId: Number(supplierId), materialId: Number(task.productId) };
}

interface LotRow {
  id: number;
  docNo: string;
  originalResult: string;
  at: Date;
  items: { ac: number; d: number | null; tighter: number | null }[];
}

/** At most this many lots are replayed (the newest): years of daily receipts of one material. */
const HISTORY_LIMIT = 5000;

/** The judged lots and resumptions of a supplier × material, oldest first (`except`: a task to leave out). */
export async function lotHistory(db: Db, src: SamplingSource, except?: number): Promise<SwitchingEvent[]> {
  const lots = await sql<LotRow>`
    SELECT * FROM (
      SELECT t.id, t.doc_no, t.original_result, t.original_at AS at,
             COALESCE((SELECT json_agg(json_build_object('ac', i.accept_number, 'd', i.original_defect_count,
                                                         'tighter', i.tighter_accept_number) ORDER BY i.line_no)
                         FROM inspection_task_item i
                        WHERE i.inspection_task_id = t.id AND i.code_letter IS NOT NULL), '[]'::json) AS items
        FROM inspection_task t JOIN stock_inbound s ON s.id = t.stock_inbound_id
       WHERE t.product_id = ${src.materialId} AND s.supplier_id = ${src.supplierId} AND s.type = 'purchase'
         AND t.original_result IS NOT NULL AND t.sampling_severity IS NOT NULL
         AND t.id <> ${except ?? 0}
       ORDER BY t.original_at DESC, t.id DESC LIMIT ${HISTORY_LIMIT}) x
     ORDER BY x.at, x.id`.execute(db);
  const resumes = await sql<{ at: Date; reason: string }>`
    SELECT resumed_at AS at, reason FROM sampling_resumption
     WHERE supplier_id = ${src.supplierId} AND material_id = ${src.materialId} ORDER BY resumed_at, id`.execute(
    db,
  );
  const events: { at: number; e: SwitchingEvent }[] = [
    ...lots.rows.map((l) => ({
      at: new Date(l.at).getTime(),
      e: {
        label: l.docNo,
        accepted: l.originalResult === 'pass',
        items: l.items.map((i) => ({
          acceptNumber: Number(i.ac),
          defects: Number(i.d ?? 0),
          tighterAcceptNumber: i.tighter == null ? null : Number(i.tighter),
        })),
      },
    })),
    ...resumes.rows.map((r) => ({
      at: new Date(r.at).getTime(),
      e: { kind: 'resume' as const, label: r.reason },
    })),
  ];
  // Stable: lots judged at the same instant as a resumption come before it.
  return events.sort((a, b) => a.at - b.at).map((x) => x.e);
}

/** The switching state of a supplier × material: the severity of its next lot. */
export async function switchingFor(db: Db, src: SamplingSource, except?: number): Promise<SwitchingState> {
  const reducedApproved = await settingOn(db, SETTING_KEYS.samplingReducedApproved, false);
  return switchingState(await lotHistory(db, src, except), { reducedApproved });
}

/**
 * The first verdict of a task (合格 / 不合格 / 让步接收), frozen with each item's defects: what the
 * switching rules count as its original inspection. A later verdict (返工复检, 让步接收 after
 * 不合格) changes nothing here.
 */
export async function recordOriginalVerdict(db: Db, taskId: number, result: 'pass' | 'fail' | 'concession') {
  const r = await sql`
    UPDATE inspection_task SET original_result = ${result}, original_at = now()
     WHERE id = ${taskId} AND original_result IS NULL`.execute(db);
  if (!Number(r.numAffectedRows ?? 0)) return;
  await sql`UPDATE inspection_task_item SET original_defect_count = COALESCE(defect_count, 0)
             WHERE inspection_task_id = ${taskId}`.execute(db);
}

/**
 * 恢复检验 after a discontinuation (9.4): the supplier's corrective action is accepted; the
 * supplier × material starts again on tightened inspection. Refused unless discontinued.
 */
export async function resumeSampling(
  db: Db,
  user: AuthUser,
  task: Record<string, any>,
  reason: string,
): Promise<SwitchingState> {
  const src = await samplingSourceOf(db, task);
  if (!src) throw conflict(`检验单 ${task.docNo} 不是采购入库的来料检验，没有转移规则`);
  // One resumption at a time per supplier × material.
  await sql`SELECT pg_advisory_xact_lock(38038002, hashtext(${`${src.supplierId}:${src.materialId}`}))`.execute(
    db,
  );
  const state = await switchingFor(db, src);
  if (!state.discontinued)
    throw conflict(`该供方此物料当前为${severityLabel(state.severity)}检验，未暂停，无需恢复`);
  await sql`
    INSERT INTO sampling_resumption (supplier_id, material_id, inspection_task_id, reason, resumed_by)
    VALUES (${src.supplierId}, ${src.materialId}, ${task.id}, ${reason}, ${user.id})`.execute(db);
  return switchingFor(db, src);
}

/** What the task page shows of the sampling: the severity applied, and the supplier × material's state now. */
export async function taskSampling(
  db: Db,
  task: { id: number; severity: Severity | null } & Record<string, any>,
) {
  if (!task.severity) return null;
  const src = await samplingSourceOf(db, task);
  if (!src)
    return { severity: task.severity, label: severityLabel(task.severity), source: null, state: null };
  const names = await sql<{ supplierName: string; materialName: string }>`
    SELECT s.name AS supplier_name, m.name AS material_name
      FROM supplier s, material m WHERE s.id = ${src.supplierId} AND m.id = ${src.materialId}`.execute(db);
  const state = await switchingFor(db, src);
  return {
    severity: task.severity,
    label: severityLabel(task.severity),
    source: { ...src, ...names.rows[0] },
    state: {
      severity: state.severity,
      label: state.discontinued ? switchingLabel('discontinued') : severityLabel(state.severity),
      discontinued: state.discontinued,
      switchingScore: state.switchingScore,
      lots: state.lots,
      lotsInSeverity: state.lotsInSeverity,
      rejectedOfLastFive: state.rejectedOfLastFive,
      consecutiveAccepted: state.consecutiveAccepted,
      rejectedInTightened: state.rejectedInTightened,
      reason: state.reason,
      next: state.next,
      changes: state.changes.slice(-5).map((c) => ({
        lot: c.label ?? null,
        from: switchingLabel(c.from),
        to: switchingLabel(c.to),
        reason: c.reason,
      })),
    },
  };
}
