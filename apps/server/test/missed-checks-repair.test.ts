import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 漏点检 (issue 35): a machine under repair in a shift owes no check for it. A shift is left out
 * when a repair of the machine was open at some time in it (报修 before the shift's end, not
 * repaired — or closed — before its start); the shifts before the fault and after the repair are
 * still owed.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
}, 600_000);
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const today = () =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date()).slice(0, 10);
const daysFrom = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** An instant of the business day `day` at `hh:mm` (Asia/Shanghai). */
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+08:00`).toISOString();

async function machine() {
  const eq = await f.create('equipment');
  const checklist = ok(
    await t.call('POST', '/api/v1/inspection-checklist/add', {
      token,
      body: {
        code: `WX-${eq.id}`,
        name: '维修漏检点检表',
        equipmentId: eq.id,
        items: [{ itemName: '油位', valueType: 'okng' }],
      },
    }),
  );
  return { eq, checklist };
}

/** Work on the machine in a shift (a submitted report). */
async function worked(equipmentId: number, day: string, shift: 'day' | 'night') {
  const r = await f.create('work-report');
  await sql`UPDATE work_report SET equipment_id = ${equipmentId}, report_date = ${day}, hours = 4,
              shift = ${shift}, status = 'submitted' WHERE id = ${r.id}`.execute(t.database.db);
}

/** A 报修 of the machine reported at `from`; repaired at `to` when given (else still open). */
async function repair(equipmentId: number, from: string, to?: string) {
  const rep = ok(
    await t.call('POST', '/api/v1/equipment-repair/add', {
      token,
      body: { equipmentId, faultDescription: '主轴异响，停机待修' },
    }),
  );
  await sql`UPDATE equipment_repair SET reported_at = ${from}::timestamptz,
              status = ${to ? 'repaired' : 'reported'}, repaired_at = ${to ?? null}::timestamptz
             WHERE id = ${rep.id}`.execute(t.database.db);
  return rep.id as number;
}

const missedOf = async (checklistId: number) =>
  ok(await t.call('GET', '/api/v1/inspection-record/missed', { token }))
    .list.filter((x: any) => x.checklistId === checklistId)
    .map((x: any) => `${x.checkDate} ${x.shift}`)
    .sort();

describe('漏点检 leaves out a machine under repair', () => {
  it('a shift in which the machine had an open repair owes no check; the shifts before and after do', async () => {
    const d1 = daysFrom(today(), -3);
    const d2 = daysFrom(today(), -2);
    const d3 = daysFrom(today(), -1);
    const { eq, checklist } = await machine();
    await worked(eq.id, d1, 'day'); // before the fault: owed
    await worked(eq.id, d2, 'night'); // the fault came at 19:30 the evening before, still open
    await worked(eq.id, d3, 'day');
    await repair(eq.id, at(d2, '19:30'));
    expect(await missedOf(checklist.id)).toEqual([`${d1} day`]);

    // Repaired on d3 at 07:00: the day shift of d3 is owed again; the night of d2 is not.
    await sql`UPDATE equipment_repair SET status = 'repaired', repaired_at = ${at(d3, '07:00')}::timestamptz
               WHERE equipment_id = ${eq.id}`.execute(t.database.db);
    expect(await missedOf(checklist.id)).toEqual([`${d1} day`, `${d3} day`]);
  });

  it('a repair reported during the shift counts; one repaired before the shift, or of another machine, does not', async () => {
    const d1 = daysFrom(today(), -2);
    const d2 = daysFrom(today(), -1);
    const a = await machine();
    const b = await machine();
    await worked(a.eq.id, d1, 'day');
    await worked(a.eq.id, d2, 'day');
    await worked(b.eq.id, d2, 'day');
    // a: broke at 10:00 on d1, repaired at 06:00 on d2 — the day of d1 is left out, d2's owed.
    await repair(a.eq.id, at(d1, '10:00'), at(d2, '06:00'));
    // b: a repair long closed before d2.
    await repair(b.eq.id, at(d1, '08:30'), at(d1, '09:30'));
    expect(await missedOf(a.checklist.id)).toEqual([`${d2} day`]);
    expect(await missedOf(b.checklist.id)).toEqual([`${d2} day`]);

    // A 报修 closed without a repair (a false alarm) ends when it was closed.
    const c = await machine();
    await worked(c.eq.id, d1, 'night');
    const id = await repair(c.eq.id, at(d1, '19:00'));
    expect(await missedOf(c.checklist.id)).toEqual([]);
    await sql`UPDATE equipment_repair SET status = 'closed', updated_at = ${at(d1, '19:40')}::timestamptz
               WHERE id = ${id}`.execute(t.database.db);
    expect(await missedOf(c.checklist.id)).toEqual([`${d1} night`]);
  });
});
