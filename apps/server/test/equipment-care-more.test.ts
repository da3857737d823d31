import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { stockInvariantViolations, stockWorld } from './stock-helpers.ts';

/**
 * 设备管理, second part: 报修照片, 保养 by running hours, 领用备件 (a posted 领料出库), 保养逾期 messages
 * once per due date, 漏点检 on the board, and the 故障 warning when work is dispatched.
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
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  crypto.randomBytes(64),
]);

async function upload(repairId: number, fileName: string, content: Buffer) {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/attachment/upload/equipment-repair/${repairId}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

/** A submitted work report on an equipment with hours on a day (the factory's report, then moved). */
async function workReport(equipmentId: number, day: string, hours: string, shift = 'day') {
  const r = await f.create('work-report');
  await sql`UPDATE work_report SET equipment_id = ${equipmentId}, report_date = ${day}, hours = ${hours},
              shift = ${shift}, status = 'submitted' WHERE id = ${r.id}`.execute(t.database.db);
  return r;
}

describe('报修照片', () => {
  it('takes images while the repair is open, refuses other files, and freezes once closed', async () => {
    const eq = await f.create('equipment');
    const rep = ok(
      await t.call('POST', '/api/v1/equipment-repair/add', {
        token,
        body: { equipmentId: eq.id, faultDescription: '液压站漏油' },
      }),
    );
    const photo = ok(await upload(rep.id, '漏油.png', PNG));
    expect(photo).toMatchObject({
      mimeType: 'image/png',
      ownerResource: 'equipment-repair',
      ownerId: rep.id,
    });
    const text = await upload(rep.id, 'note.txt', Buffer.from('hello'));
    expect(text.status).toBe(400);
    expect(text.body.message).toBe('报修照片只接受图片（JPG、PNG、GIF、WEBP）');
    const list = ok<any[]>(
      await t.call('GET', `/api/v1/attachment/list/equipment-repair/${rep.id}`, { token }),
    );
    expect(list.map((x) => x.fileName)).toEqual(['漏油.png']);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/download/${photo.id}?inline=true`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(/^inline/);

    ok(await t.call('POST', `/api/v1/equipment-repair/close/${rep.id}`, { token, body: { reason: '误报' } }));
    const late = await upload(rep.id, '补拍.png', PNG);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(`报修单 ${rep.docNo} 当前为「已关闭」，不能再增删照片`);
  });
});

describe('保养 by running hours and spare parts', () => {
  it('falls due on the day the work-report hours reach the cycle, and a record starts it again', async () => {
    const eq = await f.create('equipment');
    const start = daysFrom(today(), -10);
    const noHours = await t.call('POST', '/api/v1/maintenance-plan/add', {
      token,
      body: {
        code: `BH-${eq.id}-x`,
        name: '换液压油',
        equipmentId: eq.id,
        cycleType: 'hours',
        startDate: start,
      },
    });
    expect(noHours.status).toBe(400);
    expect(noHours.body.message).toBe('按运行小时保养，请填写周期(运行小时)');
    const plan = ok(
      await t.call('POST', '/api/v1/maintenance-plan/add', {
        token,
        body: {
          code: `BH-${eq.id}`,
          name: '换液压油',
          equipmentId: eq.id,
          cycleType: 'hours',
          cycleHours: '10',
          startDate: start,
        },
      }),
    );
    expect(plan.cycleDays).toBeNull();
    await workReport(eq.id, daysFrom(today(), -6), '6');
    const draft = await workReport(eq.id, daysFrom(today(), -5), '8');
    await sql`UPDATE work_report SET status = 'draft' WHERE id = ${draft.id}`.execute(t.database.db);
    const due = () =>
      t
        .call('GET', '/api/v1/maintenance-plan/due', { token, query: { equipmentId: eq.id } })
        .then(ok)
        .then((r: any) => r.list.find((x: any) => x.planId === plan.id));
    expect(await due()).toBeUndefined(); // 6 h of 10 (drafts do not count)
    await workReport(eq.id, daysFrom(today(), -3), '4.5');
    expect(await due()).toMatchObject({
      cycleType: 'hours',
      hoursSince: '10.50',
      nextDueDate: daysFrom(today(), -3),
      overdueDays: 3,
      dueState: 'overdue',
    });

    // 保养逾期: one message per plan and due date for each 设备员, however often the scan runs.
    // A 设备员: a user in the role with key `equipment` (the demo's eq01).
    const keeper = await t.userWith(['factory:maintenance:list']);
    await sql`UPDATE role SET role_key = 'equipment' WHERE id = ${keeper.roleId}
                AND NOT EXISTS (SELECT 1 FROM role WHERE role_key = 'equipment')`.execute(t.database.db);
    await sql`INSERT INTO user_role (user_id, role_id) SELECT ${keeper.userId}, id FROM role WHERE role_key = 'equipment'
              ON CONFLICT DO NOTHING`.execute(t.database.db);
    const eq01 = keeper.token;
    const sent = ok(await t.call('POST', '/api/v1/maintenance-plan/notify-overdue', { token }));
    expect(sent.sent).toBeGreaterThanOrEqual(1);
    const inbox = async () =>
      ok(
        await t.call('GET', '/api/v1/message/page', {
          token: eq01,
          query: { kind: 'maintenance', pageSize: 100 },
        }),
      ).list.filter((m: any) => m.link === `/factory-info/equipment-manage/maintenance-detail?id=${plan.id}`);
    expect(await inbox()).toHaveLength(1);
    ok(await t.call('POST', '/api/v1/maintenance-plan/notify-overdue', { token }));
    expect(await inbox()).toHaveLength(1);

    // The record resets the count: only hours after its day count.
    const rec = ok(
      await t.call('POST', '/api/v1/maintenance-record/add', {
        token,
        body: { planId: plan.id, doneDate: daysFrom(today(), -2), content: '更换液压油 40L', minutes: 90 },
      }),
    );
    expect(await due()).toBeUndefined();
    const info = ok(await t.call('GET', `/api/v1/maintenance-plan/info/${plan.id}`, { token }));
    expect(info).toMatchObject({
      hoursSince: '0.00',
      nextDueDate: null,
      lastDoneDate: daysFrom(today(), -2),
    });

    // 领用备件: a posted 领料出库 of the spare parts, linked from the record, once.
    const w = await stockWorld(t, f, token);
    const oil = await w.material({ name: '液压油' });
    const inb = await w.inbound([{ materialId: oil.id, quantity: '100' }]);
    expect((await w.post('stock-inbound', inb.id)).status).toBe(200);
    const tooMuch = await t.call('POST', `/api/v1/maintenance-record/spare-parts/${rec.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [{ materialId: oil.id, quantity: '1000' }] },
    });
    expect(tooMuch.status).toBeGreaterThanOrEqual(400);
    expect(tooMuch.status).toBeLessThan(500);
    expect(tooMuch.body.message).toMatch(/[\u4e00-\u9fff]/);
    const issued = ok(
      await t.call('POST', `/api/v1/maintenance-record/spare-parts/${rec.id}`, {
        token,
        body: { warehouseId: w.warehouseId, lines: [{ materialId: oil.id, quantity: '40' }] },
      }),
    );
    expect(issued.outbound).toMatchObject({ type: 'requisition', status: 'posted', sourceNo: rec.docNo });
    expect(await w.balance(oil.id)).toBe(60);
    const linked = ok(await t.call('GET', `/api/v1/maintenance-record/info/${rec.id}`, { token }));
    expect(linked.outboundId).toBe(issued.outbound.id);
    const again = await t.call('POST', `/api/v1/maintenance-record/spare-parts/${rec.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [{ materialId: oil.id, quantity: '1' }] },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`保养记录 ${rec.docNo} 已领用备件（${issued.outbound.docNo}）`);
    expect(await w.balance(oil.id)).toBe(60);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });
});

describe('漏点检 and 故障 on dispatch', () => {
  it('lists a worked shift without its check until the check is recorded, on the board too', async () => {
    const eq = await f.create('equipment');
    const checklist = ok(
      await t.call('POST', '/api/v1/inspection-checklist/add', {
        token,
        body: {
          code: `LJ-${eq.id}`,
          name: '漏检测试点检表',
          equipmentId: eq.id,
          items: [{ itemName: '油位', valueType: 'okng' }],
        },
      }),
    );
    const day = daysFrom(today(), -1);
    await workReport(eq.id, day, '7', 'night');
    const missed = async () =>
      ok(await t.call('GET', '/api/v1/inspection-record/missed', { token })).list.filter(
        (x: any) => x.checklistId === checklist.id,
      );
    expect(await missed()).toEqual([
      expect.objectContaining({ checkDate: day, shift: 'night', shiftLabel: '夜班', equipmentId: eq.id }),
    ]);
    const board = ok(await t.call('GET', '/api/v1/dashboard/snapshot', { token, query: { scope: 'whole' } }));
    expect(board.missedChecks.list.length).toBeGreaterThan(0);
    ok(
      await t.call('POST', '/api/v1/inspection-record/add', {
        token,
        body: {
          checklistId: checklist.id,
          checkDate: day,
          shift: 'night',
          items: [{ checklistItemId: checklist.items[0].id, itemName: '油位', result: 'ok' }],
        },
      }),
    );
    expect(await missed()).toEqual([]);
  });

  it('dispatches work to an equipment with an open repair, with a 故障 warning', async () => {
    const card = await f.create('flow-card');
    const task = ok(
      await t.call('GET', `/api/v1/workshop-task/page?productionOrderId=${card.productionOrderId}`, {
        token,
      }),
    ).list[0];
    const eq = await f.create('equipment', { workshopId: task.workshopId });
    const rep = ok(
      await t.call('POST', '/api/v1/equipment-repair/add', {
        token,
        body: { equipmentId: eq.id, faultDescription: '主轴卡死' },
      }),
    );
    const admin = await t.database.db
      .selectFrom('appUser')
      .select('id')
      .where('userName', '=', 'admin')
      .executeTakeFirstOrThrow();
    const r = ok(
      await t.call('POST', `/api/v1/workshop-task/dispatch/${task.id}`, {
        token,
        body: {
          lines: [{ operatorId: admin.id, equipmentId: eq.id, quantity: 1, workDate: today(), shift: 'day' }],
        },
      }),
    );
    expect(r.dispatches).toHaveLength(1);
    expect(r.warnings).toEqual([
      `设备 ${eq.code} ${eq.name} 故障（报修单 ${rep.docNo} 未修复），派工后请确认能否按时生产`,
    ]);
  });
});
