import {
  editableLines,
  type FieldDef,
  type LineDef,
  RESOURCES,
  type ResourceDef,
  resourceByName,
} from '@ringmes/domain';
import type { TestApp } from './helpers.ts';

let counter = 0;
const next = () => ++counter;

/** A value that satisfies a text field's pattern and length. */
function textFor(f: FieldDef, n: number): string {
  const candidates = [
    `T${n}x${Date.now() % 100000}`,
    `13800${String(n).padStart(6, '0')}`,
    `user${n}@example.com`,
    `A${n}`,
    `测试${f.label}${n}`,
  ];
  const re = f.pattern ? new RegExp(f.pattern.regex) : undefined;
  const max = f.max ?? 100;
  for (const c of candidates) {
    const v = c.slice(0, max);
    if ((!re || re.test(v)) && v.length >= (f.min ?? 0)) return v;
  }
  throw new Error(`no test value for ${f.name} (${f.pattern?.regex})`);
}

function numberFor(f: FieldDef): string {
  const min = f.min ?? 0;
  const v = Math.max(min, 1);
  return String(f.max !== undefined && v > f.max ? f.max : v);
}

/**
 * Resources whose valid body depends on another record's lines: the fields they need given the
 * overrides (a check record answers every item of its checklist).
 */
const RECIPES: Record<
  string,
  (
    api: Factory,
    t: TestApp,
    token: string,
    overrides: Record<string, unknown>,
  ) => Promise<Record<string, any>>
> = {
  // A receipt / payment settles an approved item of its own customer / supplier.
  receipt: (api, t, token, o) => settlementRecipe('receivable', 'customerId', api, t, token, o),
  payment: (api, t, token, o) => settlementRecipe('payable', 'supplierId', api, t, token, o),
  // A technical document belongs to a product or a process (at least one).
  async 'technical-document'(api, _t, _token, o) {
    return o.materialId || o.processId ? {} : { materialId: (await api.create('material-info')).id };
  },
  /**
   * Test units take what every quantity column keeps (4 places) unless a test says otherwise: the
   * declared default (0, a counted unit) would make each test's fractional kg a unit-precision test.
   */
  async 'material-unit'(_api, _t, _token, o) {
    return { precision: o.precision ?? 4 };
  },
  /** 保养计划: by days unless told otherwise (the cycle that goes with 周期类型 is required). */
  async 'maintenance-plan'(_api, _t, _token, o) {
    return o.cycleType === 'hours' || o.cycleDays != null ? {} : { cycleDays: 30 };
  },
  /** A report of a started dispatch on a card of the same order (a task made by 派单, a card by 开卡). */
  async 'work-report'(api, t, token, o) {
    const call = async (method: string, url: string, body?: unknown) => {
      const r = await t.call(method, url, { token, body });
      if (r.status !== 200) throw new Error(`${url} failed: ${JSON.stringify(r.body)}`);
      return r.body.result;
    };
    const card = await api.create('flow-card');
    const task = (await call('GET', `/api/v1/workshop-task/page?productionOrderId=${card.productionOrderId}`))
      .list[0];
    const admin = await t.database.db
      .selectFrom('appUser')
      .select('id')
      .where('userName', '=', 'admin')
      .executeTakeFirstOrThrow();
    const { dispatches } = await call('POST', `/api/v1/workshop-task/dispatch/${task.id}`, {
      lines: [{ operatorId: admin.id, quantity: 10, workDate: '2026-11-03', shift: 'day' }],
    });
    await call('POST', `/api/v1/work-dispatch/start/${dispatches[0].id}`, {});
    return {
      dispatchId: dispatches[0].id,
      flowCardId: card.id,
      goodQuantity: o.goodQuantity ?? '1',
      workScrapQuantity: o.workScrapQuantity ?? '0',
      materialScrapQuantity: o.materialScrapQuantity ?? '0',
      reworkQuantity: o.reworkQuantity ?? '0',
      scrapReason: o.scrapReason ?? null,
    };
  },
  /** A customer's tightening of 6204 P6 (Δdmp 0/−8 by the standard) to 0/−5. */
  async 'ring-standard-override'(api, _t, _token, o) {
    const materialId =
      o.materialId ??
      (
        await api.create('material-info', {
          toleranceClass: 'P6',
          boreDiameter: '20',
          outsideDiameter: '47',
          bearingWidth: '14',
          diameterSeries: '2',
        })
      ).id;
    return {
      materialId,
      characteristic: o.characteristic ?? 'dmp',
      upperLimit: o.upperLimit ?? '0',
      lowerLimit: o.lowerLimit ?? '-5',
    };
  },
  // 计量 items need their nominal size and tolerances; sampling its size or GB/T 2828.1 level and AQL.
  async 'inspection-item'() {
    return {
      nominal: '20',
      upperTolerance: '0',
      lowerTolerance: '-0.010',
      sampleSize: 5,
      inspectionLevel: 'II',
      aql: '1.0',
    };
  },
  /**
   * A shipment inspection made by hand, with a template of one item (one of a 销售出库 comes from
   * its 生成出货检验: `POST inspection-task/for-outbound/{id}`).
   */
  async 'inspection-task'(api, _t, _token, o) {
    const item = await api.create('inspection-item');
    const template = await api.create('inspection-template', { items: [{ itemId: item.id }] });
    return { category: o.category ?? 'shipment', templateId: o.templateId ?? template.id };
  },
  async 'inspection-record'(api, t, token, o) {
    const checklist = o.checklistId
      ? (await t.call('GET', `/api/v1/inspection-checklist/info/${o.checklistId}`, { token })).body.result
      : await api.create('inspection-checklist');
    return {
      checklistId: checklist.id,
      // Given items (a round trip's) keep their values but answer this checklist's items.
      items: checklist.items.map((i: any, k: number) => ({
        result: 'ok',
        ...(i.valueType === 'value' ? { measuredValue: String(i.lowerLimit ?? i.upperLimit) } : {}),
        ...((o.items as Record<string, unknown>[] | undefined)?.[k] ?? {}),
        checklistItemId: i.id,
        itemName: i.itemName,
      })),
    };
  },
};

