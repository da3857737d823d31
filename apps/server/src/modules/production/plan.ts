import {
  SHIFT_MINUTES,
  SHIFT_OPTIONS,
  WORK_DISPATCH_LIFECYCLE,
  WORKSHOP_KINDS,
  type WorkshopKind,
  workDispatchResource,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { updateRecord } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { equipmentFaults } from './equipment-faults.ts';
import { overloadWarnings, workDispatchHooks } from './workshop-task.ts';

/**
 * 排产计划 (plan) of the four workshops: the dispatches not closed in a date range laid out per
 * machine or operator, day and shift, with each cell's load (Σ planned minutes = standard minutes ×
 * quantity) against the shift's minutes. 改派 (dragging a bar) is an edit of a 已派工 dispatch under
 * the same rules as any edit (workDispatchHooks); an overloaded target is answered as a warning.
 */

/** The longest range the plan shows at once (days). */
export const PLAN_MAX_DAYS = 62;

const SHIFT_LABEL = new Map(SHIFT_OPTIONS.map((o) => [o.value, o.label]));
const STATE_LABEL = new Map(WORK_DISPATCH_LIFECYCLE.states.map((s) => [s.value, s.label]));
const SHIFT_ORDER = SHIFT_OPTIONS.map((o) => o.value);

const day = (label: string) =>
  z
    .string({ error: `${label}不能为空` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(v).toISOString().startsWith(v), {
      message: `${label}不是有效日期`,
    });

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const planQuery = z
  .strictObject({
    workshopType: z.enum(WORKSHOP_KINDS.map((k) => k.type) as [string, ...string[]], {
      error: '车间类型只能是：车加工、磨加工、检测、装配',
    }),
    from: day('开始日期'),
    to: day('结束日期'),
    by: z
      .enum(['equipment', 'operator'], { error: '排产维度只能是 equipment（设备）或 operator（操作工）' })
      .default('equipment'),
  })
  .superRefine((q, ctx) => {
    const n = daysBetween(q.from, q.to);
    if (n < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
    else if (n + 1 > PLAN_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围不能超过 ${PLAN_MAX_DAYS} 天` });
    }
  });
export type PlanQuery = z.infer<typeof planQuery>;

const dispatchField = (name: string) => {
  const f = workDispatchResource.fields.find((x) => x.name === name);
  if (!f) throw new Error(`work-dispatch has no field ${name}`);
  return fieldSchema(f);
};

export const moveBody = z.strictObject({
  equipmentId: zx.id.nullable().optional(),
  operatorId: zx.id.optional(),
  workDate: dispatchField('workDate'),
  shift: dispatchField('shift'),
  version: z.number({ error: '版本号必须是数字' }).int('版本号必须是整数').positive('版本号必须是正整数'),
});

const kindOf = (type: string) => WORKSHOP_KINDS.find((k) => k.type === type) as WorkshopKind;

/** The workshop's plan permission, or the resource-wide one of 派工单. */
const mayPlan = (user: AuthUser, k: WorkshopKind, action: string) =>
  can(user, `${workDispatchResource.permission}:${action}`) ||
  can(user, `${workshopPermission(k, 'Plan')}:${action}`);

const planPerms = (action: string) =>
  WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Plan')}:${action}` as Permission);
const opened = (action: string) => {
  const [permission, ...alsoAllowedBy] = planPerms(action);
  return { permission, alsoAllowedBy };
};

export interface PlanCell {
  rowId: number | null;
  workDate: string;
  shift: string;
  minutes: string;
  capacity: number;
  overloaded: boolean;
}

/** Rows (machines or operators of the workshop), bars (dispatches not closed) and each cell's load. */
export async function readPlan(db: Db, q: PlanQuery) {
  const bars = (
    await sql<Record<string, any>>`
    SELECT x.id, x.doc_no, x.status, to_char(x.work_date, 'YYYY-MM-DD') AS work_date, x.shift,
           x.quantity, x.reported_quantity, COALESCE(x.planned_minutes, 0) AS planned_minutes, x.version,
           x.equipment_id, x.operator_id, x.team_id, x.task_id, t.task_no, x.production_order_id,
           o.doc_no AS order_no, x.product_id, m.code AS product_code, m.name AS product_name,
           m.spec AS product_spec, x.process_id, p.name AS process_name, u.first_name AS operator_name,
           e.code AS equipment_code, e.name AS equipment_name, e.fault_state AS equipment_fault_state
      FROM work_dispatch x
      JOIN workshop_task t ON t.id = x.task_id
      JOIN production_order o ON o.id = x.production_order_id
      JOIN material m ON m.id = x.product_id
      JOIN process p ON p.id = x.process_id
      JOIN app_user u ON u.id = x.operator_id
      LEFT JOIN equipment e ON e.id = x.equipment_id
     WHERE x.workshop_type = ${q.workshopType} AND x.status <> 'closed'
       AND x.work_date BETWEEN ${q.from}::date AND ${q.to}::date
     ORDER BY x.work_date, x.shift, x.doc_no
     LIMIT 5000`.execute(db)
  ).rows;
  const key = q.by === 'equipment' ? 'equipmentId' : 'operatorId';
  const used = [...new Set(bars.map((b) => b[key]).filter((v) => v != null))];
  const rows =
    q.by === 'equipment'
      ? (
          await sql<Record<string, any>>`
          SELECT e.id, e.code, e.name, e.model, e.status, e.fault_state, w.name AS workshop_name
            FROM equipment e JOIN workshop w ON w.id = e.workshop_id
           WHERE (w.type = ${q.workshopType} AND e.status <> 'scrapped')
              OR e.id = ANY(${sql.val(used)}::bigint[])
           ORDER BY w.code, e.code`.execute(db)
        ).rows
      : (
          await sql<Record<string, any>>`
          SELECT u.id, u.user_name AS code, u.first_name AS name,
                 string_agg(DISTINCT tm.name, '、' ORDER BY tm.name) AS team_names
            FROM app_user u
            LEFT JOIN production_team tm ON u.id = ANY(tm.member_ids) AND tm.status = '1'
                 AND tm.workshop_id IN (SELECT id FROM workshop WHERE type = ${q.workshopType})
           WHERE (tm.id IS NOT NULL AND u.status = '1') OR u.id = ANY(${sql.val(used)}::bigint[])
           GROUP BY u.id, u.user_name, u.first_name
           ORDER BY u.user_name`.execute(db)
        ).rows;
  // Work on no machine gets a row of its own (operators are always set).
  if (bars.some((b) => b[key] == null)) rows.push({ id: null, code: '', name: '未指定设备' });

  const load = new Map<string, PlanCell>();
  for (const b of bars) {
    const rowId = b[key] == null ? null : Number(b[key]);
    const k = `${rowId}|${b.workDate}|${b.shift}`;
    const cell = load.get(k) ?? {
      rowId,
      workDate: b.workDate,
      shift: b.shift,
      minutes: '0',
      capacity: SHIFT_MINUTES,
      overloaded: false,
    };
    cell.minutes = new Decimal(cell.minutes).plus(b.plannedMinutes).toFixed(2);
    cell.overloaded = new Decimal(cell.minutes).gt(SHIFT_MINUTES);
    load.set(k, cell);
  }
  const capacity = [...load.values()].sort(
    (a, b) =>
      a.workDate.localeCompare(b.workDate) ||
      SHIFT_ORDER.indexOf(a.shift) - SHIFT_ORDER.indexOf(b.shift) ||
      Number(a.rowId ?? 0) - Number(b.rowId ?? 0),
  );
  return { by: q.by, from: q.from, to: q.to, shiftMinutes: SHIFT_MINUTES, rows, bars, capacity };
}

/** 改派: another machine, operator, day or shift for a 已派工 dispatch; the edit's rules apply. */
export async function moveDispatch(
  db: Db,
  user: AuthUser,
  id: number,
  body: z.infer<typeof moveBody>,
  requestId?: string,
) {
  const r = await sql<{
    workshopType: string;
  }>`SELECT workshop_type FROM work_dispatch WHERE id = ${id}`.execute(db);
  if (!r.rows[0]) throw notFound('派工单不存在或已被删除');
  if (!mayPlan(user, kindOf(r.rows[0].workshopType), 'edit')) throw forbidden();
  const changes: Record<string, unknown> = {
    workDate: body.workDate,
    shift: body.shift,
    version: body.version,
  };
  if (body.equipmentId !== undefined) changes.equipmentId = body.equipmentId;
  if (body.operatorId !== undefined) changes.operatorId = body.operatorId;
  await updateRecord({ db, def: workDispatchResource, user }, id, changes, workDispatchHooks, requestId);
  const v = await sql<{ version: number }>`SELECT version FROM work_dispatch WHERE id = ${id}`.execute(db);
  const moved = await sql<{
    equipmentId: number | null;
  }>`SELECT equipment_id FROM work_dispatch WHERE id = ${id}`.execute(db);
  const warnings = [
    ...(await overloadWarnings(db, id)),
    ...(await equipmentFaults.ask(db, [moved.rows[0]?.equipmentId])),
  ];
  return { id, version: v.rows[0].version, warnings };
}

async function planWorkbook(k: WorkshopKind, plan: Awaited<ReturnType<typeof readPlan>>) {
  const wb = new (await exceljs()).Workbook();
  const byEquipment = plan.by === 'equipment';
  const rowName = new Map(
    plan.rows.map((r) => [r.id == null ? null : Number(r.id), `${r.code ?? ''} ${r.name}`.trim()]),
  );
  const cell = new Map(plan.capacity.map((c) => [`${c.rowId}|${c.workDate}|${c.shift}`, c]));
  const ws = wb.addWorksheet('排产计划');
  ws.addRow([`${k.label}排产计划（按${byEquipment ? '设备' : '操作工'}）${plan.from} 至 ${plan.to}`]);
  ws.addRow([
    byEquipment ? '设备' : '操作工',
    '生产日期',
    '班次',
    '派工单号',
    '状态',
    '车间任务',
    '生产订单',
    '产品',
    '工序',
    byEquipment ? '操作工' : '设备',
    '派工数量',
    '计划工时(分钟)',
    '班次负荷(分钟)',
    '超负荷',
  ]);
  ws.getRow(2).font = { bold: true };
  for (const b of plan.bars) {
    const rowId = byEquipment ? b.equipmentId : b.operatorId;
    const c = cell.get(`${rowId == null ? null : Number(rowId)}|${b.workDate}|${b.shift}`);
    ws.addRow(
      [
        rowName.get(rowId == null ? null : Number(rowId)) ?? '',
        b.workDate,
        SHIFT_LABEL.get(b.shift) ?? b.shift,
        b.docNo,
        STATE_LABEL.get(b.status) ?? b.status,
        b.taskNo,
        b.orderNo,
        `${b.productName} ${b.productSpec ?? ''}`.trim(),
        b.processName,
        byEquipment ? b.operatorName : (b.equipmentName ?? ''),
        Number(b.quantity),
        Number(b.plannedMinutes),
        c ? Number(c.minutes) : 0,
        c?.overloaded ? '是' : '',
      ].map(neutralise),
    );
  }
  ws.columns.forEach((c, i) => {
    c.width = [18, 12, 8, 18, 8, 24, 20, 24, 14, 12, 10, 14, 14, 8][i] ?? 12;
  });
  ws.views = [{ state: 'frozen', ySplit: 2 }];
  return wb;
}

export function planRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/work-dispatch/plan',
    ...opened('list'),
    query: planQuery,
    async handler({ query, user, app: { db } }) {
      if (!mayPlan(user, kindOf(query.workshopType), 'list')) throw forbidden();
      return readPlan(db, query);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/work-dispatch/plan/export',
    ...opened('export'),
    query: planQuery,
    async handler({ query, user, app: { db, config } }) {
      const k = kindOf(query.workshopType);
      if (!mayPlan(user, k, 'export')) throw forbidden();
      const plan = await readPlan(db, query);
      const wb = await planWorkbook(k, plan);
      const { file, fileName } = newExportFile(config.exportDir, user.id, `${k.label}排产计划`);
      await wb.xlsx.writeFile(file);
      return { fileName, rows: plan.bars.length };
    },
  });
  route(app, {
    method: 'PUT',
    url: '/api/v1/work-dispatch/plan/:id',
    ...opened('edit'),
    params: idParams,
    body: moveBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => moveDispatch(trx, user, params.id, body, req.id)),
  });
}
