import { INSPECTION_CATEGORIES, inspectionPaths, MENU_TREE, type MenuNode } from '@ringmes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRolePermissions } from '../src/seed/index.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The shipment-inspection path for the roles who walk it (issue 35), with 系统设置's gate on: the
 * keeper (仓管员) raises the 出货检验 of his 销售出库 draft and follows it there; the inspector
 * (质检员) reads the outbound he inspects, enters the results and passes the task; the keeper then
 * posts the outbound. Each role holds exactly its demo grant.
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
const call = (method: string, url: string, as: string, body?: unknown, query?: Record<string, unknown>) =>
  t.call(method, url, { token: as, body, query });
const demo = async (role: string) =>
  (await t.userWith(demoRolePermissions().get(role)?.permissions ?? [])).token;
const setGate = (on: boolean) =>
  call('PUT', '/api/v1/sysSetting/inspection', token, { shipmentInspectionRequired: on }).then(ok);

/** 20 bearings in stock, one measured and one OK/NG shipment item for them. */
async function bearings() {
  const wh = await f.create('warehouse-management', { type: 'finished', status: '1' });
  const m = await f.create('material-info');
  const inbound = ok(
    await call('POST', '/api/v1/stock-inbound/add', token, {
      type: 'other',
      warehouseId: wh.id,
      bizDate: '2026-11-05',
      lines: [{ materialId: m.id, quantity: 20 }],
    }),
  );
  ok(await call('POST', `/api/v1/stock-inbound/post/${inbound.id}`, token));
  const od = ok(
    await call('POST', '/api/v1/inspection-item/add', token, {
      code: `SD${m.id}`,
      name: '外径 D',
      kind: 'measure',
      nominal: '52',
      upperTolerance: '0',
      lowerTolerance: '-0.011',
      unit: 'mm',
      samplingMode: 'fixed',
      sampleSize: 2,
    }),
  );
  const look = ok(
    await call('POST', '/api/v1/inspection-item/add', token, {
      code: `SV${m.id}`,
      name: '外观与标识',
      kind: 'count',
      samplingMode: 'fixed',
      sampleSize: 2,
    }),
  );
  ok(
    await call('POST', '/api/v1/inspection-template/add', token, {
      code: `ST${m.id}`,
      name: '出货检验',
      productId: m.id,
      inspectionKind: 'shipment',
      items: [{ itemId: od.id }, { itemId: look.id }],
    }),
  );
  return { warehouseId: wh.id as number, materialId: m.id as number, customer: await f.create('customer') };
}

describe('出货检验 by the roles who do it, with the gate on', () => {
  it('仓管员 raises it from his 销售出库 draft, 质检员 reads the outbound, enters and passes it, 仓管员 posts', async () => {
    const b = await bearings();
    const keeper = await demo('warehouse');
    const inspector = await demo('quality');
    const out = ok(
      await call('POST', '/api/v1/stock-outbound/add', keeper, {
        type: 'sales',
        warehouseId: b.warehouseId,
        customerId: b.customer.id,
        bizDate: '2026-11-06',
        lines: [{ materialId: b.materialId, quantity: 10 }],
      }),
    );
    await setGate(true);
    try {
      const early = await call('POST', `/api/v1/stock-outbound/post/${out.id}`, keeper);
      expect(early.status).toBe(409);
      expect(early.body.message).toContain('还没有出货检验');

      // 生成出货检验 from the draft, by the keeper; he follows it on the outbound.
      const { ids } = ok(await call('POST', `/api/v1/inspection-task/for-outbound/${out.id}`, keeper));
      expect(ids).toHaveLength(1);
      const tasks = ok(await call('GET', `/api/v1/inspection-task/for-outbound/${out.id}`, keeper));
      expect(tasks).toEqual([
        expect.objectContaining({
          id: ids[0],
          status: 'pending',
          productId: b.materialId,
          lotQuantity: '10.0000',
        }),
      ]);
      // …but he does not inspect.
      expect((await call('POST', `/api/v1/inspection-task/start/${ids[0]}`, keeper)).status).toBe(403);

      // The inspector finds it in his list and reads the outbound it checks on the task itself;
      // the warehouse's documents stay the warehouse's (no 过账 for him).
      const page = ok(
        await call('GET', '/api/v1/inspection-task/page', inspector, undefined, { category: 'shipment' }),
      );
      expect(page.list.map((x: any) => x.id)).toContain(ids[0]);
      expect(ok(await call('GET', `/api/v1/inspection-task/outbound/${ids[0]}`, inspector))).toMatchObject({
        id: out.id,
        docNo: out.docNo,
        status: 'draft',
        customerName: b.customer.name,
        lines: [expect.objectContaining({ quantity: '10.0000', unitName: expect.any(String) })],
      });
      expect((await call('POST', `/api/v1/stock-outbound/post/${out.id}`, inspector)).status).toBe(403);
      // A task names its outbound only through 生成出货检验, never typed on the form.
      const typed = await call('POST', '/api/v1/inspection-task/add', inspector, {
        category: 'shipment',
        productId: b.materialId,
        lotQuantity: 10,
        stockOutboundId: out.id,
      });
      expect(typed.status).toBe(400);

      const task = ok(await call('GET', `/api/v1/inspection-task/info/${ids[0]}`, inspector));
      const [od, look] = task.items;
      ok(
        await call('PUT', `/api/v1/inspection-task/results/${task.id}`, inspector, {
          results: [
            { taskItemId: od.id, sampleNo: 1, value: '51.995' },
            { taskItemId: od.id, sampleNo: 2, value: '51.992' },
            { taskItemId: look.id, sampleNo: 1, ok: true },
            { taskItemId: look.id, sampleNo: 2, ok: true },
          ],
        }),
      );
      ok(await call('POST', `/api/v1/inspection-task/pass/${task.id}`, inspector));
      expect(
        ok(await call('GET', `/api/v1/inspection-task/for-outbound/${out.id}`, keeper))[0],
      ).toMatchObject({
        status: 'passed',
      });

      ok(await call('POST', `/api/v1/stock-outbound/post/${out.id}`, keeper));
    } finally {
      await setGate(false);
    }
  });

  it('the outbound’s tasks are read by who reads the outbound; the keeper raises them for 销售出库 only', async () => {
    const b = await bearings();
    const keeper = await demo('warehouse');
    const other = ok(
      await call('POST', '/api/v1/stock-outbound/add', token, {
        type: 'other',
        warehouseId: b.warehouseId,
        bizDate: '2026-11-06',
        lines: [{ materialId: b.materialId, quantity: 1 }],
      }),
    );
    const refused = await call('POST', `/api/v1/inspection-task/for-outbound/${other.id}`, keeper);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('不是销售出库');
    const finance = await demo('finance');
    expect((await call('POST', `/api/v1/inspection-task/for-outbound/${other.id}`, finance)).status).toBe(
      403,
    );
    expect((await call('GET', `/api/v1/inspection-task/for-outbound/${other.id}`, finance)).status).toBe(403);
  });

  it('every inspection category has its result-entry page in the menu (录入结果 leads somewhere)', () => {
    const paths = new Set<string>();
    const walk = (nodes: readonly MenuNode[]) => {
      for (const n of nodes) {
        if (n.path) paths.add(n.path);
        walk(n.children ?? []);
      }
    };
    walk(MENU_TREE);
    for (const c of INSPECTION_CATEGORIES) expect(paths, c.label).toContain(inspectionPaths(c).entry);
  });
});
