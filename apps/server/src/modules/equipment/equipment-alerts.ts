import { REPAIR_OPEN_STATES, SHIFT_OPTIONS, stockOutboundResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { createRecord, getRecord } from '../../platform/resource/crud.ts';
import { getBusinessTimeZone } from '../../platform/resource/query.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { equipmentFaults } from '../production/equipment-faults.ts';
import { DOC_HOOKS, postDocumentByName } from '../warehouse/documents.ts';
import { refreshHourPlans } from './equipment-care.ts';

/**
 * 设备管理 events beyond the records themselves: 保养逾期 messages (once per plan and due date),
 * 漏点检 (shifts in which an equipment worked without its check), 故障 warnings when work is
 * dispatched to an equipment with an open repair, and the 领料出库 of a maintenance's spare parts.
 */

const OPEN = sql.join(REPAIR_OPEN_STATES.map((s) => sql.lit(s)));
const SHIFT_LABEL = new Map(SHIFT_OPTIONS.map((s) => [s.value, s.label]));
const PLAN_DETAIL = '/factory-info/equipment-manage/maintenance-detail';

// ------------------------------------------------------------------ 保养逾期消息

/**
 * Sends 保养逾期 to every active 设备员 (role `equipment`) for each active plan whose 下次保养 is
 * before `today`. The message names the plan and its due date: a plan gets one message per due
 * date, however often this runs; once maintained, its next due date can be sent again. Answers how
 * many messages were inserted.
 */
export async function notifyOverdueMaintenance(db: Db, today: string): Promise<number> {
  await refreshHourPlans(db);
  const r = await sql`
    INSERT INTO message (user_id, title, content, kind, link, event_key)
    SELECT u.id, '保养逾期：' || e.name || ' ' || p.name,
           '设备 ' || e.code || ' ' || e.name || ' 的保养计划「' || p.name || '」应于 ' || to_char(p.next_due_date, 'YYYY-MM-DD')
             || ' 保养，已逾期 ' || (${today}::date - p.next_due_date) || ' 天，请尽快安排并登记保养记录。',
           'maintenance', ${PLAN_DETAIL} || '?id=' || p.id,
           'maintenance-overdue:' || p.id || ':' || to_char(p.next_due_date, 'YYYY-MM-DD')
      FROM maintenance_plan p
      JOIN equipment e ON e.id = p.equipment_id AND e.status <> 'scrapped'
      CROSS JOIN (SELECT DISTINCT au.id FROM app_user au
                    JOIN user_role ur ON ur.user_id = au.id JOIN role ro ON ro.id = ur.role_id
                   WHERE ro.role_key = 'equipment' AND au.status = '1') u
     WHERE p.status = '1' AND p.next_due_date < ${today}::date
    ON CONFLICT (user_id, event_key) WHERE event_key IS NOT NULL DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** How often a server process scans for overdue maintenance (and at start). */
const SCAN_MS = 15 * 60_000;

/** The periodic 保养逾期 scan of a running server (main.ts); stops when the app closes. */
export function startMaintenanceScan(app: App) {
  const { db, config } = app.ringmes;
  const scan = () =>
    notifyOverdueMaintenance(db, businessDay(new Date(), config.timeZone)).catch((err) =>
      app.log.error({ err }, '保养逾期提醒失败'),
    );
  const timer = setInterval(scan, SCAN_MS);
  timer.unref();
  void scan();
  app.addHook('onClose', async () => clearInterval(timer));
}

// ------------------------------------------------------------------ 漏点检

export interface MissedCheck {
  checklistId: number;
  checklistName: string;
  equipmentId: number;
  equipmentCode: string;
  equipmentName: string;
  workshopType: string;
  checkDate: string;
  shift: string;
  shiftLabel: string;
}

/** When the shifts begin in the business time zone (白班 08:00–20:00, 夜班 20:00–08:00); each lasts 12 hours. */
const SHIFT_BEGINS = sql`CASE WHEN k.shift = 'night' THEN time '20:00' ELSE time '08:00' END`;

/**
 * 漏点检: a shift should have a check of each active checklist of an equipment that had work in it
 * (a 派工 not closed, or a 报工, on that equipment, day and shift) — over the `days` days up to
 * `today`; of today only the day shift (the night shift is not due yet). Latest first. A machine
 * under repair in the shift owes none: a 报修 of it open at some time in the shift (reported before
 * the shift's end, not repaired — or, closed without a repair, not closed — before its start).
 */
export async function missedChecks(
  db: Db,
  today: string,
  opts: { days?: number; workshopType?: string | null; limit?: number } = {},
): Promise<MissedCheck[]> {
  const days = opts.days ?? 7;
  const w = opts.workshopType ?? null;
  const tz = getBusinessTimeZone();
  const r = await sql<Omit<MissedCheck, 'shiftLabel'>>`
    WITH worked AS (
      SELECT equipment_id, work_date AS d, shift FROM work_dispatch
       WHERE equipment_id IS NOT NULL AND status <> 'closed'
         AND work_date > ${today}::date - ${days}::int AND work_date <= ${today}::date
      UNION
      SELECT equipment_id, report_date, shift FROM work_report
       WHERE equipment_id IS NOT NULL
         AND report_date > ${today}::date - ${days}::int AND report_date <= ${today}::date)
    SELECT c.id AS checklist_id, c.name AS checklist_name, e.id AS equipment_id, e.code AS equipment_code,
           e.name AS equipment_name, ws.type AS workshop_type, to_char(k.d, 'YYYY-MM-DD') AS check_date, k.shift
      FROM worked k
      JOIN inspection_checklist c ON c.equipment_id = k.equipment_id AND c.status = '1'
      JOIN equipment e ON e.id = k.equipment_id AND e.status <> 'scrapped'
      LEFT JOIN workshop ws ON ws.id = e.workshop_id
     WHERE NOT (k.d = ${today}::date AND k.shift <> 'day')
       AND (${w}::text IS NULL OR ws.type = ${w})
       AND NOT EXISTS (SELECT 1 FROM inspection_record i
                        WHERE i.checklist_id = c.id AND i.check_date = k.d AND i.shift = k.shift)
       AND NOT EXISTS (SELECT 1 FROM equipment_repair r
                        CROSS JOIN LATERAL (SELECT (k.d + ${SHIFT_BEGINS}) AT TIME ZONE ${tz} AS begins) s
                        WHERE r.equipment_id = k.equipment_id
                          AND COALESCE(r.reported_at, r.created_at) < s.begins + interval '12 hours'
                          AND COALESCE(r.repaired_at, CASE WHEN r.status = 'closed' THEN r.updated_at END,
                                       'infinity'::timestamptz) > s.begins)
     ORDER BY k.d DESC, k.shift DESC, e.code, c.id
     LIMIT ${opts.limit ?? 100}`.execute(db);
  return r.rows.map((x) => ({ ...x, shiftLabel: SHIFT_LABEL.get(x.shift) ?? x.shift }));
}

// ------------------------------------------------------------------ 故障 warnings

/**
 * A warning for each of the equipment that has an open repair (shows 故障): work dispatched to it
 * is kept (the repair may be done in time) but the planner is told.
 */
export async function faultWarnings(db: Db, equipmentIds: unknown[]): Promise<string[]> {
  const ids = [...new Set(equipmentIds.filter((x) => x != null).map(Number))].filter(Number.isSafeInteger);
  if (!ids.length) return [];
  const r = await sql<{ code: string; name: string; docNo: string }>`
    SELECT e.code, e.name, r.doc_no FROM equipment e
      JOIN LATERAL (SELECT doc_no FROM equipment_repair WHERE equipment_id = e.id AND status IN (${OPEN})
                     ORDER BY id DESC LIMIT 1) r ON true
     WHERE e.id = ANY(${sql.val(ids)}::bigint[]) ORDER BY e.code`.execute(db);
  return r.rows.map(
    (x) => `设备 ${x.code} ${x.name} 故障（报修单 ${x.docNo} 未修复），派工后请确认能否按时生产`,
  );
}

// Production asks for these when it dispatches or plans (`production/equipment-faults.ts`).
equipmentFaults.provide(faultWarnings);

// ------------------------------------------------------------------ 保养备件领料

export const sparePartsBody = z.strictObject({
  warehouseId: zx.id,
  lines: z
    .array(
      z.strictObject({
        materialId: zx.id,
        quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }),
      }),
      { error: '请填写领用的备件' },
    )
    .min(1, '请填写领用的备件')
    .max(50, '一次最多领用 50 种备件'),
  remark: zx.text(200).optional(),
});

/**
 * 领用备件: the spare parts a maintenance used leave stock as a 领料出库 made and posted here
 * (the warehouse's outbound service: ledger rows, balances, costs), linked from the record. One
 * per record: a second call is refused; a wrong issue is reversed on the outbound document.
 */
export async function issueSpareParts(
  db: Db,
  user: AuthUser,
  recordId: number,
  body: z.infer<typeof sparePartsBody>,
  requestId?: string,
) {
  const r = await sql<{ docNo: string; outboundId: number | null; equipmentName: string; planName: string }>`
    SELECT m.doc_no, m.outbound_id, e.name AS equipment_name, p.name AS plan_name
      FROM maintenance_record m JOIN maintenance_plan p ON p.id = m.plan_id JOIN equipment e ON e.id = p.equipment_id
     WHERE m.id = ${recordId} FOR UPDATE OF m`.execute(db);
  const rec = r.rows[0];
  if (!rec) throw notFound('保养记录不存在或已被删除');
  if (rec.outboundId) {
    const o = await sql<{
      docNo: string;
    }>`SELECT doc_no FROM stock_outbound WHERE id = ${rec.outboundId}`.execute(db);
    throw conflict(`保养记录 ${rec.docNo} 已领用备件（${o.rows[0]?.docNo ?? rec.outboundId}）`);
  }
  const ids = body.lines.map((l) => l.materialId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一备件不能填写两行，请合并数量');
  // The maintenance record's editor issues its spare parts: the 领料出库 is made and posted for them.
  const actor: AuthUser = {
    ...user,
    permissions: new Set([...user.permissions, 'warehouse:requisitionOutbound:add']),
  };
  const outboundId = await createRecord(
    { db, def: stockOutboundResource, user: actor },
    {
      type: 'requisition',
      warehouseId: body.warehouseId,
      bizDate: businessDay(),
      sourceNo: rec.docNo,
      remark: body.remark || `保养领用备件：${rec.equipmentName} ${rec.planName}（${rec.docNo}）`,
      lines: body.lines.map((l) => ({
        materialId: l.materialId,
        quantity: l.quantity,
        qualityStatus: 'qualified',
      })),
    },
    DOC_HOOKS[stockOutboundResource.name],
    requestId,
  );
  const posted = await postDocumentByName(db, stockOutboundResource.name, outboundId, actor);
  await sql`UPDATE maintenance_record SET outbound_id = ${outboundId}, updated_by = ${user.id}, updated_at = now(),
                   version = version + 1 WHERE id = ${recordId}`.execute(db);
  return {
    id: recordId,
    outbound: await getRecord(db, stockOutboundResource, outboundId),
    docNo: posted.docNo,
  };
}

export function equipmentAlertRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/maintenance-record/spare-parts/:id',
    permission: 'factory:maintenance:edit',
    params: idParams,
    body: sparePartsBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => issueSpareParts(trx, user, params.id, body, req.id)),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/maintenance-plan/notify-overdue',
    permission: 'factory:maintenance:edit',
    async handler({ app: { db, config } }) {
      const today = businessDay(new Date(), config.timeZone);
      return { today, sent: await db.transaction().execute((trx) => notifyOverdueMaintenance(trx, today)) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/inspection-record/missed',
    permission: 'factory:inspection:list',
    query: z.strictObject({
      days: z.coerce
        .number({ error: '天数必须是整数' })
        .int('天数必须是整数')
        .min(1, '天数至少为 1')
        .max(31, '天数不能超过 31')
        .optional(),
      workshopType: z
        .enum(['machine', 'grinding', 'inspect', 'assembly'], { error: '车间类型不正确' })
        .optional(),
    }),
    async handler({ query, app: { db, config } }) {
      const today = businessDay(new Date(), config.timeZone);
      const list = await missedChecks(db, today, { days: query.days, workshopType: query.workshopType });
      return { today, total: list.length, list };
    },
  });
}
