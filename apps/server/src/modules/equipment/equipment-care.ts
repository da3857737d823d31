import {
  EQUIPMENT_REPAIR_LIFECYCLE,
  equipmentRepairResource,
  inspectionChecklistResource,
  inspectionRecordResource,
  maintenancePlanResource,
  maintenanceRecordResource,
  REPAIR_OPEN_STATES,
  SHIFT_OPTIONS,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AttachmentOwner, dropAttachmentRows } from '../../platform/attachments/attachments.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { liveNotify } from '../../platform/live/notify.ts';
import { notify } from '../../platform/messages.ts';
import { businessDay, dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import type { ResourceEntry } from '../../platform/resource/area.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';

const REPAIR_DETAIL = '/factory-info/equipment-manage/report-for-repair-detail';
/** The demo role of a 车间主任; a workshop's own head is its `managerId`. */
const WORKSHOP_HEAD_ROLE = 'workshop_head';
const OPEN = sql.join(REPAIR_OPEN_STATES.map((s) => sql.lit(s)));

// ------------------------------------------------------------------ 运行状况

/**
 * Sets 运行状况 of the named equipment (and of any still marked 故障) from their open repairs,
 * leaving out `without` (repairs about to be deleted). The equipment rows are locked first, so
 * the count is taken after any concurrent repair of the same equipment has committed.
 */
export async function refreshFaultState(db: Db, equipmentIds: number[], without: number[] = []) {
  const ids = equipmentIds.map(Number).filter(Boolean);
  await sql`SELECT id FROM equipment WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
    db,
  );
  await sql`
    UPDATE equipment e SET fault_state = x.next
      FROM (SELECT q.id, CASE WHEN EXISTS (
                   SELECT 1 FROM equipment_repair r
                    WHERE r.equipment_id = q.id AND r.status IN (${OPEN})
                      AND r.id <> ALL(${sql.val(without)}::bigint[])) THEN 'fault' ELSE 'normal' END AS next
              FROM equipment q WHERE q.id = ANY(${sql.val(ids)}::bigint[]) OR q.fault_state = 'fault') x
     WHERE e.id = x.id AND e.fault_state <> x.next`.execute(db);
  // Equipment status on every live dashboard (`platform/live`), delivered on commit.
  await liveNotify(db, { topic: 'repair' });
}

// ------------------------------------------------------------------ 报修

export const repairHooks: ResourceHooks = lifecycleHooks(equipmentRepairResource, {
  // The API never carries the readonly report time; the demo seed backdates its repairs with it.
  async prepare({ db, user }, data) {
    const at = data.reportedAt ? new Date(data.reportedAt) : new Date();
    return { docNo: await nextDocNoOf(db, equipmentRepairResource, at), reporterId: user.id, reportedAt: at };
  },
  async validate({ db }, data, before) {
    if (before && Number(before.equipmentId) === Number(data.equipmentId)) return;
    const eq = await sql<{
      status: string;
    }>`SELECT status FROM equipment WHERE id = ${data.equipmentId}`.execute(db);
    if (eq.rows[0]?.status === 'scrapped') throw fieldError('equipmentId', '所选设备已报废，不能报修');
  },
  async afterSave({ db }, id) {
    const r = await sql<{
      equipmentId: number;
    }>`SELECT equipment_id FROM equipment_repair WHERE id = ${id}`.execute(db);
    await refreshFaultState(db, [r.rows[0].equipmentId]);
  },
  async beforeDelete({ db }, ids) {
    await dropAttachmentRows(db, equipmentRepairResource.name, ids);
    const r = await sql<{ equipmentId: number }>`
      SELECT equipment_id FROM equipment_repair WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
    await refreshFaultState(
      db,
      r.rows.map((x) => x.equipmentId),
      ids,
    );
  },
});

const refresh: TransitionHandlers['effect'] = async ({ db, record }) =>
  refreshFaultState(db, [record.equipmentId]);

