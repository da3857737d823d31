import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { releasedTasks } from './shop-floor.ts';

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
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const get = (url: string, query: Record<string, unknown> = {}) => t.call('GET', url, { token, query });

/** A released order over turning (3 min/piece) and grinding (1 min/piece), dispatched into tasks. */
const tasks = (quantity: number) => releasedTasks(t, f, token, quantity);

describe('派工: machines of the task’s workshop, shift overload warned', () => {
  it('refuses a machine of another workshop with the field named', async () => {
    const { turning, grinding, turnTask } = await tasks(20);
    const own = await f.create('equipment', { workshopId: turning.id });
    const other = await f.create('equipment', { workshopId: grinding.id });
    const op = await t.userWith([], `dr-op-${Date.now()}`);
    const line = { operatorId: op.userId, workDate: '2026-12-02', shift: 'day', quantity: 5 };
    const r = await post(`/api/v1/workshop-task/dispatch/${turnTask}`, {
      lines: [{ ...line, equipmentId: other.id }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        field: 'lines.0.equipmentId',
        message: expect.stringContaining('不属于任务'),
      }),
    ]);
    ok(
      await post(`/api/v1/workshop-task/dispatch/${turnTask}`, { lines: [{ ...line, equipmentId: own.id }] }),
    );
  });

  it('answers the operator’s and the machine’s shift overload as warnings, the work kept', async () => {
    const { turning, turnTask } = await tasks(200);
    const m = await f.create('equipment', { workshopId: turning.id });
    const op = await t.userWith([], `dr-op2-${Date.now()}`);
    const base = { operatorId: op.userId, equipmentId: m.id, workDate: '2026-12-03', shift: 'day' };
    const first = ok(
      await post(`/api/v1/workshop-task/dispatch/${turnTask}`, { lines: [{ ...base, quantity: 100 }] }),
    );
    expect(first.warnings).toEqual([]); // 300 of 480
    const load = ok(
      await get(`/api/v1/workshop-task/load/${turnTask}`, {
        workDate: '2026-12-03',
        operatorIds: String(op.userId),
        equipmentIds: String(m.id),
      }),
    );
    expect(load.shiftMinutes).toBe(480);
    expect(load.list).toEqual(
      expect.arrayContaining([
        { kind: 'operator', id: op.userId, shift: 'day', minutes: '300' },
        { kind: 'equipment', id: m.id, shift: 'day', minutes: '300' },
      ]),
    );
    const second = ok(
      await post(`/api/v1/workshop-task/dispatch/${turnTask}`, { lines: [{ ...base, quantity: 70 }] }),
    ); // + 210 = 510
    expect(second.dispatches).toHaveLength(1);
    expect(second.warnings).toEqual([
      `设备 ${m.code} ${m.name} 2026-12-03 白班 负荷 510 分钟，超过班次 480 分钟`,
      expect.stringMatching(/^操作工 .* 2026-12-03 白班 负荷 510 分钟，超过班次 480 分钟$/),
    ]);
  });
});
