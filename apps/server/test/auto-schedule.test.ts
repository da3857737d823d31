import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

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
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, query: Record<string, unknown> = {}, as = token) =>
  t.call('GET', url, { token: as, query });

const day = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('自动排产: the plant model from the database, a checked proposal, 发布 as 派工单', () => {
  it('plans released orders over turning → heat treatment (委外) → grinding, explains a late one and publishes', async () => {
    const turning = await f.create('workshop', { type: 'machine' });
    const grinding = await f.create('workshop', { type: 'grinding' });
    const lathe1 = await f.create('equipment', { workshopId: turning.id });
    const lathe2 = await f.create('equipment', { workshopId: turning.id });
    const grinder = await f.create('equipment', { workshopId: grinding.id });
    const op = await t.userWith(['production:lathingOperatorTask:list'], `as-op-${Date.now()}`);
    await f.create('production-team', { workshopId: turning.id, memberIds: [op.userId] });
    await f.create('production-team', { workshopId: grinding.id, memberIds: [op.userId] });
    const P = await f.create('material-info');
    const S = await f.create('material-info');
    await f.create('product-bom', {
      productId: P.id,
      status: 'active',
      lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
    });
    const turn = await f.create('process-manage');
    const heat = await f.create('process-manage', { outsourced: true });
    const grind = await f.create('process-manage');
    await f.create('process-route', {
      productId: P.id,
      status: 'active',
      steps: [
        { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '2' },
        { seq: 20, processId: heat.id, standardMinutes: '0', outsourced: true },
        { seq: 30, processId: grind.id, workshopId: grinding.id, standardMinutes: '1' },
      ],
    });
    // Three orders: two roomy, one due tomorrow (its 300 minutes of grinding after 2 days of heat
    // treatment cannot make it).
    const orders: string[] = [];
    for (const [quantity, due, priority] of [
      [200, day(10), 'normal'],
      [300, day(1), 'urgent'],
      [150, day(12), 'low'],
    ] as const) {
      const o = ok(
        await post('/api/v1/production-order/add', {
          productId: P.id,
          quantity,
          plannedStartDate: day(0),
          dueDate: due,
          priority,
        }),
      );
      ok(await post(`/api/v1/production-order/release/${o.id}`));
      ok(await post(`/api/v1/production-order/dispatch/${o.id}`));
      orders.push(o.docNo);
    }

    const bad = await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 100 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('62');

    const run = ok(
      await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 14, timeLimitSeconds: 0.5 }),
    );
    expect(run.violations).toEqual([]);
    expect(run.orders).toBeGreaterThanOrEqual(3);
    const mine = run.lines.filter((l: any) => orders.includes(l.orderNo));
    // Turning of each order on one of the lathes, grinding on the grinder, in whole shifts.
    expect(mine.filter((l: any) => l.equipmentId === grinder.id).length).toBeGreaterThanOrEqual(3);
    expect(mine.every((l: any) => [lathe1.id, lathe2.id, grinder.id].includes(l.equipmentId))).toBe(true);
    for (const o of orders) {
      const turnQty = mine
        .filter((l: any) => l.orderNo === o && l.equipmentId !== grinder.id)
        .reduce((s: number, l: any) => s + Number(l.quantity), 0);
      expect([200, 300, 150]).toContain(turnQty);
    }
    // Grinding starts after heat treatment (2 days) is back.
    const turnEnd = Math.max(
      ...mine
        .filter((l: any) => l.orderNo === orders[1] && l.equipmentId !== grinder.id)
        .map((l: any) => l.end),
    );
    const grindStart = Math.min(
      ...mine
        .filter((l: any) => l.orderNo === orders[1] && l.equipmentId === grinder.id)
        .map((l: any) => l.start),
    );
    expect(grindStart).toBeGreaterThanOrEqual(turnEnd + 2 * 1440);
    // The urgent order due tomorrow is late and says where it waited.
    const late = run.proposal.late.find((l: any) => l.orderNo === orders[1]);
    expect(late).toBeTruthy();
    expect(late.explanation).toMatch(/工序「.*」在设备/);
    expect(run.proposal.lateOrders).toBeGreaterThanOrEqual(1);
    expect(run.baseline).toHaveProperty('lateOrders');
    expect(run.proposal.machineLoads.length).toBeGreaterThan(0);

    // 发布: the lines become 派工单 through 派工, on the operator's sheet.
    const pub = ok(
      await post('/api/v1/work-dispatch/auto-schedule/publish', {
        lines: mine.map((l: any) => ({
          taskId: l.taskId,
          equipmentId: l.equipmentId,
          operatorId: l.operatorId,
          workDate: l.workDate,
          shift: l.shift,
          quantity: l.quantity,
        })),
      }),
    );
    expect(pub.dispatches).toHaveLength(mine.length);
    const sheet = ok(await get('/api/v1/work-dispatch/mine', { workshopType: 'machine' }, op.token));
    const onSheet = new Set(sheet.list.map((x: any) => x.docNo));
    const turningLines = mine.filter((l: any) => l.equipmentId !== grinder.id).length;
    expect(pub.dispatches.filter((d: any) => onSheet.has(d.docNo))).toHaveLength(turningLines);

    // Published dispatches are locked: a second run plans nothing more for these orders.
    const again = ok(
      await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 14, timeLimitSeconds: 0.2 }),
    );
    expect(again.lines.filter((l: any) => orders.includes(l.orderNo))).toEqual([]);
    expect(again.lockedDispatches).toBeGreaterThanOrEqual(mine.length);
    expect(again.violations).toEqual([]);

    // Over-dispatch is refused by 派工's own rule, in Chinese, and nothing is written.
    const over = await post('/api/v1/work-dispatch/auto-schedule/publish', {
      lines: [{ ...mine[0], quantity: '9999', orderNo: undefined }].map((l: any) => ({
        taskId: l.taskId,
        equipmentId: l.equipmentId,
        operatorId: l.operatorId,
        workDate: l.workDate,
        shift: l.shift,
        quantity: l.quantity,
      })),
    });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('超出任务可派工数量');
  }, 180_000);

  it('needs the plan permission; a planner of no workshop is refused', async () => {
    const u = await t.userWith([], `as-none-${Date.now()}`);
    const r = await post('/api/v1/work-dispatch/auto-schedule', {}, u.token);
    expect(r.status).toBe(403);
    const p = await post('/api/v1/work-dispatch/auto-schedule/publish', { lines: [] }, u.token);
    expect([400, 403]).toContain(p.status);
  });
});