export const repairTransitions: Record<string, TransitionHandlers> = {
  dispatch: {
    async effect({ db, record, input, user }) {
      await sql`UPDATE equipment_repair SET assignee_id = ${input.assigneeId}, dispatched_at = now() WHERE id = ${record.id}`.execute(
        db,
      );
      if (Number(input.assigneeId) !== Number(user.id)) {
        await notify(db, [input.assigneeId], {
          kind: 'repair',
          title: `维修派工：${record.equipmentName ?? '设备'}（${record.docNo}）`,
          content: String(record.faultDescription ?? '').slice(0, 200),
          link: `${REPAIR_DETAIL}?id=${record.id}`,
          eventKey: `repair-dispatch:${record.id}:${input.assigneeId}`,
        });
      }
    },
  },
  start: {
    async effect({ db, record }) {
      await sql`UPDATE equipment_repair SET started_at = now() WHERE id = ${record.id}`.execute(db);
    },
  },
  finish: {
    async effect(ctx) {
      const { db, record, input } = ctx;
      await sql`
        UPDATE equipment_repair
           SET repaired_at = now(), repair_content = ${input.repairContent},
               downtime_minutes = GREATEST(0, floor(extract(epoch FROM now() - reported_at) / 60))::int
         WHERE id = ${record.id}`.execute(db);
      await refresh(ctx);
    },
  },
  confirm: {
    // 确认修复 is the reporter's or the workshop head's: the manager of the equipment's workshop,
    // or, while that workshop names no active one, any 车间主任 (role `workshop_head`). Admins may too.
    async guard({ db, record, user }) {
      if (user.isAdmin || Number(record.reporterId) === user.id) return;
      const w = await sql<{ managerId: number | null; managerName: string | null }>`
        SELECT u.id AS manager_id, u.first_name AS manager_name
          FROM equipment e JOIN workshop w ON w.id = e.workshop_id
          LEFT JOIN app_user u ON u.id = w.manager_id AND u.status = '1'
         WHERE e.id = ${record.equipmentId}`.execute(db);
      const head = w.rows[0]?.managerId;
      if (head ? Number(head) === user.id : user.roleKeys.includes(WORKSHOP_HEAD_ROLE)) return;
      const who = [
        record.reporterName && `报修人：${record.reporterName}`,
        head && `车间主任：${w.rows[0].managerName}`,
      ]
        .filter(Boolean)
        .join('，');
      throw forbidden(`只有报修人或车间主任可以确认修复${who ? `（${who}）` : ''}`);
    },
    async effect({ db, record, user }) {
      await sql`UPDATE equipment_repair SET confirmed_by_id = ${user.id}, confirmed_at = now() WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
  close: { effect: refresh },
};

/** Images a repair's photos may be, as the attachment store recognises them by content. */
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * 报修照片: images attached to a repair request, uploaded when reporting and while the repair is
 * open (已报修, 已派工, 维修中); the photos of a repaired, confirmed or closed request stay as they are.
 */
export const repairPhotoOwner: AttachmentOwner = {
  name: equipmentRepairResource.name,
  label: '报修照片',
  read: 'factory:repair:list',
  write: 'factory:repair:add',
  accept: { mimeTypes: PHOTO_TYPES, label: '图片（JPG、PNG、GIF、WEBP）' },
  async assertWritable(db, repairId) {
    const r = await sql<{ docNo: string; status: string }>`
      SELECT doc_no, status FROM equipment_repair WHERE id = ${repairId} FOR UPDATE`.execute(db);
    const row = r.rows[0];
    if (!row) throw notFound('报修单不存在或已被删除');
    if (!REPAIR_OPEN_STATES.includes(row.status)) {
      const label =
        EQUIPMENT_REPAIR_LIFECYCLE.states.find((x) => x.value === row.status)?.label ?? row.status;
      throw conflict(`报修单 ${row.docNo} 当前为「${label}」，不能再增删照片`);
    }
  },
};

// ------------------------------------------------------------------ 保养

/** A business date of a body: the declared default `today` (or none) is the factory's today. */
const day = (value: unknown): string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : businessDay();

/** Recomputes plans' 上次保养 and 下次保养 from their records, leaving out records about to be deleted. */
async function refreshPlans(db: Db, planIds: number[], without: number[] = []) {
  await sql`
    UPDATE maintenance_plan p
       SET last_done_date = x.last,
           next_due_date = CASE WHEN p.cycle_type = 'days' THEN COALESCE(x.last + p.cycle_days, p.start_date)
                                ELSE p.next_due_date END
      FROM (SELECT q.id, (SELECT max(r.done_date) FROM maintenance_record r
                           WHERE r.plan_id = q.id AND r.id <> ALL(${sql.val(without)}::bigint[])) AS last
              FROM maintenance_plan q WHERE q.id = ANY(${sql.val(planIds)}::bigint[])) x
     WHERE p.id = x.id`.execute(db);
  await refreshHourPlans(db, planIds);
}

/**
 * 按运行小时的保养计划: 已运行 is the sum of the hours of the equipment's work reports (submitted or
 * later, not drafts) dated after the last maintenance (from the first-maintenance date while there
 * is none); 下次保养 is the report date on which that sum reached the cycle, empty until it does.
 * All hour plans when `planIds` is not given (the due list and the overdue scan refresh first).
 */
export async function refreshHourPlans(db: Db, planIds?: number[]) {
  const only = planIds ? sql`AND p.id = ANY(${sql.val(planIds)}::bigint[])` : sql``;
  await sql`
    WITH b AS (
      SELECT p.id, p.equipment_id, p.cycle_hours, COALESCE(p.last_done_date + 1, p.start_date) AS since
        FROM maintenance_plan p WHERE p.cycle_type = 'hours' ${only}),
    w AS (
      SELECT b.id, r.report_date, sum(r.hours) OVER (PARTITION BY b.id ORDER BY r.report_date) AS cum
        FROM b JOIN work_report r ON r.equipment_id = b.equipment_id AND r.report_date >= b.since
       WHERE r.status <> 'draft' AND r.hours > 0),
    x AS (
      SELECT b.id, COALESCE((SELECT max(w.cum) FROM w WHERE w.id = b.id), 0) AS total,
             (SELECT min(w.report_date) FROM w WHERE w.id = b.id AND w.cum >= b.cycle_hours) AS due
        FROM b)
    UPDATE maintenance_plan p SET hours_since = x.total, next_due_date = x.due
      FROM x
     WHERE p.id = x.id AND (p.hours_since IS DISTINCT FROM x.total OR p.next_due_date IS DISTINCT FROM x.due)`.execute(
    db,
  );
}

export const maintenancePlanHooks: ResourceHooks = {
  async validate(_ctx, data) {
    if (data.cycleType === 'hours') {
      if (data.cycleHours == null) throw fieldError('cycleHours', '按运行小时保养，请填写周期(运行小时)');
    } else if (data.cycleDays == null) throw fieldError('cycleDays', '按天数保养，请填写周期(天)');
  },
  // The cycle not chosen is cleared, so the list never shows both.
  async derive(_ctx, data) {
    return data.cycleType === 'hours' ? { cycleDays: null } : { cycleHours: null, hoursSince: null };
  },
  async afterSave({ db }, id) {
    await refreshPlans(db, [id]);
  },
};

export const maintenanceRecordHooks: ResourceHooks = {
  async prepare({ db, user }, data) {
    const doneDate = day(data.doneDate);
    return {
      doneDate,
      docNo: await nextDocNoOf(db, maintenanceRecordResource, dayInstant(doneDate)),
      doneById: data.doneById ?? user.id,
    };
  },
  async validate({ db }, data, before) {
    if (before && Number(before.planId) !== Number(data.planId))
      throw fieldError('planId', '保养记录不能更换保养计划，请删除后重新登记');
    const today = businessDay();
    if (data.doneDate > today) throw fieldError('doneDate', '保养日期不能晚于今天');
    const plan = await sql<{ startDate: string }>`
      SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date FROM maintenance_plan WHERE id = ${data.planId}`.execute(
      db,
    );
    if (!plan.rows[0]) throw fieldError('planId', '所选保养计划不存在或已被删除');
  },
  async afterSave({ db }, id) {
    const r = await sql<{ planId: number; equipmentId: number }>`
      UPDATE maintenance_record m SET equipment_id = p.equipment_id
        FROM maintenance_plan p WHERE p.id = m.plan_id AND m.id = ${id}
      RETURNING m.plan_id, p.equipment_id`.execute(db);
    const { planId, equipmentId } = r.rows[0];
    await refreshPlans(db, [planId]);
    await sql`
      UPDATE equipment e SET last_maintenance_date = x.last
        FROM (SELECT max(done_date) AS last FROM maintenance_record WHERE equipment_id = ${equipmentId}) x
       WHERE e.id = ${equipmentId} AND (e.last_maintenance_date IS NULL OR e.last_maintenance_date < x.last)`.execute(
      db,
    );
  },
  async beforeDelete({ db }, ids) {
    const r = await sql<{ planId: number }>`
      SELECT DISTINCT plan_id FROM maintenance_record WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
    await refreshPlans(
      db,
      r.rows.map((x) => x.planId),
      ids,
    );
  },
};

export interface DueItem {
  planId: number;
  code: string;
  name: string;
  equipmentId: number;
  equipmentCode: string;
  equipmentName: string;
  cycleType: 'days' | 'hours';
  cycleDays: number | null;
  cycleHours: string | null;
  hoursSince: string | null;
  lastDoneDate: string | null;
  nextDueDate: string;
  /** Days past the due date (negative: days left). */
  overdueDays: number;
  dueState: 'overdue' | 'today' | 'upcoming';
}

/** Active plans due on or before `today + withinDays`, most overdue first. */
export async function dueItems(
  db: Db,
  today: string,
  withinDays: number,
  equipmentId?: number,
): Promise<DueItem[]> {
  await refreshHourPlans(db);
  const r = await sql<Omit<DueItem, 'dueState'>>`
    SELECT p.id AS plan_id, p.code, p.name, p.equipment_id, e.code AS equipment_code, e.name AS equipment_name,
           p.cycle_type, p.cycle_days, p.cycle_hours::text AS cycle_hours, p.hours_since::text AS hours_since,
           to_char(p.last_done_date, 'YYYY-MM-DD') AS last_done_date,
           to_char(p.next_due_date, 'YYYY-MM-DD') AS next_due_date,
           (${today}::date - p.next_due_date) AS overdue_days
      FROM maintenance_plan p JOIN equipment e ON e.id = p.equipment_id
     WHERE p.status = '1' AND p.next_due_date <= ${today}::date + ${withinDays}::int
       ${equipmentId ? sql`AND p.equipment_id = ${equipmentId}` : sql``}
     ORDER BY p.next_due_date, p.id
     LIMIT 1000`.execute(db);
  return r.rows.map((x) => {
    const overdueDays = Number(x.overdueDays);
    return {
      ...x,
      overdueDays,
      dueState: overdueDays > 0 ? 'overdue' : overdueDays === 0 ? 'today' : 'upcoming',
    };
  });
}

// ------------------------------------------------------------------ 点检

export const checklistHooks: ResourceHooks = {
  async validate(_ctx, data) {
    for (const [i, item] of (data.items ?? []).entries()) {
      const where = `第 ${i + 1} 行「${item.itemName}」`;
      const lower = item.lowerLimit == null ? undefined : new Decimal(item.lowerLimit);
      const upper = item.upperLimit == null ? undefined : new Decimal(item.upperLimit);
      if (item.valueType === 'value' && !lower && !upper)
        throw fieldError(`items.${i}.lowerLimit`, `${where}是数值项，请填写下限或上限`);
      if (lower && upper && lower.gt(upper))
        throw fieldError(`items.${i}.upperLimit`, `${where}的上限不能小于下限`);
    }
  },
};

interface ChecklistItem {
  id: number;
  itemName: string;
  valueType: string;
}

async function hasRepairs(db: Db, recordIds: number[]) {
  const r = await sql<{ docNo: string }>`
    SELECT r.doc_no FROM inspection_record_item i JOIN equipment_repair r ON r.id = i.repair_id
     WHERE i.inspection_record_id = ANY(${sql.val(recordIds)}::bigint[]) LIMIT 1`.execute(db);
  return r.rows[0]?.docNo;
}

export const inspectionRecordHooks: ResourceHooks = {
  async prepare({ db, user }, data) {
    const checkDate = day(data.checkDate);
    return {
      checkDate,
      docNo: await nextDocNoOf(db, inspectionRecordResource, dayInstant(checkDate)),
      checkerId: data.checkerId ?? user.id,
    };
  },
  async validate({ db }, data, before) {
    if (before) {
      const repaired = await hasRepairs(db, [before.id]);
      if (repaired) throw conflict(`该点检记录的不合格项已报修（${repaired}），不能修改`);
      if (Number(before.checklistId) !== Number(data.checklistId))
        throw fieldError('checklistId', '点检记录不能更换点检表');
    }
    if (data.checkDate > businessDay()) throw fieldError('checkDate', '点检日期不能晚于今天');
    const dup = await sql<{ id: number }>`
      SELECT id FROM inspection_record
       WHERE checklist_id = ${data.checklistId} AND check_date = ${data.checkDate} AND shift = ${data.shift}
         AND id <> ${before?.id ?? 0} LIMIT 1`.execute(db);
    if (dup.rows[0]) {
      const shift = SHIFT_OPTIONS.find((s) => s.value === data.shift)?.label ?? data.shift;
      throw conflict(`该点检表 ${data.checkDate} ${shift}已有点检记录，请修改原记录`);
    }
    const items = (
      await sql<ChecklistItem>`
        SELECT id, item_name, value_type FROM inspection_checklist_item
         WHERE inspection_checklist_id = ${data.checklistId} ORDER BY line_no`.execute(db)
    ).rows;
    const byId = new Map(items.map((x) => [Number(x.id), x]));
    const seen = new Set<number>();
    for (const [i, line] of (data.items ?? []).entries()) {
      const item = byId.get(Number(line.checklistItemId));
      if (!item || seen.has(item.id))
        throw fieldError(`items.${i}.itemName`, `第 ${i + 1} 行不是该点检表的项目，或重复，请重新选择点检表`);
      seen.add(item.id);
      const where = `第 ${i + 1} 行「${item.itemName}」`;
      if (item.valueType === 'value' && line.measuredValue == null)
        throw fieldError(`items.${i}.measuredValue`, `${where}请填写实测值`);
      if (item.valueType === 'okng' && !line.result)
        throw fieldError(`items.${i}.result`, `${where}请选择判定 OK 或 NG`);
    }
    const missing = items.filter((x) => !seen.has(Number(x.id)));
    if (missing.length)
      throw badRequest(`点检项目不完整，缺少：${missing.map((x) => x.itemName).join('、')}`, [
        { field: 'items', message: '请填写点检表的全部项目' },
      ]);
  },
  async afterSave({ db }, id) {
    // Name, standard and judgement come from the checklist; a value outside its limits is NG.
    await sql`
      UPDATE inspection_record_item i
         SET item_name = c.item_name, value_type = c.value_type,
             expected = COALESCE(c.expected, CASE WHEN c.value_type = 'value' THEN
                          concat_ws(' ~ ', COALESCE(trim_scale(c.lower_limit)::text, '-'), COALESCE(trim_scale(c.upper_limit)::text, '-')) || COALESCE(' ' || c.unit, '')
                        END),
             result = CASE WHEN c.value_type = 'value' THEN
                        CASE WHEN (c.lower_limit IS NOT NULL AND i.measured_value < c.lower_limit)
                               OR (c.upper_limit IS NOT NULL AND i.measured_value > c.upper_limit) THEN 'ng' ELSE 'ok' END
                        ELSE i.result END
        FROM inspection_checklist_item c
       WHERE c.id = i.checklist_item_id AND i.inspection_record_id = ${id}`.execute(db);
    await sql`
      UPDATE inspection_record r
         SET equipment_id = c.equipment_id,
             ng_count = (SELECT count(*) FROM inspection_record_item i WHERE i.inspection_record_id = r.id AND i.result = 'ng'),
             result = CASE WHEN EXISTS (SELECT 1 FROM inspection_record_item i WHERE i.inspection_record_id = r.id AND i.result = 'ng')
                           THEN 'ng' ELSE 'ok' END
        FROM inspection_checklist c WHERE c.id = r.checklist_id AND r.id = ${id}`.execute(db);
  },
  async beforeDelete({ db }, ids) {
    const repaired = await hasRepairs(db, ids);
    if (repaired) throw conflict(`点检记录的不合格项已报修（${repaired}），不能删除`);
  },
};

/** 一键报修: a repair request for one NG item of a check record, linked both ways. */
export async function repairFromCheck(
  db: Db,
  user: AuthUser,
  recordId: number,
  itemId: number,
  description: string | undefined,
  requestId?: string,
) {
  const r = await sql<{
    id: number;
    itemName: string;
    result: string | null;
    measuredValue: string | null;
    expected: string | null;
    note: string | null;
    repairId: number | null;
    equipmentId: number;
    checkDate: string;
    shift: string;
    checklistName: string;
  }>`
    SELECT i.id, i.item_name, i.result, i.measured_value::text AS measured_value, i.expected, i.note, i.repair_id,
           h.equipment_id, to_char(h.check_date, 'YYYY-MM-DD') AS check_date, h.shift, c.name AS checklist_name
      FROM inspection_record_item i
      JOIN inspection_record h ON h.id = i.inspection_record_id
      JOIN inspection_checklist c ON c.id = h.checklist_id
     WHERE i.id = ${itemId} AND i.inspection_record_id = ${recordId}
       FOR UPDATE OF i`.execute(db);
  const item = r.rows[0];
  if (!item) throw notFound('点检项目不存在或已被删除');
  if (item.result !== 'ng') throw conflict(`「${item.itemName}」点检合格，不需要报修`);
  if (item.repairId) {
    const doc = await sql<{
      docNo: string;
    }>`SELECT doc_no FROM equipment_repair WHERE id = ${item.repairId}`.execute(db);
    throw conflict(`「${item.itemName}」已报修（${doc.rows[0]?.docNo ?? item.repairId}）`);
  }
  const shift = SHIFT_OPTIONS.find((s) => s.value === item.shift)?.label ?? item.shift;
  const measured = item.measuredValue == null ? '' : `，实测 ${new Decimal(item.measuredValue).toString()}`;
  const standard = item.expected ? `（标准：${item.expected}）` : '';
  const fault =
    description?.trim() ||
    `点检不合格：${item.checklistName} ${item.checkDate} ${shift}「${item.itemName}」NG${measured}${standard}${item.note ? `；${item.note}` : ''}`;
  const id = await createRecord(
    { db, user, def: equipmentRepairResource },
    { equipmentId: item.equipmentId, faultDescription: fault.slice(0, 1000), inspectionRecordId: recordId },
    repairHooks,
    requestId,
  );
  await sql`UPDATE inspection_record_item SET repair_id = ${id} WHERE id = ${itemId}`.execute(db);
  const doc = await sql<{ docNo: string }>`SELECT doc_no FROM equipment_repair WHERE id = ${id}`.execute(db);
  return { id, docNo: doc.rows[0].docNo };
}

// ------------------------------------------------------------------ 设备履历

/**
 * The care history of one equipment: recent repairs, maintenance and checks, and MTBF/MTTR over
 * the last 365 days, or since it was bought (registered, when no purchase date) or first reported,
 * whichever is earlier, when that is later. A failure is a repair not
 * closed; its downtime runs from report to repair (to now while open). MTTR is the mean downtime
 * of the repaired ones; MTBF the period less all downtime, divided by the failures.
 */
export async function equipmentCare(db: Db, id: number) {
  const eq = await sql<{ id: number; faultState: string }>`
    SELECT id, fault_state FROM equipment WHERE id = ${id}`.execute(db);
  if (!eq.rows[0]) throw notFound('设备不存在或已被删除');
  const repairs = await sql`
    SELECT r.id, r.doc_no, r.status, r.fault_description, r.reported_at, r.repaired_at, r.downtime_minutes,
           r.repair_content, u.first_name AS reporter_name, a.first_name AS assignee_name
      FROM equipment_repair r
      LEFT JOIN app_user u ON u.id = r.reporter_id
      LEFT JOIN app_user a ON a.id = r.assignee_id
     WHERE r.equipment_id = ${id} ORDER BY r.reported_at DESC, r.id DESC LIMIT 50`.execute(db);
  const maintenance = await sql`
    SELECT m.id, to_char(m.done_date, 'YYYY-MM-DD') AS done_date, m.minutes, m.content, m.remark,
           p.name AS plan_name, u.first_name AS done_by_name
      FROM maintenance_record m
      JOIN maintenance_plan p ON p.id = m.plan_id
      LEFT JOIN app_user u ON u.id = m.done_by_id
     WHERE m.equipment_id = ${id} ORDER BY m.done_date DESC, m.id DESC LIMIT 50`.execute(db);
  const checks = await sql`
    SELECT h.id, to_char(h.check_date, 'YYYY-MM-DD') AS check_date, h.shift, h.result, h.ng_count,
           c.name AS checklist_name, u.first_name AS checker_name,
           (SELECT string_agg(i.item_name, '、' ORDER BY i.line_no) FROM inspection_record_item i
             WHERE i.inspection_record_id = h.id AND i.result = 'ng') AS ng_items
      FROM inspection_record h
      JOIN inspection_checklist c ON c.id = h.checklist_id
      LEFT JOIN app_user u ON u.id = h.checker_id
     WHERE h.equipment_id = ${id} ORDER BY h.check_date DESC, h.id DESC LIMIT 50`.execute(db);
  const stats = await sql<{
    periodDays: string;
    failures: number;
    repaired: number;
    downtimeMinutes: string;
    mttrMinutes: string | null;
    mtbfHours: string | null;
  }>`
    WITH p AS (
      SELECT GREATEST(now() - interval '365 days',
                      LEAST(COALESCE(e.purchase_date::timestamptz, e.created_at),
                            (SELECT min(r.reported_at) FROM equipment_repair r WHERE r.equipment_id = e.id))) AS since,
             now() AS until
        FROM equipment e WHERE e.id = ${id}
    ), f AS (
      SELECT r.repaired_at IS NOT NULL AS repaired,
             CASE WHEN r.repaired_at IS NOT NULL THEN r.downtime_minutes::numeric
                  ELSE extract(epoch FROM now() - r.reported_at) / 60 END AS minutes
        FROM equipment_repair r, p
       WHERE r.equipment_id = ${id} AND r.status <> 'closed' AND r.reported_at >= p.since
    )
    SELECT round(extract(epoch FROM p.until - p.since) / 86400, 1)::text AS period_days,
           (SELECT count(*) FROM f)::int AS failures,
           (SELECT count(*) FROM f WHERE repaired)::int AS repaired,
           round(COALESCE((SELECT sum(minutes) FROM f), 0), 0)::text AS downtime_minutes,
           (SELECT round(avg(minutes), 1)::text FROM f WHERE repaired) AS mttr_minutes,
           CASE WHEN (SELECT count(*) FROM f) = 0 THEN NULL ELSE
             round(GREATEST(0, extract(epoch FROM p.until - p.since) / 60 - COALESCE((SELECT sum(minutes) FROM f), 0))
                   / 60 / (SELECT count(*) FROM f), 1)::text END AS mtbf_hours
      FROM p`.execute(db);
  return {
    faultState: eq.rows[0].faultState,
    repairs: repairs.rows,
    maintenance: maintenance.rows,
    checks: checks.rows,
    stats: stats.rows[0],
  };
}

export function equipmentCareRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/equipment/care/:id',
    permission: 'factory:equipment:list',
    params: idParams,
    handler: ({ params, app: { db } }) => equipmentCare(db, params.id),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/maintenance-plan/due',
    permission: 'factory:maintenance:list',
    query: z.strictObject({
      withinDays: z.coerce
        .number({ error: '天数必须是整数' })
        .int('天数必须是整数')
        .min(0, '天数不能为负数')
        .max(365, '天数不能超过 365')
        .optional(),
      equipmentId: z.coerce.number().int().positive('设备不正确').optional(),
    }),
    async handler({ query, app: { db, config } }) {
      const today = businessDay(new Date(), config.timeZone);
      const list = await dueItems(db, today, query.withinDays ?? 7, query.equipmentId);
      return {
        today,
        overdue: list.filter((x) => x.dueState === 'overdue').length,
        list,
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-record/to-repair/:id',
    permission: 'factory:repair:add',
    params: idParams,
    body: z.strictObject({
      itemId: z.coerce.number({ error: '请选择不合格的点检项目' }).int().positive('点检项目不正确'),
      faultDescription: z.string().trim().max(1000, '故障描述不能超过 1000 个字符').optional(),
    }),
    async handler({ params, body, user, req, app: { db } }) {
      return db
        .transaction()
        .execute((trx) => repairFromCheck(trx, user, params.id, body.itemId, body.faultDescription, req.id));
    },
  });
}

/** 报修, 保养 and 点检: their hooks, and the repair's transitions. */
export const EQUIPMENT_CARE: ResourceEntry[] = [
  { def: equipmentRepairResource, hooks: repairHooks, transitions: repairTransitions },
  { def: maintenancePlanResource, hooks: maintenancePlanHooks },
  { def: maintenanceRecordResource, hooks: maintenanceRecordHooks },
  { def: inspectionChecklistResource, hooks: checklistHooks },
  { def: inspectionRecordResource, hooks: inspectionRecordHooks },
];
