import { docPrefixOf, equipmentRepairResource, type WorkCalendar } from '@ringmes/domain';
import { sql } from 'kysely';
import type { Db } from '../platform/db/db.ts';
import { dayInstant, nextDocNos } from '../platform/numbering.ts';

/**
 * 设备OEE demo (issue 42 §5): the demo floor's calendar (白班 08:00–17:30 and 夜班 20:00–05:30,
 * each with a 30-minute meal break, every day), the operator events of the demo's dispatches
 * (开工 ten minutes into the shift, 完工 at 9 h 20, as demo-workshop.ts stamps them), pauses with
 * reasons, a past breakdown and targets. The bottleneck the board shows: 沟道磨床 EQ-MJ-005, the
 * only 沟道磨床 on line 1, changes over (换型/调机) on every dispatch for 45 minutes, waits for
 * rings (待料) on every other one, and broke down during one of them (95 minutes); the other grinders change over in
 * 15 minutes on every other dispatch. 双端面磨床 EQ-MJ-008 is fed by simulated signals: its PLC
 * reports run and stop with part counts, short stops the operator never enters, and an hour run
 * after a shift with no dispatch open.
 */

const CALENDAR: WorkCalendar = {
  shifts: [
    {
      code: 'day',
      name: '白班',
      start: '08:00',
      end: '17:30',
      breaks: [{ start: '12:00', end: '12:30', name: '午餐' }],
    },
    {
      code: 'night',
      name: '夜班',
      start: '20:00',
      end: '05:30',
      breaks: [{ start: '00:00', end: '00:30', name: '夜餐' }],
    },
  ],
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  holidays: [],
  workdays: [],
};

const MIN = 60_000;
const BOTTLENECK = 'EQ-MJ-005';
const SIGNALLED = 'EQ-MJ-008';

interface DemoDispatch {
  id: number;
  code: string;
  workshopType: string;
  status: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
  statusReason: string | null;
  standardMinutes: number | null;
}

