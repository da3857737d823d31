import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** 设备管理: 报修 lifecycle and 运行状况, 保养 due/overdue, 点检 NG → 报修, the equipment's care history. */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const act = (name: string, id: number, body: Record<string, unknown> = {}, as = token) =>
  t.call('POST', `/api/v1/equipment-repair/${name}/${id}`, { token: as, body });
const repairInfo = (id: number) => t.call('GET', `/api/v1/equipment-repair/info/${id}`, { token }).then(ok);
const equipmentInfo = (id: number) => t.call('GET', `/api/v1/equipment/info/${id}`, { token }).then(ok);
const report = (equipmentId: number, faultDescription = '主轴异响，加工表面振纹') =>
  t.call('POST', '/api/v1/equipment-repair/add', { token, body: { equipmentId, faultDescription } });
const today = () =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date()).slice(0, 10);
const daysFrom = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('报修', () => {
  it('runs 已报修 → 已派工 → 维修中 → 已修复 → 已确认, with 故障 while open and the downtime', async () => {
    const eq = await f.create('equipment');
    expect(eq.faultState).toBe('normal');
    const rep = ok(await report(eq.id));
    expect(rep).toMatchObject({ status: 'reported', docNo: expect.stringMatching(/^BX\d{8}-\d{4}$/) });
    expect(rep.reporterName).toBeTruthy();
    expect(rep.reportedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await equipmentInfo(eq.id)).faultState).toBe('fault');

    // 派工 needs a maintenance person, named in Chinese.
    const missing = await act('dispatch', rep.id);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('请选择维修人');
    expect(missing.body.errors?.[0].field).toBe('assigneeId');
    const fixer = await t.userWith(['factory:repair:list', 'factory:repair:start', 'factory:repair:finish']);
    expect(ok(await act('dispatch', rep.id, { assigneeId: fixer.userId })).status).toBe('dispatched');
    const dispatched = await repairInfo(rep.id);
    expect(dispatched.assigneeId).toBe(fixer.userId);
    expect(dispatched.dispatchedAt).toBeTruthy();
    const inbox = ok(await t.call('GET', '/api/v1/message/page', { token: fixer.token }));
    expect(inbox.list[0]).toMatchObject({ kind: 'repair', link: expect.stringContaining(`id=${rep.id}`) });

    // The maintenance person may start and finish, but not confirm.
    expect(ok(await act('start', rep.id, {}, fixer.token)).status).toBe('repairing');
    expect((await equipmentInfo(eq.id)).faultState).toBe('fault');
    const noContent = await act('finish', rep.id, { repairContent: '  ' }, fixer.token);
    expect(noContent.status).toBe(400);
    expect(noContent.body.message).toBe('请填写维修内容');
    // Reported two hours ago: the downtime runs from the report to the repair.
    await sql`UPDATE equipment_repair SET reported_at = now() - interval '2 hours' WHERE id = ${rep.id}`.execute(
      t.database.db,
    );
    expect(ok(await act('finish', rep.id, { repairContent: '更换主轴轴承' }, fixer.token)).status).toBe(
      'repaired',
    );
    const repaired = await repairInfo(rep.id);
    expect(repaired).toMatchObject({ repairContent: '更换主轴轴承', downtimeMinutes: 120 });
    expect((await equipmentInfo(eq.id)).faultState).toBe('normal');
    const denied = await act('confirm', rep.id, {}, fixer.token);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('403');

    expect(ok(await act('confirm', rep.id)).status).toBe('confirmed');
    const confirmed = await repairInfo(rep.id);
    expect(confirmed.confirmedByName).toBeTruthy();
    // Confirmed is final: no more transitions, no edit.
    const again = await act('close', rep.id, { reason: '误报' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('报修单当前为「已确认」，不能关闭');
    const edit = await t.call('PUT', `/api/v1/equipment-repair/edit/${rep.id}`, {
      token,
      body: { faultDescription: '改' },
    });
    expect(edit.status).toBe(409);
  });

  it('keeps 故障 while any repair of the equipment is open; closing needs a reason', async () => {
    const eq = await f.create('equipment');
    const a = ok(await report(eq.id, '液压站漏油'));
    const b = ok(await report(eq.id, '冷却泵不出水'));
    const noReason = await act('close', a.id);
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('请填写关闭原因');
    ok(await act('close', a.id, { reason: '与另一张报修单重复' }));
    expect((await equipmentInfo(eq.id)).faultState).toBe('fault');
    // Deleting the other (still 已报修) frees the equipment.
    ok(await t.call('DELETE', `/api/v1/equipment-repair/delete/${b.id}`, { token }));
    expect((await equipmentInfo(eq.id)).faultState).toBe('normal');
    expect((await repairInfo(a.id)).statusReason).toBe('与另一张报修单重复');
  });

  it('refuses bad input with 400 and a Chinese message, and users without the permission with 403', async () => {
    const empty = await t.call('POST', '/api/v1/equipment-repair/add', { token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors?.map((e: any) => e.field).sort()).toEqual(['equipmentId', 'faultDescription']);
    expect(empty.body.message).toMatch(/[\u4e00-\u9fff]/);
    const unknown = await report(2 ** 40);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('所选设备不存在或已被删除');
    const scrapped = await f.create('equipment', { status: 'scrapped' });
    const r = await report(scrapped.id);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('所选设备已报废，不能报修');
    const eq = await f.create('equipment');
    const rep = ok(await report(eq.id));
    const badUser = await act('dispatch', rep.id, { assigneeId: 'abc' });
    expect(badUser.status).toBe(400);
    expect(badUser.body.message).toMatch(/维修人/);
    const early = await act('finish', rep.id, { repairContent: '调整' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('报修单当前为「已报修」，不能维修完成');

    const reporter = await t.userWith(['factory:repair:list', 'factory:repair:add']);
    const mine = ok(
      await t.call('POST', '/api/v1/equipment-repair/add', {
        token: reporter.token,
        body: { equipmentId: eq.id, faultDescription: '尾座松动' },
      }),
    );
    expect(mine.reporterId).toBe(reporter.userId);
    const d = await act('dispatch', mine.id, { assigneeId: reporter.userId }, reporter.token);
    expect(d.status).toBe(403);
    expect(d.body.message).toBe('当前操作没有权限');
  });
});

describe('确认修复 by the reporter or the workshop head', () => {
  const confirmer = (name?: string) =>
    t.userWith(['factory:repair:list', 'factory:repair:add', 'factory:repair:confirm'], name);
  /** A confirmer who also holds the 车间主任 role (`workshop_head`). */
  const roleHead = async () => {
    const name = `wh${crypto.randomBytes(4).toString('hex')}`;
    const user = await confirmer(name);
    const db = t.database.db;
    const role =
      (await db.selectFrom('role').select('id').where('roleKey', '=', 'workshop_head').executeTakeFirst()) ??
      (await db
        .insertInto('role')
        .values({ roleName: '车间主任', roleKey: 'workshop_head' })
        .returning('id')
        .executeTakeFirstOrThrow());
    await db.insertInto('userRole').values({ userId: user.userId, roleId: role.id }).execute();
    return { ...user, token: await t.login(name, 'secret123') };
  };
  /** A repair reported by `as` and taken to 已修复 by the admin. */
  const repairedBy = async (equipmentId: number, as: string) => {
    const rep = ok(
      await t.call('POST', '/api/v1/equipment-repair/add', {
        token: as,
        body: { equipmentId, faultDescription: '液压卡盘夹不紧' },
      }),
    );
    const admin = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
    ok(await act('dispatch', rep.id, { assigneeId: admin }));
    ok(await act('start', rep.id));
    ok(await act('finish', rep.id, { repairContent: '更换卡盘油缸密封' }));
    return rep.id as number;
  };

  it("lets the reporter or the manager of the equipment's workshop confirm, and refuses others with 403", async () => {
    const manager = await confirmer();
    const workshop = await f.create('workshop', { managerId: manager.userId });
    const eq = await f.create('equipment', { workshopId: workshop.id });
    const reporter = await confirmer();
    const stranger = await confirmer();
    // A 车间主任 by role, but of another workshop: this workshop names its own head.
    const otherHead = await roleHead();

    const first = await repairedBy(eq.id, reporter.token);
    for (const as of [stranger.token, otherHead.token]) {
      const refused = await act('confirm', first, {}, as);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        '只有报修人或车间主任可以确认修复（报修人：测试用户，车间主任：测试用户）',
      );
    }
    expect((await repairInfo(first)).status).toBe('repaired');
    expect(ok(await act('confirm', first, {}, reporter.token)).status).toBe('confirmed');
    expect((await repairInfo(first)).confirmedById).toBe(reporter.userId);

    const second = await repairedBy(eq.id, reporter.token);
    expect(ok(await act('confirm', second, {}, manager.token)).status).toBe('confirmed');
    expect((await repairInfo(second)).confirmedById).toBe(manager.userId);
    // An admin may confirm any repair.
    const third = await repairedBy(eq.id, reporter.token);
    expect(ok(await act('confirm', third)).status).toBe('confirmed');
  });

  it('lets any 车间主任 confirm while the workshop names no active head', async () => {
    const eq = await f.create('equipment');
    const head = await roleHead();
    const stranger = await confirmer();

    const id = await repairedBy(eq.id, token);
    const refused = await act('confirm', id, {}, stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('只有报修人或车间主任可以确认修复（报修人：系统管理员）');
    expect(ok(await act('confirm', id, {}, head.token)).status).toBe('confirmed');
    expect((await repairInfo(id)).confirmedById).toBe(head.userId);

    // A workshop whose head has left (account disabled) is as one without.
    const gone = await confirmer();
    const workshop = await f.create('workshop', { managerId: gone.userId });
    await sql`UPDATE app_user SET status = '0' WHERE id = ${gone.userId}`.execute(t.database.db);
    const other = await f.create('equipment', { workshopId: workshop.id });
    const next = await repairedBy(other.id, token);
    expect(ok(await act('confirm', next, {}, head.token)).status).toBe('confirmed');
  });
});

describe('保养', () => {
  it('computes the next due date and overdue days, and a record advances the plan', async () => {
    const eq = await f.create('equipment');
    const day = today();
    const plan = ok(
      await t.call('POST', '/api/v1/maintenance-plan/add', {
        token,
        body: {
          code: `BY-${eq.id}`,
          name: '导轨润滑',
          equipmentId: eq.id,
          cycleDays: 7,
          startDate: daysFrom(day, -10),
          status: '1',
        },
      }),
    );
    expect(plan).toMatchObject({ nextDueDate: daysFrom(day, -10), lastDoneDate: null });
    const upcoming = ok(
      await t.call('POST', '/api/v1/maintenance-plan/add', {
        token,
        body: {
          code: `BY-${eq.id}-2`,
          name: '换液压油',
          equipmentId: eq.id,
          cycleDays: 90,
          startDate: daysFrom(day, 3),
        },
      }),
    );
    const due = ok(
      await t.call('GET', '/api/v1/maintenance-plan/due', {
        token,
        query: { equipmentId: eq.id, withinDays: 7 },
      }),
    );
    expect(due.today).toBe(day);
    expect(due.overdue).toBe(1);
    expect(due.list.map((x: any) => [x.planId, x.overdueDays, x.dueState])).toEqual([
      [plan.id, 10, 'overdue'],
      [upcoming.id, -3, 'upcoming'],
    ]);
    const narrow = ok(
      await t.call('GET', '/api/v1/maintenance-plan/due', {
        token,
        query: { equipmentId: eq.id, withinDays: 0 },
      }),
    );
    expect(narrow.list.map((x: any) => x.planId)).toEqual([plan.id]);

    // Done 2 days ago: next due in 5 days, no longer overdue; the equipment's 上次保养日期 follows.
    const rec = ok(
      await t.call('POST', '/api/v1/maintenance-record/add', {
        token,
        body: { planId: plan.id, doneDate: daysFrom(day, -2), minutes: 45, content: '清洁导轨并加注导轨油' },
      }),
    );
    expect(rec).toMatchObject({ equipmentId: eq.id, doneByName: expect.any(String), minutes: 45 });
    expect(rec.docNo).toBe(`BY${daysFrom(day, -2).replaceAll('-', '')}-${rec.docNo.slice(-4)}`);
    expect(ok(await t.call('GET', `/api/v1/maintenance-plan/info/${plan.id}`, { token }))).toMatchObject({
      lastDoneDate: daysFrom(day, -2),
      nextDueDate: daysFrom(day, 5),
    });
    expect((await equipmentInfo(eq.id)).lastMaintenanceDate).toBe(daysFrom(day, -2));
    const after = ok(
      await t.call('GET', '/api/v1/maintenance-plan/due', { token, query: { equipmentId: eq.id } }),
    );
    expect(after.overdue).toBe(0);
    expect(after.list.find((x: any) => x.planId === plan.id)).toMatchObject({ overdueDays: -5 });

    // Deleting the record puts the plan back to overdue.
    ok(await t.call('DELETE', `/api/v1/maintenance-record/delete/${rec.id}`, { token }));
    expect(
      ok(await t.call('GET', '/api/v1/maintenance-plan/due', { token, query: { equipmentId: eq.id } }))
        .overdue,
    ).toBe(1);

    const future = await t.call('POST', '/api/v1/maintenance-record/add', {
      token,
      body: { planId: plan.id, doneDate: daysFrom(day, 1), content: '提前登记' },
    });
    expect(future.status).toBe(400);
    expect(future.body.message).toBe('保养日期不能晚于今天');
    const bad = await t.call('GET', '/api/v1/maintenance-plan/due', { token, query: { withinDays: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/天数不能为负数/);
  });
});

describe('点检', () => {
  it('judges values against the limits, and opens a repair from an NG item in one step', async () => {
    const eq = await f.create('equipment');
    const checklist = ok(
      await t.call('POST', '/api/v1/inspection-checklist/add', {
        token,
        body: {
          code: `DJ-${eq.id}`,
          name: '数控车床日点检',
          equipmentId: eq.id,
          status: '1',
          items: [
            { itemName: '油位', valueType: 'okng', expected: '在刻度线之间' },
            { itemName: '主轴温度', valueType: 'value', lowerLimit: '10', upperLimit: '60', unit: '℃' },
          ],
        },
      }),
    );
    const noLimit = await t.call('POST', '/api/v1/inspection-checklist/add', {
      token,
      body: {
        code: `DJ-${eq.id}-x`,
        name: '无上下限',
        equipmentId: eq.id,
        items: [{ itemName: '电压', valueType: 'value' }],
      },
    });
    expect(noLimit.status).toBe(400);
    expect(noLimit.body.message).toBe('第 1 行「电压」是数值项，请填写下限或上限');

    const [oil, temp] = checklist.items;
    const body = (measured: string, shift = 'day') => ({
      checklistId: checklist.id,
      checkDate: today(),
      shift,
      items: [
        { checklistItemId: oil.id, itemName: oil.itemName, result: 'ok' },
        { checklistItemId: temp.id, itemName: temp.itemName, measuredValue: measured },
      ],
    });
    const incomplete = await t.call('POST', '/api/v1/inspection-record/add', {
      token,
      body: { ...body('30'), items: [body('30').items[0]] },
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.message).toBe('点检项目不完整，缺少：主轴温度');

    const good = ok(await t.call('POST', '/api/v1/inspection-record/add', { token, body: body('60') }));
    expect(good).toMatchObject({ result: 'ok', ngCount: 0, equipmentId: eq.id });
    expect(good.docNo).toMatch(new RegExp(`^DJ${today().replaceAll('-', '')}-\\d{4}$`));
    const dup = await t.call('POST', '/api/v1/inspection-record/add', { token, body: body('30') });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/已有点检记录/);

    const ng = ok(
      await t.call('POST', '/api/v1/inspection-record/add', { token, body: body('72.5', 'night') }),
    );
    expect(ng).toMatchObject({ result: 'ng', ngCount: 1 });
    expect(ng.items[1]).toMatchObject({ result: 'ng', expected: '10 ~ 60 ℃', valueType: 'value' });

    const okItem = await t.call('POST', `/api/v1/inspection-record/to-repair/${ng.id}`, {
      token,
      body: { itemId: ng.items[0].id },
    });
    expect(okItem.status).toBe(409);
    expect(okItem.body.message).toBe('「油位」点检合格，不需要报修');
    const made = ok(
      await t.call('POST', `/api/v1/inspection-record/to-repair/${ng.id}`, {
        token,
        body: { itemId: ng.items[1].id },
      }),
    );
    expect(made.docNo).toMatch(/^BX/);
    const rep = await repairInfo(made.id);
    expect(rep).toMatchObject({ status: 'reported', equipmentId: eq.id, inspectionRecordId: ng.id });
    expect(rep.faultDescription).toContain('主轴温度');
    expect(rep.faultDescription).toContain('实测 72.5');
    expect((await equipmentInfo(eq.id)).faultState).toBe('fault');
    const linked = ok(await t.call('GET', `/api/v1/inspection-record/info/${ng.id}`, { token }));
    expect(linked.items[1]).toMatchObject({ repairId: made.id, repairName: made.docNo });
    const twice = await t.call('POST', `/api/v1/inspection-record/to-repair/${ng.id}`, {
      token,
      body: { itemId: ng.items[1].id },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(`「主轴温度」已报修（${made.docNo}）`);
    // The record is now evidence of a repair: neither edited nor deleted.
    const del = await t.call('DELETE', `/api/v1/inspection-record/delete/${ng.id}`, { token });
    expect(del.status).toBe(409);

    const inspector = await t.userWith(['factory:inspection:list']);
    const refused = await t.call('POST', `/api/v1/inspection-record/to-repair/${ng.id}`, {
      token: inspector.token,
      body: { itemId: ng.items[1].id },
    });
    expect(refused.status).toBe(403);
    const badBody = await t.call('POST', `/api/v1/inspection-record/to-repair/${ng.id}`, { token, body: {} });
    expect(badBody.status).toBe(400);
    expect(badBody.body.message).toMatch(/点检项目/);
  });
});

describe('设备履历', () => {
  it('answers the repairs, maintenance, checks, MTBF and MTTR of one equipment', async () => {
    const eq = await f.create('equipment');
    const empty = ok(await t.call('GET', `/api/v1/equipment/care/${eq.id}`, { token }));
    expect(empty.stats).toMatchObject({ failures: 0, mtbfHours: null, mttrMinutes: null });
    // Two repairs: 60 and 180 minutes of downtime, plus one closed (not a failure).
    for (const minutes of [60, 180]) {
      const rep = ok(await report(eq.id));
      ok(await act('dispatch', rep.id, { assigneeId: rep.reporterId }));
      ok(await act('start', rep.id));
      await sql`UPDATE equipment_repair SET reported_at = now() - make_interval(mins => ${minutes}) WHERE id = ${rep.id}`.execute(
        t.database.db,
      );
      ok(await act('finish', rep.id, { repairContent: '修复' }));
    }
    const closed = ok(await report(eq.id));
    ok(await act('close', closed.id, { reason: '误报' }));
    const care = ok(await t.call('GET', `/api/v1/equipment/care/${eq.id}`, { token }));
    expect(care.faultState).toBe('normal');
    expect(care.repairs).toHaveLength(3);
    expect(care.stats).toMatchObject({
      failures: 2,
      repaired: 2,
      mttrMinutes: '120.0',
      downtimeMinutes: '240',
    });
    // The equipment was registered just now: the period is minutes long, less the 4 hours down → 0.
    expect(Number(care.stats.mtbfHours)).toBeGreaterThanOrEqual(0);
    const noEq = await t.call('GET', `/api/v1/equipment/care/${2 ** 40}`, { token });
    expect(noEq.status).toBe(404);
    const viewer = await t.userWith(['factory:repair:list']);
    expect((await t.call('GET', `/api/v1/equipment/care/${eq.id}`, { token: viewer.token })).status).toBe(
      403,
    );
  });
});