export interface Factory {
  /** Creates a valid record of a resource through the API (parents created as needed); answers the stored record. */
  create(name: string, overrides?: Record<string, unknown>): Promise<Record<string, any>>;
  /** A valid body with every required field (and lines) filled. */
  body(def: ResourceDef, overrides?: Record<string, unknown>): Promise<Record<string, any>>;
  /** Valid items of one line list (at least one, each with its required fields). */
  lines(line: LineDef): Promise<Record<string, any>[]>;
}

export function factory(t: TestApp, token: () => Promise<string>): Factory {
  async function valueFor(f: FieldDef, def?: ResourceDef): Promise<unknown> {
    const n = next();
    switch (f.kind) {
      case 'text':
      case 'textarea':
        return textFor(f, n);
      case 'int':
        return Number(numberFor(f));
      case 'decimal':
      case 'quantity':
      case 'money':
      case 'price':
        return numberFor(f);
      case 'date':
        return '2026-11-22';
      case 'datetime':
        return '2026-11-22 08:30:00';
      case 'boolean':
        return true;
      case 'enum': {
        if (def?.activeField?.name === f.name) return String(def.activeField.value);
        if (f.default !== undefined && f.default !== null) return String(f.default);
        return f.options?.[0].value;
      }
      case 'ref':
      case 'refs': {
        const id =
          f.ref === 'user'
            ? (await t.call('GET', '/api/v1/sso/getUserByToken', { token: await token() })).body.result.userId
            : (await api.create(f.ref as string)).id;
        return f.kind === 'ref' ? id : [id];
      }
      case 'json':
        return {};
    }
  }

  async function lineBody(line: LineDef): Promise<Record<string, any>[]> {
    const count = Math.max(line.min ?? 0, 1);
    const out: Record<string, any>[] = [];
    for (let i = 0; i < count; i++) {
      const item: Record<string, any> = {};
      // Prices too: a document line may need one to be saved (a sales order without a sale price).
      // Filtered fields too, so the list filters have something to find (a requisition's supplier).
      for (const f of line.fields)
        if (f.required || (!f.readonly && (f.kind === 'price' || f.filter))) item[f.name] = await valueFor(f);
      out.push(item);
    }
    return out;
  }

  const api: Factory = {
    lines: lineBody,
    async body(def, overrides = {}) {
      const b: Record<string, any> = {};
      for (const f of def.fields) {
        if (f.readonly || f.name in overrides) continue;
        if (
          f.required ||
          f.unique ||
          f.name === def.activeField?.name ||
          (f.name === 'status' && f.kind === 'enum')
        )
          b[f.name] = await valueFor(f, def);
      }
      // Lines that filter their header are filled too, so the filter has something to find.
      for (const l of editableLines(def))
        if (!(l.name in overrides) && ((l.min ?? 0) > 0 || l.fields.some((f) => f.filter)))
          b[l.name] = await lineBody(l);
      const recipe = RECIPES[def.name];
      return { ...b, ...overrides, ...(recipe ? await recipe(api, t, await token(), overrides) : {}) };
    },
    async create(name, overrides = {}) {
      if (name === 'workshop-task') return workshopTask(overrides);
      if (name === 'flow-card') return flowCard();
      const def = resourceByName(name);
      if (!def) throw new Error(`unknown resource ${name}`);
      const body = await api.body(def, overrides);
      const r = await t.call('POST', `/api/v1/${def.name}/add`, { token: await token(), body });
      if (r.status !== 200)
        throw new Error(`create ${name} failed: ${JSON.stringify(r.body)} for ${JSON.stringify(body)}`);
      return r.body.result;
    },
  };

  /**
   * Workshop tasks are made by 派单, never added: a product routed through one turning step,
   * ordered, released and dispatched; answers the task (in `overrides.workshopType`'s workshop).
   */
  async function workshopTask(overrides: Record<string, unknown>) {
    const call = async (method: string, url: string, body?: unknown) => {
      const r = await t.call(method, url, { token: await token(), body });
      if (r.status !== 200) throw new Error(`${url} failed: ${JSON.stringify(r.body)}`);
      return r.body.result;
    };
    const workshop = await api.create('workshop', { type: overrides.workshopType ?? 'machine' });
    const product = await api.create('material-info');
    const part = await api.create('material-info');
    await api.create('product-bom', {
      productId: product.id,
      status: 'active',
      lines: [{ materialId: part.id, quantity: 1, unitId: part.unitId }],
    });
    const process = await api.create('process-manage');
    await api.create('process-route', {
      productId: product.id,
      status: 'active',
      steps: [{ seq: 10, processId: process.id, workshopId: workshop.id, standardMinutes: '2' }],
    });
    const order = await call('POST', '/api/v1/production-order/add', {
      productId: product.id,
      quantity: 1000,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-20',
    });
    await call('POST', `/api/v1/production-order/release/${order.id}`, {});
    const { tasks } = await call('POST', `/api/v1/production-order/dispatch/${order.id}`, {});
    return call('GET', `/api/v1/workshop-task/info/${tasks[0].id}`);
  }

  /** Flow cards are made by 开卡, never added: one card of a released order (a product routed like a task's). */
  async function flowCard() {
    const call = async (method: string, url: string, body?: unknown) => {
      const r = await t.call(method, url, { token: await token(), body });
      if (r.status !== 200) throw new Error(`${url} failed: ${JSON.stringify(r.body)}`);
      return r.body.result;
    };
    const task = await workshopTask({});
    const { cards } = await call('POST', `/api/v1/flow-card/open/${task.productionOrderId}`, {
      batchSize: 1000,
      heatNo: `L${Date.now().toString(36)}`,
    });
    return call('GET', `/api/v1/flow-card/info/${cards[0].id}`);
  }
  return api;
}

export { RESOURCES };

/** An approved 应收单 / 应付单 of the settlement's party, settled by 1.00 on the settlement's line. */
async function settlementRecipe(
  item: 'receivable' | 'payable',
  partyField: 'customerId' | 'supplierId',
  api: Factory,
  t: TestApp,
  token: string,
  o: Record<string, unknown>,
) {
  const partyId =
    (o[partyField] as number | undefined) ??
    (await api.create(item === 'receivable' ? 'customer' : 'supplier')).id;
  const made = await api.create(item, { [partyField]: partyId, amount: '100' });
  const r = await t.call('POST', `/api/v1/${item}/approve/${made.id}`, { token, body: {} });
  if (r.status !== 200) throw new Error(`approve ${item} failed: ${JSON.stringify(r.body)}`);
  return { [partyField]: partyId, lines: [{ [`${item}Id`]: made.id, amount: '1' }] };
}
