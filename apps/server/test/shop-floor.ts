import { expect } from 'vitest';
import type { Factory } from './factories.ts';
import type { TestApp } from './helpers.ts';

type Row = Record<string, any>;

/** What a test reads of its shop floor. */
export interface ShopFloor {
  /** The product and its one BOM material. */
  P: Row;
  S: Row;
  /** 车加工 (10, 0.15 a piece) and 磨加工 (20, 0.2 a piece, flagged for inspection). */
  turn: Row;
  grind: Row;
  turning: Row;
  grinding: Row;
  order: Row;
  /** The one flow card of the whole quantity. */
  card: number;
  turnTask: number;
  grindTask: number;
  /** The started dispatches of the turning and the grinding task, in that order. */
  dispatches: number[];
  op: Awaited<ReturnType<TestApp['userWith']>>;
}

/**
 * A bearing made over turning (10, 0.15 a piece) and grinding (20, 0.2, flagged for inspection),
 * ordered for `quantity`, released, split into tasks, one flow card of heat `heatNo`, both tasks
 * dispatched to one operator (holding `operatorPermissions`) and started: the set-up of the
 * work-report, wage and inspection tests; `inspection` gives the grinding step its 报工检验 template.
 */
export async function shopFloor(
  t: TestApp,
  f: Factory,
  token: string,
  {
    quantity = 100,
    heatNo = 'H2611',
    operatorPermissions = ['production:lathingOperatorTask:list', 'production:lathingOperatorTask:report'],
    inspection,
  }: {
    quantity?: number;
    heatNo?: string;
    operatorPermissions?: string[];
    /**
     * The grinding step's 报工检验 template: 内径 d (20 −0.010/0, `boreSamples` a report) and,
     * with `look`, the OK/NG item 外观 (2 a report).
     */
    inspection?: { boreSamples: number; look?: boolean };
  } = {},
): Promise<ShopFloor> {
  const ok = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.result;
  };
  const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body }).then(ok);
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const turn = await f.create('process-manage', { pieceRate: '0.15' });
  const grind = await f.create('process-manage', { pieceRate: '0.2' });
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '2' },
      {
        seq: 20,
        processId: grind.id,
        workshopId: grinding.id,
        standardMinutes: '1',
        inspectionRequired: true,
      },
    ],
  });
  const parts = { P, S, turn, grind, turning, grinding };
  if (inspection) {
    const bore = await post('/api/v1/inspection-item/add', {
      code: `D${P.id}`,
      name: '内径 d',
      kind: 'measure',
      nominal: '20',
      upperTolerance: '0',
      lowerTolerance: '-0.010',
      unit: 'mm',
      instrument: '内径千分表',
      samplingMode: 'fixed',
      sampleSize: inspection.boreSamples,
    });
    const items = [{ itemId: bore.id }];
    if (inspection.look) {
      const look = await post('/api/v1/inspection-item/add', {
        code: `V${P.id}`,
        name: '外观',
        kind: 'count',
        samplingMode: 'fixed',
        sampleSize: 2,
      });
      items.push({ itemId: look.id });
    }
    await post('/api/v1/inspection-template/add', {
      code: `T${P.id}`,
      name: '磨内径报工检验',
      productId: P.id,
      processId: grind.id,
      inspectionKind: 'reporting',
      items,
    });
  }
  const order = await post('/api/v1/production-order/add', {
    productId: P.id,
    quantity,
    plannedStartDate: '2026-11-02',
    dueDate: '2026-11-09',
  });
  await post(`/api/v1/production-order/release/${order.id}`);
  const { tasks } = await post(`/api/v1/production-order/dispatch/${order.id}`);
  const { cards } = await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: quantity, heatNo });
  const op = await t.userWith(operatorPermissions);
  const dispatches: number[] = [];
  for (const task of tasks) {
    const { dispatches: made } = await post(`/api/v1/workshop-task/dispatch/${task.id}`, {
      lines: [{ operatorId: op.userId, quantity, workDate: '2026-11-03', shift: 'day' }],
    });
    await post(`/api/v1/work-dispatch/start/${made[0].id}`);
    dispatches.push(made[0].id);
  }
  return {
    ...parts,
    order,
    card: cards[0].id as number,
    turnTask: tasks[0].id,
    grindTask: tasks[1].id,
    dispatches,
    op,
  };
}

/**
 * A released order of `quantity` over turning (3 min a piece) and grinding (1 min a piece),
 * planned 2026-12-01 to 12-09 and split into workshop tasks, none dispatched yet: the set-up of the
 * dispatch and scheduling tests.
 */
export async function releasedTasks(t: TestApp, f: Factory, token: string, quantity: number) {
  const post = (url: string, body: unknown = {}) =>
    t.call('POST', url, { token, body }).then((r) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.result;
    });
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const [p1, p2] = [await f.create('process-manage'), await f.create('process-manage')];
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: p1.id, workshopId: turning.id, standardMinutes: '3' },
      { seq: 20, processId: p2.id, workshopId: grinding.id, standardMinutes: '1' },
    ],
  });
  const order = await post('/api/v1/production-order/add', {
    productId: P.id,
    quantity,
    plannedStartDate: '2026-12-01',
    dueDate: '2026-12-09',
  });
  await post(`/api/v1/production-order/release/${order.id}`);
  const made = await post(`/api/v1/production-order/dispatch/${order.id}`);
  return { turning, grinding, turnTask: made.tasks[0].id as number, grindTask: made.tasks[1].id as number };
}
