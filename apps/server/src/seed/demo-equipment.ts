import {
  equipmentRepairResource,
  inspectionChecklistResource,
  inspectionRecordResource,
  maintenancePlanResource,
  maintenanceRecordResource,
} from '@ringmes/domain';
import { sql } from 'kysely';
import {
  checklistHooks,
  inspectionRecordHooks,
  maintenancePlanHooks,
  maintenanceRecordHooks,
  repairFromCheck,
  repairHooks,
  repairTransitions,
} from '../modules/equipment/equipment-care.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

type Stage = 'reported' | 'dispatched' | 'repairing' | 'repaired' | 'confirmed' | 'closed';

const HOUR = 3_600_000;

/**
 * Demo 设备管理, relative to today: repairs in every state (two still open, so their machines show
 * 故障), reported by the turning workshop head and repaired by the equipment technician; five
 * maintenance plans of which exactly one is overdue; two daily checklists with a few days of
 * records, the last of which has one NG item that opened a repair in one step.
 */
export async function seedDemoEquipment(db: Db, admin: AuthUser): Promise<void> {
  const users = await db.selectFrom('appUser').select(['id', 'userName', 'firstName', 'deptId']).execute();
  const as = (userName: string): AuthUser => {
    const u = users.find((x) => x.userName === userName);
    return u ? { ...admin, id: u.id, userName, firstName: u.firstName, deptId: u.deptId } : admin;
  };
  const head = as('head01');
  const tech = as('eq01');
  const eqs = await sql<{ id: number; code: string }>`SELECT id, code FROM equipment`.execute(db);
  const eq = (code: string) => {
    const found = eqs.rows.find((e) => e.code === code);
    if (!found) throw new Error(`演示数据引用了不存在的设备 ${code}`);
    return Number(found.id);
  };
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));

  // ------------------------------------------------------------ 报修
  const repairs: {
    code: string;
    fault: string;
    hoursAgo: number;
    stage: Stage;
    downtime?: number;
    content?: string;
    reason?: string;
  }[] = [
    {
      code: 'EQ-CJ-004',
      fault: '主轴异响，精车外圈表面出现振纹',
      hoursAgo: 24 * 21,
      stage: 'confirmed',
      downtime: 185,
      content: '更换主轴前轴承 7014C，调整预紧力，试切合格',
    },
    {
      code: 'EQ-MJ-002',
      fault: '砂轮主轴温升过高，报警停机',
      hoursAgo: 24 * 11,
      stage: 'confirmed',
      downtime: 95,
      content: '清洗主轴润滑油路，更换润滑油滤芯',
    },
    {
      code: 'EQ-MJ-002',
      fault: '导轮调速失灵，工件尺寸不稳',
      hoursAgo: 50,
      stage: 'repaired',
      downtime: 240,
      content: '更换导轮变频器控制板，重新设定参数',
    },
    { code: 'EQ-CJ-001', fault: '刀塔换刀不到位，报警 2041', hoursAgo: 3, stage: 'repairing' },
    { code: 'EQ-MJ-005', fault: '冷却液泵不出水，沟道烧伤风险', hoursAgo: 1.5, stage: 'dispatched' },
    {
      code: 'EQ-CJ-002',
      fault: '急停按钮失效',
      hoursAgo: 24 * 6,
      stage: 'closed',
      reason: '复查为操作误报，按钮正常',
    },
  ];
  const path: Stage[] = ['dispatched', 'repairing', 'repaired', 'confirmed'];
  for (const r of repairs) {
    const at = new Date(Date.now() - r.hoursAgo * HOUR);
    const id = await createRecord(
      { db, user: head, def: equipmentRepairResource },
      { equipmentId: eq(r.code), faultDescription: r.fault, reportedAt: at },
      repairHooks,
    );
    const run = (name: string, by: AuthUser, input: Record<string, unknown> = {}) =>
      runTransition(db, by, equipmentRepairResource, name, id, input, repairTransitions[name]);
    if (r.stage === 'closed') await run('close', head, { reason: r.reason });
    const reached = path.indexOf(r.stage as Stage);
    if (reached >= 0) await run('dispatch', admin, { assigneeId: tech.id });
    if (reached >= 1) await run('start', tech);
    if (reached >= 2) await run('finish', tech, { repairContent: r.content });
    if (reached >= 3) await run('confirm', head);
    // The times of a real repair: dispatched after 10 minutes, started after 25, repaired after the downtime.
    await sql`
      UPDATE equipment_repair
         SET created_at = reported_at,
             dispatched_at = CASE WHEN dispatched_at IS NOT NULL THEN reported_at + interval '10 minutes' END,
             started_at = CASE WHEN started_at IS NOT NULL THEN reported_at + interval '25 minutes' END,
             repaired_at = CASE WHEN repaired_at IS NOT NULL THEN reported_at + make_interval(mins => ${r.downtime ?? 0}) END,
             downtime_minutes = CASE WHEN repaired_at IS NOT NULL THEN ${r.downtime ?? 0}::int END,
             confirmed_at = CASE WHEN confirmed_at IS NOT NULL
                                 THEN reported_at + make_interval(mins => ${(r.downtime ?? 0) + 60}) END
       WHERE id = ${id}`.execute(db);
  }

  // ------------------------------------------------------------ 保养
  const plans: { code: string; name: string; eq: string; cycle: number; done: number[]; content: string }[] =
    [
      {
        code: 'BY-CJ001-1',
        name: '一级保养',
        eq: 'EQ-CJ-001',
        cycle: 30,
        done: [-42, -12],
        content: '清洁机床、检查润滑、紧固松动件',
      },
      // The overdue one: weekly, last done ten days ago.
      {
        code: 'BY-MJ001-1',
        name: '导轨润滑',
        eq: 'EQ-MJ-001',
        cycle: 7,
        done: [-17, -10],
        content: '清洁导轨并加注导轨油',
      },
      {
        code: 'BY-MJ002-1',
        name: '砂轮修整及平衡',
        eq: 'EQ-MJ-002',
        cycle: 14,
        done: [-23, -9],
        content: '修整砂轮、做动平衡',
      },
      {
        code: 'BY-JC001-1',
        name: '清洗槽换液',
        eq: 'EQ-JC-001',
        cycle: 30,
        done: [-5],
        content: '排空清洗槽、清理过滤网、换新清洗液',
      },
      {
        code: 'BY-CJ005-1',
        name: '锯条张紧检查',
        eq: 'EQ-CJ-005',
        cycle: 60,
        done: [-20],
        content: '检查锯条张紧力与导向块磨损',
      },
    ];
  for (const p of plans) {
    const planId = await createRecord(
      { db, user: admin, def: maintenancePlanResource },
      {
        code: p.code,
        name: p.name,
        equipmentId: eq(p.eq),
        cycleDays: p.cycle,
        startDate: day(p.done[0]),
        status: '1',
        content: p.content,
      },
      maintenancePlanHooks,
    );
    for (const [i, offset] of p.done.entries()) {
      await createRecord(
        { db, user: tech, def: maintenanceRecordResource },
        { planId, doneDate: day(offset), minutes: 30 + i * 15, content: p.content },
        maintenanceRecordHooks,
      );
    }
  }

  // ------------------------------------------------------------ 点检
  const lathe = await createRecord(
    { db, user: admin, def: inspectionChecklistResource },
    {
      code: 'DJ-CJ001',
      name: '数控车床日点检',
      equipmentId: eq('EQ-CJ-001'),
      status: '1',
      items: [
        { itemName: '润滑油位', method: '目视', valueType: 'okng', expected: '在油标上下线之间' },
        { itemName: '主轴运转', method: '听音', valueType: 'okng', expected: '无异响' },
        {
          itemName: '主轴温升',
          method: '测温枪',
          valueType: 'value',
          lowerLimit: '10',
          upperLimit: '55',
          unit: '℃',
        },
        {
          itemName: '气源压力',
          method: '看压力表',
          valueType: 'value',
          lowerLimit: '0.4',
          upperLimit: '0.7',
          unit: 'MPa',
        },
      ],
    },
    checklistHooks,
  );
  const washer = await createRecord(
    { db, user: admin, def: inspectionChecklistResource },
    {
      code: 'DJ-JC001',
      name: '超声波清洗机日点检',
      equipmentId: eq('EQ-JC-001'),
      status: '1',
      items: [
        { itemName: '清洗液位', method: '目视', valueType: 'okng', expected: '高于加热管' },
        {
          itemName: '清洗液温度',
          method: '看温控表',
          valueType: 'value',
          lowerLimit: '40',
          upperLimit: '60',
          unit: '℃',
        },
        { itemName: '过滤网', method: '目视', valueType: 'okng', expected: '无堵塞' },
      ],
    },
    checklistHooks,
  );
  const items = async (checklistId: number) =>
    (
      await sql<{ id: number; itemName: string; valueType: string }>`
        SELECT id, item_name, value_type FROM inspection_checklist_item
         WHERE inspection_checklist_id = ${checklistId} ORDER BY line_no`.execute(db)
    ).rows;
  const check = async (
    checklistId: number,
    offset: number,
    shift: string,
    values: Record<string, string>,
  ) => {
    const list = await items(checklistId);
    return createRecord(
      { db, user: head, def: inspectionRecordResource },
      {
        checklistId,
        checkDate: day(offset),
        shift,
        items: list.map((i) => ({
          checklistItemId: Number(i.id),
          itemName: i.itemName,
          ...(i.valueType === 'value' ? { measuredValue: values[i.itemName] } : { result: 'ok' }),
        })),
      },
      inspectionRecordHooks,
    );
  };
  for (const offset of [-3, -2, -1]) {
    await check(lathe, offset, 'day', { 主轴温升: String(38 + offset), 气源压力: '0.55' });
    await check(washer, offset, 'day', { 清洗液温度: '52' });
  }
  // Today: the washer's bath overheated — the one NG item, reported in one step.
  const ng = await check(washer, 0, 'day', { 清洗液温度: '68.5' });
  const ngItem = await sql<{ id: number }>`
    SELECT id FROM inspection_record_item WHERE inspection_record_id = ${ng} AND result = 'ng'`.execute(db);
  await repairFromCheck(db, head, ng, Number(ngItem.rows[0].id), undefined);
}