export async function seedDemoOee(db: Db, adminId: number): Promise<void> {
  await sql`
    INSERT INTO work_calendar (workshop_id, calendar, updated_by)
    SELECT id, ${JSON.stringify(CALENDAR)}::jsonb, ${adminId} FROM workshop
    ON CONFLICT (workshop_id) DO NOTHING`.execute(db);
  // Targets: 85 % for the grinders (the world-class figure), 75 % for the lathes.
  await sql`
    INSERT INTO machine_setting (equipment_id, oee_target, updated_by)
    SELECT e.id, CASE w.type WHEN 'grinding' THEN 0.85 ELSE 0.75 END, ${adminId}
      FROM equipment e JOIN workshop w ON w.id = e.workshop_id
     WHERE w.type IN ('grinding', 'machine') AND e.status <> 'scrapped'
    ON CONFLICT (equipment_id) DO NOTHING`.execute(db);

  const r = await sql<DemoDispatch>`
    SELECT d.id::int AS id, e.code, d.workshop_type, d.status, d.started_at, d.finished_at, d.updated_at, d.status_reason,
           t.standard_minutes::float8 AS standard_minutes
      FROM work_dispatch d JOIN equipment e ON e.id = d.equipment_id JOIN workshop_task t ON t.id = d.task_id
     WHERE d.started_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM dispatch_event x WHERE x.dispatch_id = d.id)
     ORDER BY d.started_at, d.id`.execute(db);
  const rows: { dispatchId: number; kind: string; reason: string | null; at: Date }[] = [];
  const signals: { code: string; at: Date; state: string | null; parts: number | null }[] = [];
  const now = Date.now();
  let nth = 0;
  const bottleneckRuns: number[] = [];
  for (const d of r.rows) {
    const start = new Date(d.startedAt as Date).getTime();
    const end = d.finishedAt ? new Date(d.finishedAt).getTime() : null;
    rows.push({ dispatchId: d.id, kind: 'start', reason: null, at: new Date(start) });
    const pause = (after: number, minutes: number, reason: string) => {
      const from = start + after * MIN;
      const to = from + minutes * MIN;
      // Only pauses that ended before the dispatch did (and before now).
      if (to < (end ?? now - MIN)) {
        rows.push({ dispatchId: d.id, kind: 'pause', reason, at: new Date(from) });
        rows.push({ dispatchId: d.id, kind: 'resume', reason: null, at: new Date(to) });
      }
    };
    if (d.workshopType === 'grinding') {
      nth++;
      if (d.code === BOTTLENECK) {
        pause(5, 45, '换型/调机：换 6206/6204 沟道砂轮修整与对刀');
        if (nth % 2 === 0) pause(290, 35, '待料：热处理套圈未到');
        if (end !== null) bottleneckRuns.push(start);
      } else {
        if (nth % 2 === 0) pause(5, 15, '换型/调机：换夹具');
        if (nth % 5 === 0) pause(320, 20, '缺人：操作工支援装配');
      }
    } else if (d.workshopType === 'machine' && nth++ % 4 === 0) pause(20, 20, '换型/调机：换卡爪');
    if (d.status === 'paused')
      rows.push({
        dispatchId: d.id,
        kind: 'pause',
        reason: d.statusReason ?? '待料：外圈毛坯未到',
        at: new Date(Math.max(start + MIN, new Date(d.updatedAt).getTime())),
      });
    if (end !== null) rows.push({ dispatchId: d.id, kind: 'complete', reason: null, at: new Date(end) });
    if (d.code === SIGNALLED) {
      // The PLC: run from the start, a short stop (4–7 min) every 100 minutes, stop at the end;
      // parts counted at each stop at the step's standard minutes.
      const last = end ?? now - MIN;
      let at = start;
      let k = 0;
      while (at < last) {
        signals.push({ code: d.code, at: new Date(at), state: 'run', parts: null });
        const stop = Math.min(at + 100 * MIN, last);
        const per = d.standardMinutes && d.standardMinutes > 0 ? d.standardMinutes : 1;
        signals.push({
          code: d.code,
          at: new Date(stop),
          state: 'stop',
          parts: Math.floor((stop - at) / MIN / per),
        });
        at = stop + (4 + (k++ % 4)) * MIN;
      }
      if (end !== null && d.id % 3 === 0) {
        // Run on for an hour after the shift with no dispatch open: 运行(无派工).
        signals.push({ code: d.code, at: new Date(end + 30 * MIN), state: 'run', parts: null });
        signals.push({ code: d.code, at: new Date(end + 90 * MIN), state: 'stop', parts: 40 });
      }
    }
  }
  const chunk = 2000;
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await sql`
      INSERT INTO dispatch_event (dispatch_id, equipment_id, kind, reason, at, user_id)
      SELECT v.dispatch_id, d.equipment_id, v.kind, v.reason, v.at, d.operator_id
        FROM unnest(${part.map((x) => x.dispatchId)}::bigint[], ${part.map((x) => x.kind)}::text[],
                    ${part.map((x) => x.reason)}::text[], ${part.map((x) => x.at.toISOString())}::timestamptz[])
             AS v(dispatch_id, kind, reason, at)
        JOIN work_dispatch d ON d.id = v.dispatch_id`.execute(db);
  }
  if (signals.length)
    for (let i = 0; i < signals.length; i += chunk) {
      const part = signals.slice(i, i + chunk);
      await sql`
        INSERT INTO machine_signal (equipment_id, at, state, part_count, source, received_at)
        SELECT e.id, v.at, v.state, v.parts, 'mqtt', v.at
          FROM unnest(${part.map((x) => x.code)}::text[], ${part.map((x) => x.at.toISOString())}::timestamptz[],
                      ${part.map((x) => x.state)}::text[], ${part.map((x) => x.parts)}::int[]) AS v(code, at, state, parts)
          JOIN equipment e ON e.code = v.code`.execute(db);
    }
  await sql`
    INSERT INTO machine_setting (equipment_id, oee_target, signal_topic, signal_mapping, updated_by)
    SELECT e.id, 0.85, 'ringmes/demo/grinding/' || e.code || '/state',
           ${JSON.stringify({ stateField: 'state', runValues: ['RUN', 1], stopValues: ['IDLE', 0], faultValues: ['ALARM'], countField: 'parts', timeField: 'ts' })}::jsonb,
           ${adminId}
      FROM equipment e WHERE e.code = ${SIGNALLED}
    ON CONFLICT (equipment_id) DO UPDATE SET signal_topic = EXCLUDED.signal_topic, signal_mapping = EXCLUDED.signal_mapping`.execute(
    db,
  );
  // The bottleneck's breakdown during its third-last finished dispatch: the spindle bearing ran
  // hot 5 h 30 in, 95 minutes down.
  const base = bottleneckRuns.at(-3) ?? bottleneckRuns.at(-1);
  if (base === undefined) return;
  const reportedAt = new Date(base + 330 * MIN).toISOString();
  const day = new Date(base + 330 * MIN + 8 * 3_600_000).toISOString().slice(0, 10);
  const [docNo] = await nextDocNos(db, docPrefixOf(equipmentRepairResource), 1, undefined, dayInstant(day));
  await sql`
    INSERT INTO equipment_repair (doc_no, status, equipment_id, fault_description, reporter_id, reported_at, assignee_id,
                                  dispatched_at, started_at, repaired_at, downtime_minutes, repair_content, confirmed_by_id,
                                  confirmed_at, created_by, created_at, updated_by, updated_at)
    SELECT ${docNo}, 'confirmed', e.id, '砂轮主轴温升过高，停机报修', ${adminId}, ${reportedAt}::timestamptz, ${adminId},
           ${reportedAt}::timestamptz + interval '10 minutes', ${reportedAt}::timestamptz + interval '25 minutes',
           ${reportedAt}::timestamptz + interval '95 minutes', 95, '更换主轴前轴承并重新调整预紧', ${adminId},
           ${reportedAt}::timestamptz + interval '155 minutes', ${adminId}, ${reportedAt}::timestamptz, ${adminId},
           ${reportedAt}::timestamptz + interval '155 minutes'
      FROM equipment e WHERE e.code = ${BOTTLENECK}`.execute(db);
}