const put = (url: string, body: unknown = {}, as = token) => t.call('PUT', url, { token: as, body });
const run = async (body: Record<string, unknown> = {}) => {
  const r = ok(
    await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 14, timeLimitSeconds: 0.5, ...body }),
  );
  expect(r.violations).toEqual([]);
  return r;
};
const publishLines = (lines: any[]) =>
  post('/api/v1/work-dispatch/auto-schedule/publish', {
    lines: lines.map((l) => ({
      taskId: l.taskId,
      equipmentId: l.equipmentId,
      operatorId: l.operatorId,
      workDate: l.workDate,
      shift: l.shift,
      quantity: l.quantity,
    })),
  });
const sum = (lines: any[], field = 'quantity') => lines.reduce((s, l) => s + Number(l[field]), 0);

/** A shop of its own: `lathes` lathes in a turning workshop and a grinder, products turned (1 min) then ground (0.5 min). */
async function shop(lathes = 2) {
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const lathe = [];
  for (let i = 0; i < lathes; i++) lathe.push(await f.create('equipment', { workshopId: turning.id }));
  const grinder = await f.create('equipment', { workshopId: grinding.id });
  const op = await t.userWith(['production:lathingOperatorTask:list']);
  await f.create('production-team', { workshopId: turning.id, memberIds: [op.userId] });
  await f.create('production-team', { workshopId: grinding.id, memberIds: [op.userId] });
  const turn = await f.create('process-manage');
  const grind = await f.create('process-manage');
  const product = async () => {
    const P = await f.create('material-info');
    const S = await f.create('material-info');
    await f.create('product-bom', {
      productId: P.id,
      status: 'active',
      lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
    });
    await f.create('process-route', {
      productId: P.id,
      status: 'active',
      steps: [
        { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' },
        { seq: 20, processId: grind.id, workshopId: grinding.id, standardMinutes: '0.5' },
      ],
    });
    return P;
  };
  const order = async (P: any, quantity: number, due = day(20)) => {
    const o = ok(
      await post('/api/v1/production-order/add', {
        productId: P.id,
        quantity,
        plannedStartDate: day(0),
        dueDate: due,
      }),
    );
    ok(await post(`/api/v1/production-order/release/${o.id}`));
    const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${o.id}`));
    return { ...o, tasks: tasks as any[] };
  };
  return { turning, grinding, lathe, grinder, op, turn, grind, product, order };
}

describe('自动排产 plans with the planner’s data: machines, changeovers, calendars, flow cards, pins', () => {
  it('runs a step only on the machines that can do it, at their speed factor (排产参数 › 设备)', async () => {
    const s = await shop(2);
    const [l1, l2] = s.lathe;
    // L1 cannot turn (it only grinds); L2 turns twice as fast as the standard.
    ok(
      await put(`/api/v1/work-dispatch/auto-schedule/machine/${l1.id}`, {
        speedFactor: null,
        processIds: [s.grind.id],
      }),
    );
    ok(await put(`/api/v1/work-dispatch/auto-schedule/machine/${l2.id}`, { speedFactor: 2, processIds: [] }));
    const settings = ok(await get('/api/v1/work-dispatch/auto-schedule/settings'));
    expect(settings.machines.find((m: any) => m.equipmentId === l1.id)).toMatchObject({
      processIds: [s.grind.id],
    });
    expect(settings.machines.find((m: any) => m.equipmentId === l2.id)).toMatchObject({ speedFactor: 2 });
    const bad = await put(`/api/v1/work-dispatch/auto-schedule/machine/${l2.id}`, {
      speedFactor: 0,
      processIds: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('速度系数');
    const gone = await put(`/api/v1/work-dispatch/auto-schedule/machine/${l2.id}`, {
      speedFactor: 1,
      processIds: [987654321],
    });
    expect(gone.status).toBe(400);
    expect(gone.body.message).toContain('工序不存在');

    const P = await s.product();
    const o = await s.order(P, 200);
    const r = await run();
    const turning = r.lines.filter((l: any) => l.orderNo === o.docNo && l.workshopType === 'machine');
    expect(turning.length).toBeGreaterThan(0);
    expect(turning.every((l: any) => l.equipmentId === l2.id)).toBe(true);
    // 200 standard minutes at speed 2 plus the 30-minute setup.
    expect(sum(turning, 'minutes')).toBe(130);
    expect(sum(turning)).toBe(200);
  }, 120_000);

  it('leaves a machine in 故障 (open 报修单) out until its repair is closed', async () => {
    const s = await shop(2);
    const [l1, l2] = s.lathe;
    const repair = ok(
      await post('/api/v1/equipment-repair/add', {
        equipmentId: l1.id,
        faultDescription: '主轴异响，停机检查',
      }),
    );
    const P = await s.product();
    const o = await s.order(P, 300);
    const r = await run();
    const turning = r.lines.filter((l: any) => l.orderNo === o.docNo && l.workshopType === 'machine');
    expect(sum(turning)).toBe(300);
    expect(turning.every((l: any) => l.equipmentId === l2.id)).toBe(true);
    expect(r.down).toContain(`${l1.code} ${l1.name}`);
    // A pin onto the faulted lathe is not kept.
    const bar = r.bars.find(
      (b: any) => b.orderNo === o.docNo && b.kind === 'machine' && b.workshopType === 'machine',
    );
    const pinned = await run({
      pins: [
        { lotId: bar.lotId, stepId: bar.stepId, equipmentId: l1.id, workDate: bar.workDate, shift: 'day' },
      ],
    });
    expect(pinned.pinsIgnored).toBe(1);
    // 误报 closed: the lathe is back, and the same pin holds.
    ok(await post(`/api/v1/equipment-repair/close/${repair.id}`, { reason: '误报' }));
    const back = await run({
      pins: [
        { lotId: bar.lotId, stepId: bar.stepId, equipmentId: l1.id, workDate: bar.workDate, shift: 'day' },
      ],
    });
    expect(back.down).not.toContain(`${l1.code} ${l1.name}`);
    expect(back).toMatchObject({ pins: 1, pinsIgnored: 0 });
    expect(back.bars.find((b: any) => b.key === bar.key)).toMatchObject({ equipmentId: l1.id, pinned: true });
  }, 120_000);

  it('sets up by changeover family and step (排产参数 › 换型族, 换型时间)', async () => {
    const s = await shop(1);
    const [P, Q, Z] = [await s.product(), await s.product(), await s.product()];
    ok(await put(`/api/v1/work-dispatch/auto-schedule/family/${P.id}`, { family: '6205 外圈' }));
    ok(await put(`/api/v1/work-dispatch/auto-schedule/family/${Q.id}`, { family: '6205 外圈' }));
    const dup = await put('/api/v1/work-dispatch/auto-schedule/setups', {
      setups: [
        { processId: s.turn.id, family: '', setupMinutes: 90 },
        { processId: s.turn.id, family: '', setupMinutes: 10 },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('重复');
    ok(
      await put('/api/v1/work-dispatch/auto-schedule/setups', {
        setups: [
          { processId: s.turn.id, family: '6205 外圈', setupMinutes: 45 },
          { processId: s.turn.id, family: '', setupMinutes: 90 },
        ],
      }),
    );
    const settings = ok(await get('/api/v1/work-dispatch/auto-schedule/settings'));
    expect(settings.families.find((x: any) => x.materialId === P.id)?.family).toBe('6205 外圈');
    expect(settings.setups.filter((x: any) => x.processId === s.turn.id)).toHaveLength(2);

    const orders = [await s.order(P, 60), await s.order(Z, 60), await s.order(Q, 60)];
    const r = await run({ seed: 7 });
    const bar = (o: any) =>
      r.bars.find((b: any) => b.orderNo === o.docNo && b.kind === 'machine' && b.workshopType === 'machine');
    const [p, z, q] = orders.map(bar);
    // P and Q share a family: one setup of 45 between them (the other follows without); Z's own 90.
    expect([p.setup, q.setup].sort((a: number, b: number) => a - b)).toEqual([0, 45]);
    expect(z.setup).toBe(90);
    expect(r.proposal.changeovers).toBeLessThanOrEqual(r.baseline.changeovers);
    // A family cleared: the product is its own family again.
    ok(await put(`/api/v1/work-dispatch/auto-schedule/family/${Q.id}`, { family: null }));
    const again = ok(await get('/api/v1/work-dispatch/auto-schedule/settings'));
    expect(again.families.find((x: any) => x.materialId === Q.id)?.family ?? null).toBeNull();
  }, 120_000);

  it('plans flow cards (流转卡) as lots, counts what is dispatched for the cards furthest along, keeps pins, publishes the whole plant', async () => {
    const s = await shop(2);
    const P = await s.product();
    const o = await s.order(P, 300);
    const { cards } = ok(await post(`/api/v1/flow-card/open/${o.id}`, { batchSize: 100 }));
    expect(cards).toHaveLength(3);
    const r = await run();
    const mine = r.bars.filter((b: any) => b.orderNo === o.docNo && b.kind === 'machine');
    // Three lots (the cards), each turned and ground.
    expect(new Set(mine.map((b: any) => b.cardNo))).toEqual(new Set(cards.map((c: any) => c.docNo)));
    expect(mine).toHaveLength(6);
    const turnLines = r.lines.filter((l: any) => l.orderNo === o.docNo && l.workshopType === 'machine');
    expect(sum(turnLines)).toBe(300);

    // 100 of turning dispatched by hand: they count for the first card; the other two are planned.
    const turnTask = ok(
      await get('/api/v1/workshop-task/page', { productionOrderId: o.id, workshopType: 'machine' }),
    ).list[0];
    ok(
      await post(`/api/v1/workshop-task/dispatch/${turnTask.id}`, {
        lines: [
          {
            operatorId: s.op.userId,
            equipmentId: s.lathe[0].id,
            quantity: 100,
            workDate: day(0),
            shift: 'day',
          },
        ],
      }),
    );
    const r2 = await run();
    const turns = r2.bars.filter(
      (b: any) => b.orderNo === o.docNo && b.kind === 'machine' && b.workshopType === 'machine',
    );
    expect(turns.map((b: any) => b.cardNo).sort()).toEqual([cards[1].docNo, cards[2].docNo].sort());
    expect(sum(r2.lines.filter((l: any) => l.orderNo === o.docNo && l.workshopType === 'machine'))).toBe(200);

    // The planner drags one card's turning to the other lathe, four days on (a pin): it stays there.
    const target = turns[0];
    const other = s.lathe.find((m: any) => m.id !== target.equipmentId)!;
    let n = 4;
    while (new Date(`${day(n)}T00:00:00Z`).getUTCDay() === 0) n++; // the default calendar rests on Sundays
    const pin = {
      lotId: target.lotId,
      stepId: target.stepId,
      equipmentId: other.id,
      workDate: day(n),
      shift: 'day',
    };
    const r3 = await run({ pins: [pin, { ...pin, lotId: 'C999999' }] });
    expect(r3).toMatchObject({ pins: 1, pinsMoved: 0, pinsIgnored: 1 });
    const moved = r3.bars.find((b: any) => b.key === target.key);
    expect(moved).toMatchObject({ equipmentId: other.id, workDate: day(n), shift: 'day', pinned: true });
    // The grinding of that card comes after it.
    const ground = r3.bars.find((b: any) => b.lotId === target.lotId && b.workshopType === 'grinding');
    expect(ground.start).toBeGreaterThanOrEqual(moved.end);

    // 发布 the whole plant's proposal: turning and grinding, the pinned step where it was put.
    const plant = r3.lines.filter((l: any) => l.orderNo === o.docNo);
    expect(new Set(plant.map((l: any) => l.workshopType))).toEqual(new Set(['machine', 'grinding']));
    const pub = ok(await publishLines(plant));
    expect(pub.dispatches).toHaveLength(plant.length);
    const made = ok(await get('/api/v1/work-dispatch/page', { productionOrderId: o.id, pageSize: 100 }));
    expect(
      made.list.some(
        (d: any) =>
          d.equipmentId === other.id &&
          d.workDate === day(n) &&
          d.shift === 'day' &&
          d.taskId === turnTask.id,
      ),
    ).toBe(true);
    expect(sum(made.list.filter((d: any) => d.taskId === turnTask.id))).toBe(300);
  }, 180_000);

  it('works the workshop’s 班次日历 and not on the factory’s 生产日历 holidays', async () => {
    const s = await shop(1);
    // One early shift of four hours, every day; the factory rests the day after tomorrow.
    ok(
      await put(`/api/v1/oee/calendar/${s.turning.id}`, {
        shifts: [{ code: 'A', name: '早班', start: '06:00', end: '10:00', breaks: [] }],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        holidays: [],
        workdays: [],
      }),
    );
    const before = ok(await get('/api/v1/sysSetting/planning'));
    ok(
      await put('/api/v1/sysSetting/planning', {
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        holidays: [day(2)],
        workdays: [],
      }),
    );
    try {
      const P = await s.product();
      const o = await s.order(P, 600);
      const r = await run();
      const turning = r.lines.filter((l: any) => l.orderNo === o.docNo && l.workshopType === 'machine');
      expect(sum(turning)).toBe(600);
      expect(turning.some((l: any) => l.workDate === day(2))).toBe(false);
      for (const l of turning) {
        expect(l.shift).toBe('day');
        expect(l.start % 1440).toBeGreaterThanOrEqual(360);
        expect(((l.end - 1) % 1440) + 1).toBeLessThanOrEqual(600);
        expect(l.minutes).toBeLessThanOrEqual(240);
      }
      // 630 minutes (600 and the setup) in four-hour shifts: three working days at least, the holiday skipped.
      expect(new Set(turning.map((l: any) => l.workDate)).size).toBeGreaterThanOrEqual(3);
    } finally {
      ok(await put('/api/v1/sysSetting/planning', before));
    }
  }, 120_000);
});
