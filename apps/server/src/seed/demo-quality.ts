import { inspectionItemResource, inspectionTaskResource, inspectionTemplateResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import {
  createInspectionTask,
  findTemplate,
  inspectionTaskTransitions,
  inspectionTemplateHooks,
  planItems,
  saveResults,
} from '../modules/quality/inspection.ts';
import { onCardArrival, planPatrols, tasksForOutbound } from '../modules/quality/sources.ts';
import { auditMany } from '../platform/audit.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';
import { bearingStepSets, ringStepSets, STEP_ITEMS, type StepSetSpec } from './demo-step-inspection.ts';

/**
 * 质量检测 demo: the items a bearing-ring inspector checks (the ring dimensions take their limits
 * from the ring standard for the task's product; the typed ones, 6204 sizes, are the fallback),
 * generic templates per inspection kind and, per ring and bearing, the item set of each inspected
 * step of its route (demo-step-inspection.ts: an outer ring's 车外圈 checks D, its width and its
 * raceway turned with grinding allowance; 磨沟道 the raceway before superfinishing and the finished
 * D; 超精 the raceway's Ra and roundness), and the inspection tasks the workshop's 报工 made — those already
 * posted are 合格 with their values, the last ones wait for qc01 (待检验, one 检验中), one 首检
 * failed and holds its card (返工), one was 让步接收; plus 来料, 过程 (巡检计划) and 出货 tasks.
 */

const ITEMS: Record<string, unknown>[] = [
  {
    code: 'QI-D',
    name: '内径 d',
    kind: 'measure',
    ringCharacteristic: 'dmp',
    nominal: '20',
    upperTolerance: '0',
    lowerTolerance: '-0.010',
    unit: 'mm',
    instrument: '内径千分表',
    samplingMode: 'fixed',
    sampleSize: 5,
    method: '两点法，在套圈宽度中部测量',
  },
  {
    code: 'QI-DD',
    name: '外径 D',
    kind: 'measure',
    ringCharacteristic: 'Dmp',
    nominal: '47',
    upperTolerance: '0',
    lowerTolerance: '-0.011',
    unit: 'mm',
    instrument: 'D913 外径测量仪',
    samplingMode: 'fixed',
    sampleSize: 5,
  },
  {
    code: 'QI-B',
    name: '宽度 B',
    kind: 'measure',
    ringCharacteristic: 'Bs',
    nominal: '14',
    upperTolerance: '0',
    lowerTolerance: '-0.120',
    unit: 'mm',
    instrument: '高度仪',
    samplingMode: 'fixed',
    sampleSize: 3,
  },
  {
    code: 'QI-K',
    name: '径向跳动 Kia',
    kind: 'measure',
    ringCharacteristic: 'Kia',
    nominal: '0',
    upperTolerance: '0.010',
    lowerTolerance: '0',
    unit: 'mm',
    instrument: '跳动仪',
    samplingMode: 'fixed',
    sampleSize: 3,
  },
  {
    code: 'QI-V',
    name: '外观（磕碰、锈蚀、烧伤）',
    kind: 'count',
    samplingMode: 'aql',
    inspectionLevel: 'II',
    aql: '1.0',
    method: '目视，酸洗后检查磨削烧伤',
  },
  {
    code: 'QI-H',
    name: '硬度 HRC',
    kind: 'measure',
    nominal: '62',
    upperTolerance: '2',
    lowerTolerance: '-2',
    unit: 'HRC',
    instrument: '洛氏硬度计',
    samplingMode: 'fixed',
    sampleSize: 3,
  },
  {
    code: 'QI-P',
    name: '包装与标识',
    kind: 'count',
    samplingMode: 'aql',
    inspectionLevel: 'S-2',
    aql: '2.5',
  },
];

const TEMPLATES: [string, string, string, string[]][] = [
  ['QT-RPT', '套圈报工检验', 'reporting', ['QI-D', 'QI-DD', 'QI-B', 'QI-V']],
  ['QT-IN', '来料检验（钢材、配件）', 'incoming', ['QI-H', 'QI-V']],
  ['QT-PRC', '工序巡检', 'process', ['QI-D', 'QI-K']],
  ['QT-SHIP', '成品出货检验', 'shipment', ['QI-K', 'QI-V', 'QI-P']],
];

/**
 * A value inside the limits (or off by `off` of the band above the upper limit). A maximum
 * without a lower limit (a runout) counts from 0.
 */
function valueFor(lo: string | null, hi: string, k: number, off = 0) {
  const band = new Decimal(hi).minus(lo ?? 0);
  const v = new Decimal(lo ?? 0).plus(band.times(0.3 + ((k * 37) % 40) / 100));
  return (off ? new Decimal(hi).plus(band.times(off)) : v).toDecimalPlaces(4).toString();
}

async function fill(db: Db, qc: AuthUser, taskId: number, bad = false) {
  const items = await sql<{
    id: number;
    kind: string;
    lowerLimit: string | null;
    upperLimit: string;
    sampleSize: number;
  }>`
    SELECT id, kind, lower_limit::text AS lower_limit, upper_limit::text AS upper_limit, sample_size
      FROM inspection_task_item WHERE inspection_task_id = ${taskId} ORDER BY line_no`.execute(db);
  const rows = items.rows.flatMap((i, n) =>
    Array.from({ length: i.sampleSize }, (_, k) =>
      i.kind === 'count'
        ? { taskItemId: Number(i.id), sampleNo: k + 1, ok: true }
        : {
            taskItemId: Number(i.id),
            sampleNo: k + 1,
            value: valueFor(i.lowerLimit, i.upperLimit, taskId + k + n, bad && n === 0 && k === 1 ? 0.4 : 0),
          },
    ),
  );
  await saveResults(db, qc, taskId, rows);
}

const run = (db: Db, by: AuthUser, name: string, id: number, input: Record<string, unknown> = {}) =>
  runTransition(db, by, inspectionTaskResource, name, id, input, inspectionTaskTransitions[name]);

export async function seedDemoQuality(db: Db, admin: AuthUser) {
  const itemIds = new Map<string, number>();
  for (const item of [...ITEMS, ...STEP_ITEMS]) {
    itemIds.set(
      String(item.code),
      await createRecord({ db, user: admin, def: inspectionItemResource }, { status: '1', ...item }),
    );
  }
  for (const [code, name, kind, items] of TEMPLATES) {
    await createRecord(
      { db, user: admin, def: inspectionTemplateResource },
      {
        code,
        name,
        inspectionKind: kind,
        status: '1',
        items: items.map((c) => ({ itemId: itemIds.get(c) })),
      },
    );
  }
  await seedStepSets(db, admin, itemIds);
  const qcRow = await sql<{ id: number; firstName: string }>`
    SELECT id, first_name FROM app_user WHERE user_name = 'qc01'`.execute(db);
  const qc: AuthUser = { ...admin, id: Number(qcRow.rows[0]?.id ?? admin.id), userName: 'qc01' };

  // The tasks 报工 made before the templates existed: their items now.
  const made = await sql<{
    id: number;
    productId: number;
    processId: number | null;
    lotQuantity: string;
    inspectionKind: string;
  }>`
    SELECT t.id, t.product_id, t.process_id, t.lot_quantity::text AS lot_quantity, t.inspection_kind
      FROM inspection_task t WHERE NOT EXISTS (SELECT 1 FROM inspection_task_item i WHERE i.inspection_task_id = t.id)
     ORDER BY t.id`.execute(db);
  const lines: RawBuilder<unknown>[] = [];
  const sized: { id: number; templateId: number; sampleSize: number }[] = [];
  for (const t of made.rows) {
    const templateId = await findTemplate(db, Number(t.productId), t.processId, t.inspectionKind);
    if (!templateId) continue;
    const items = await planItems(db, templateId, t.lotQuantity, { productId: Number(t.productId) });
    for (const [n, i] of items.entries())
      lines.push(sql`(${t.id}::bigint, ${n + 1}::int, ${i.itemId}::bigint, ${i.itemTitle}, ${i.kind},
                      ${i.ringCharacteristic}, ${i.nominal}::numeric, ${i.lowerLimit}::numeric, ${i.upperLimit}::numeric, ${i.limitSource},
                      ${i.limitNote}, ${i.unit}, ${i.instrument}, ${i.sampleSize}::int, ${i.acceptNumber}::int,
                      ${i.rejectNumber}::int, ${i.codeLetter}, 0)`);
    sized.push({ id: t.id, templateId, sampleSize: items.reduce((m, i) => Math.max(m, i.sampleSize), 0) });
  }
  // One insert of every task's items, one update of the tasks.
  for (let i = 0; i < lines.length; i += 1000)
    await sql`
      INSERT INTO inspection_task_item (inspection_task_id, line_no, item_id, item_title, kind, ring_characteristic,
                                        nominal, lower_limit, upper_limit, limit_source, limit_note, unit,
                                        instrument, sample_size, accept_number, reject_number, code_letter, defect_count)
      VALUES ${sql.join(lines.slice(i, i + 1000))}`.execute(db);
  if (sized.length)
    await sql`
      UPDATE inspection_task t SET template_id = x.template_id, sample_size = x.sample_size
        FROM unnest(${sized.map((x) => x.id)}::bigint[], ${sized.map((x) => x.templateId)}::bigint[],
                    ${sized.map((x) => x.sampleSize)}::int[]) AS x(id, template_id, sample_size)
       WHERE t.id = x.id`.execute(db);

  await passPosted(db, qc);

  // What still waits: the first report waiting for inspection fails its 首检 and holds its card (返工).
  const waiting = await sql<{ id: number }>`
    SELECT t.id FROM inspection_task t JOIN work_report r ON r.id = t.work_report_id
     WHERE t.status = 'pending' AND r.status = 'inspecting' ORDER BY t.id LIMIT 1`.execute(db);
  const failed = waiting.rows[0] ? Number(waiting.rows[0].id) : 0;
  if (failed) {
    await sql`UPDATE inspection_task SET check_kind = 'first' WHERE id = ${failed}`.execute(db);
    await fill(db, qc, failed, true);
    await run(db, qc, 'reject', failed, { disposition: 'rework', defectQuantity: '1' });
  }

  // 来料: steel and ball lots, half of them passed.
  const materials = await sql<{ id: number; code: string }>`
    SELECT m.id, mt.code FROM material m JOIN material_type mt ON mt.id = m.material_type_id
     WHERE mt.code LIKE 'RAW%' OR mt.code = 'AUX-BALL' ORDER BY m.id LIMIT 4`.execute(db);
  const today = businessDay();
  const incoming: number[] = [];
  for (const [k, m] of materials.rows.entries()) {
    const id = await createInspectionTask(db, admin, {
      category: String(m.code).startsWith('AUX') ? 'assembly-incoming' : 'machine-incoming',
      productId: Number(m.id),
      lotQuantity: String(500 + k * 300),
      batchNo: `LH${today.replaceAll('-', '').slice(2)}-${k + 1}`,
      planDate: today,
    });
    incoming.push(id);
    if (k % 2 === 0) {
      await fill(db, qc, id);
      await run(db, qc, 'pass', id);
    }
  }
  // One lot out of hardness, accepted by concession; one being entered.
  if (incoming[1]) {
    await fill(db, qc, incoming[1], true);
    await run(db, admin, 'concede', incoming[1], {
      reason: '硬度偏高 0.8 HRC，不影响车削，技术部同意让步接收',
    });
  }
  const enteringItem = incoming[3] ? await firstItem(db, incoming[3]) : 0;
  if (enteringItem)
    await saveResults(db, qc, incoming[3], [{ taskItemId: enteringItem, sampleNo: 1, value: '62.5' }]);

  await seedWorkshopIncoming(db, admin, qc, itemIds);

  // 过程: today's patrol plan; 出货: the sales shipments still in draft.
  await planPatrols(db, admin, today);
  const drafts = await sql<{ id: number }>`
    SELECT id FROM stock_outbound WHERE type = 'sales' AND status = 'draft' ORDER BY id LIMIT 2`.execute(db);
  for (const d of drafts.rows) await tasksForOutbound(db, admin, Number(d.id));
}

/**
 * The step item sets: for each demo ring and bearing, one 报工检验 template per inspected step of
 * its route, with the sizes that step leaves (demo-step-inspection.ts). Saved through the kit so
 * the template rules (the part's items, turning sizes with allowance) hold for the demo too.
 */
async function seedStepSets(db: Db, admin: AuthUser, itemIds: Map<string, number>) {
  const products = await sql<{
    id: number;
    code: string;
    name: string;
    partType: string | null;
    d: string | null;
    D: string | null;
  }>`
    SELECT id, code, name, part_type, bore_diameter::text AS d, outside_diameter::text AS "D"
      FROM material WHERE part_type IS NOT NULL AND (code LIKE 'SF-6%' OR code LIKE 'FG-6%') ORDER BY code`.execute(
    db,
  );
  const steps = await sql<{ productId: number; processId: number; code: string; name: string }>`
    SELECT r.product_id, s.process_id, p.code, p.name
      FROM process_route r JOIN process_route_step s ON s.process_route_id = r.id JOIN process p ON p.id = s.process_id
     WHERE r.status = 'active' AND s.inspection_required AND NOT s.outsourced`.execute(db);
  for (const m of products.rows) {
    const mine = steps.rows.filter((x) => Number(x.productId) === Number(m.id));
    const ring = /^SF-(\d{4})-(IR|OR)-(P\d)$/.exec(m.code);
    const sets: StepSetSpec[] = ring
      ? ringStepSets({
          model: ring[1],
          ring: ring[2] as 'IR' | 'OR',
          grade: ring[3],
          d: Number(m.d),
          D: Number(m.D),
          // 车外圈 / 车内圈 from tube, 精车 from a forging: the route's turning step.
          turning: mine.find((x) => ['GX030', 'GX040', 'GX050'].includes(x.code))?.code ?? 'GX040',
        })
      : bearingStepSets();
    for (const set of sets) {
      const step = mine.find((x) => x.code === set.process);
      if (!step) continue;
      await createRecord(
        { db, user: admin, def: inspectionTemplateResource },
        {
          code: `QT-${m.code.replace(/^(SF|FG)-/, '')}-${set.process}`.slice(0, 30),
          name: `${m.name}${ring ? ` ${ring[3]}` : ''} ${step.name}检验`.slice(0, 60),
          productId: Number(m.id),
          processId: Number(step.processId),
          inspectionKind: 'reporting',
          sizeStage: set.stage,
          status: '1',
          items: set.lines.map(({ item, ...sizes }) => ({ itemId: itemIds.get(item), ...sizes })),
        },
        inspectionTemplateHooks,
      );
    }
  }
}

/**
 * 车间来料 at 磨加工: turned and hardened rings arriving on the open cards are checked by a 半成品来料检验 bound to
 * the grinding step's process (the 来料 of steel keeps its own template). The arrivals happened
 * before the template existed, so their tasks are raised now as the posting would have: the
 * older lots passed, the two latest waiting for qc01.
 */
async function seedWorkshopIncoming(db: Db, admin: AuthUser, qc: AuthUser, itemIds: Map<string, number>) {
  const arrivals = (
    await sql<{ cardId: number; fromSeq: number; processId: number }>`
      SELECT c.id AS card_id, p.seq AS from_seq, n.process_id
        FROM flow_card c
        JOIN flow_card_step n ON n.flow_card_id = c.id AND n.input_quantity > 0 AND NOT n.outsourced
        JOIN workshop w ON w.id = n.workshop_id AND w.type = 'grinding'
        JOIN LATERAL (SELECT x.seq, x.workshop_id FROM flow_card_step x
                       WHERE x.flow_card_id = c.id AND x.seq < n.seq ORDER BY x.seq DESC LIMIT 1) p ON true
       WHERE c.status = 'open' AND p.workshop_id IS DISTINCT FROM n.workshop_id
       ORDER BY c.id DESC LIMIT 6`.execute(db)
  ).rows.reverse();
  if (!arrivals.length) return;
  await createRecord(
    { db, user: admin, def: inspectionTemplateResource },
    {
      code: 'QT-SEMI',
      name: '半成品来料检验（热处理后套圈）',
      inspectionKind: 'incoming',
      processId: Number(arrivals[0].processId),
      status: '1',
      // Turned and hardened rings reaching grinding: hardness and cracks. Their sizes are the
      // turned ones (checked at turning), not the finished limits a generic 内径 d would apply.
      items: ['QI-H', 'QI-V'].map((c) => ({ itemId: itemIds.get(c) })),
    },
  );
  for (const [k, a] of arrivals.entries()) {
    const id = await onCardArrival(db, admin, Number(a.cardId), Number(a.fromSeq));
    if (!id || k >= arrivals.length - 2) continue;
    await fill(db, qc, id);
    await run(db, qc, 'pass', id);
  }
}

/**
 * The reports the workshop already posted passed their inspection, with values inside the limits
 * (as `fill` enters them). Written for all of them at once (issue 10: the demo seeds in bulk), as
 * 录入 and 合格 leave each one: every sample's result, the items' and the task's verdict by qc01
 * when the report was approved, the card step's result, the card released, the audit trail.
 */
async function passPosted(db: Db, qc: AuthUser) {
  const posted = await sql<{ id: number; at: string }>`
    SELECT t.id, r.updated_at::text AS at FROM inspection_task t JOIN work_report r ON r.id = t.work_report_id
     WHERE t.status = 'pending' AND r.status = 'posted' AND t.stock_inbound_id IS NULL ORDER BY t.id`.execute(
    db,
  );
  if (!posted.rows.length) return;
  const ids = posted.rows.map((t) => Number(t.id));
  await sql`
    INSERT INTO inspection_result (inspection_task_id, task_item_id, sample_no, value, ok, conform)
    SELECT i.inspection_task_id, i.id, k,
           CASE WHEN i.kind = 'measure'
                THEN round(COALESCE(i.lower_limit, 0) + (i.upper_limit - COALESCE(i.lower_limit, 0))
                           * (0.3 + ((i.inspection_task_id + k - 1 + i.line_no - 1) * 37 % 40) / 100.0), 4) END,
           CASE WHEN i.kind = 'count' THEN true END, true
      FROM inspection_task_item i CROSS JOIN LATERAL generate_series(1, i.sample_size) AS k
     WHERE i.inspection_task_id = ANY(${ids}::bigint[])`.execute(db);
  await sql`
    UPDATE inspection_task_item SET defect_count = 0, result = 'pass' WHERE inspection_task_id = ANY(${ids}::bigint[])`.execute(
    db,
  );
  await sql`
    UPDATE inspection_task t SET status = 'passed', result = 'pass', disposition = NULL, defect_quantity = NULL,
           inspector_id = ${qc.id}, inspected_at = x.at, updated_by = ${qc.id}, updated_at = x.at, version = t.version + 2
      FROM unnest(${ids}::bigint[], ${posted.rows.map((t) => t.at)}::timestamptz[]) AS x(id, at)
     WHERE t.id = x.id`.execute(db);
  await sql`
    UPDATE flow_card_step s SET inspection_result = 'pass'
      FROM inspection_task t JOIN work_report r ON r.id = t.work_report_id
     WHERE t.id = ANY(${ids}::bigint[]) AND s.flow_card_id = r.flow_card_id AND s.order_step_id = r.order_step_id`.execute(
    db,
  );
  await sql`
    UPDATE flow_card c SET held = false, hold_reason = NULL, updated_at = now(), version = c.version + 1
      FROM inspection_task t WHERE t.id = ANY(${ids}::bigint[]) AND c.id = t.flow_card_id AND c.held`.execute(
    db,
  );
  await auditMany(
    db,
    ids.map((id) => ({
      user: qc,
      entry: {
        entity: 'inspection-task',
        entityId: id,
        action: 'pass',
        before: { status: 'inspecting' },
        after: { status: 'passed' },
      },
    })),
  );
}

async function firstItem(db: Db, taskId: number) {
  const r = await sql<{ id: number }>`
    SELECT id FROM inspection_task_item WHERE inspection_task_id = ${taskId} AND kind = 'measure' ORDER BY line_no LIMIT 1`.execute(
    db,
  );
  return Number(r.rows[0]?.id ?? 0);
}
