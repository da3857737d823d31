import { describe, expect, it } from 'vitest';
import { MENU_TREE } from './menu/menu-tree.ts';
import { allPermissions, flattenMenu } from './menu/menu-utils.ts';
import { RESOURCES, resourceByName } from './registry.ts';
import {
  allowedScope,
  allScopePrefixes,
  docTypesOf,
  type FieldDef,
  filterFieldsOf,
  isConfidential,
  keywordFields,
  keywordHint,
  lineFilters,
  mayAct,
  optionFieldNames,
  permissionsFor,
  refLabelKey,
  scopePrefixes,
} from './resource/types.ts';
import { DOC_PREFIX_REGEX, docPrefixClash } from './system/doc-numbering.ts';

const permissions = new Set(allPermissions(MENU_TREE));
const pagePaths = new Set(
  flattenMenu(MENU_TREE)
    .filter((n) => n.type === '2' && !n.hidden)
    .map((n) => n.path),
);
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const AUDIT = ['id', 'createdBy', 'createdAt', 'updatedBy', 'updatedAt', 'version'];

/** Every field of a resource with where it sits, headers and lines alike. */
const allFields = RESOURCES.flatMap((def) => [
  ...def.fields.map((f) => ({ def, where: def.name, f })),
  ...(def.lines ?? []).flatMap((l) => l.fields.map((f) => ({ def, where: `${def.name}.${l.name}`, f }))),
]);

describe('scoped permissions', () => {
  const inbound = resourceByName('stock-inbound')!;
  const holds =
    (...granted: string[]) =>
    (p: string) =>
      granted.includes(p);

  it('the resource-wide permission allows every kind; a kind permission its own kind only', () => {
    expect(mayAct(holds('warehouse:inbound:post'), inbound, 'post', 'other')).toBe(true);
    const keeper = holds('warehouse:purchaseInbound:post');
    expect(mayAct(keeper, inbound, 'post', 'purchase')).toBe(true);
    expect(mayAct(keeper, inbound, 'post', 'other')).toBe(false);
    expect(mayAct(keeper, inbound, 'post', undefined)).toBe(false);
    expect(mayAct(keeper, inbound, 'reverse', 'purchase')).toBe(false);
    expect(allowedScope(keeper, inbound, 'post')).toEqual(['purchase']);
    expect(allowedScope(holds('warehouse:inbound:post'), inbound, 'post')).toBeNull();
    expect(allowedScope(holds(), inbound, 'post')).toEqual([]);
    expect(permissionsFor(inbound, 'add')).toContain('warehouse:salesReturnInbound:add');
  });
});

describe('resource registry', () => {
  it.each(RESOURCES.filter((d) => d.scopedPermissions).map((d) => [d.name, d] as const))(
    '%s: each scoped permission covers one value of its field and has the menu buttons of the resource',
    (_, def) => {
      const scope = def.scopedPermissions!;
      const field = def.fields.find((f) => f.name === scope.field);
      expect(field?.kind).toBe('enum');
      const values = (field?.options ?? []).map((o: any) => String(o.value));
      expect(Object.keys(scope.prefixes).sort()).toEqual(values.sort());
      const actions = [...permissions]
        .filter((p) => p.startsWith(`${def.permission}:`))
        .map((p) => p.slice(def.permission.length + 1))
        .filter((a) => a !== 'import');
      if (!actions.length) {
        // Granted per kind only (a workshop's screens): every kind is listed through its own page.
        for (const value of Object.keys(scope.prefixes)) {
          expect(
            scopePrefixes(def, value).some((p) => permissions.has(`${p}:list`)),
            value,
          ).toBe(true);
        }
        return;
      }
      // The kind page's prefix has every button of the resource; another module's view of the
      // kind (采购退货) some of them, and nothing the resource does not have.
      for (const value of Object.keys(scope.prefixes)) {
        const [own, ...views] = scopePrefixes(def, value);
        for (const action of actions) expect(permissions, `${own}:${action}`).toContain(`${own}:${action}`);
        for (const view of views) {
          const granted = [...permissions].filter((p) => p.startsWith(`${view}:`));
          expect(granted.length, view).toBeGreaterThan(0);
          for (const p of granted) expect(actions, p).toContain(p.slice(view.length + 1));
        }
      }
    },
  );

  it('registers each name once and finds it by name', () => {
    const names = RESOURCES.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const def of RESOURCES) expect(resourceByName(def.name)).toBe(def);
    expect(resourceByName('no-such-resource')).toBeUndefined();
  });

  it('gives each resource its own table, and line tables do not collide with any table', () => {
    const tables = RESOURCES.flatMap((d) => [d.table, ...(d.lines ?? []).map((l) => l.table)]);
    expect(new Set(tables).size).toBe(tables.length);
    for (const t of tables) expect(t).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it.each(RESOURCES.map((d) => [d.name, d] as const))(
    '%s: list permission and route are in the menu',
    (_, def) => {
      // A resource granted per kind only (a workshop's tasks) is listed on each kind's page.
      const lists = [def.permission, ...(def.scopedPermissions ? allScopePrefixes(def) : [])].map(
        (p) => `${p}:list`,
      );
      expect(
        lists.some((p) => permissions.has(p)),
        `${def.permission}:list`,
      ).toBe(true);
      if (def.route) expect(pagePaths, def.route).toContain(def.route);
    },
  );

  it('gives every resource with a page of its own the add, edit and delete buttons', () => {
    for (const def of RESOURCES.filter((d) => d.route && !d.readonlyApi)) {
      for (const action of ['add', 'edit', 'delete'])
        expect(
          permissionsFor(def, action).some((p) => permissions.has(p)),
          `${def.name} ${action}`,
        ).toBe(true);
    }
  });

  it('declares option fields that exist and are never confidential', () => {
    for (const def of RESOURCES) {
      for (const name of optionFieldNames(def)) {
        const f = def.fields.find((x) => x.name === name);
        expect(f, `${def.name}.${name}`).toBeDefined();
        expect(isConfidential(f as FieldDef), `${def.name}.${name}`).toBe(false);
      }
    }
  });

  it('searches the big masters on the server as the user types', () => {
    const remote = RESOURCES.filter((d) => d.options?.remote).map((d) => d.name);
    expect(remote.sort()).toEqual([
      'customer',
      'equipment',
      'inspection-task',
      'material-info',
      'outsourcing-order',
      'production-order',
      'purchase-order',
      'purchase-requisition',
      'sale-order',
      'stock-up-order',
      'supplier',
      'work-dispatch',
      'workshop-task',
    ]);
  });

  it('gives a list page to at most one resource', () => {
    const routes = RESOURCES.flatMap((d) => (d.route ? [d.route] : []));
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('points every ref and refs at a registered resource, at user or at dept', () => {
    for (const { where, f } of allFields.filter(({ f }) => f.kind === 'ref' || f.kind === 'refs')) {
      expect(f.ref, `${where}.${f.name}`).toBeDefined();
      if (f.ref !== 'user' && f.ref !== 'dept')
        expect(resourceByName(f.ref as string), `${where}.${f.name} → ${f.ref}`).toBeDefined();
      expect(f.name, `${where}.${f.name}`).toMatch(f.kind === 'ref' ? /Id$/ : /Ids$/);
    }
  });

  it('uses unique camelCase field names that do not shadow the audit columns', () => {
    for (const def of RESOURCES) {
      // Line fields must not shadow the columns the kit maintains on line tables either.
      const groups: [string, FieldDef[], string[]][] = [
        [def.name, def.fields, AUDIT],
        ...(def.lines ?? []).map(
          (l) =>
            [
              `${def.name}.${l.name}`,
              l.fields,
              ['id', 'lineNo', l.parentColumn.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())],
            ] as [string, FieldDef[], string[]],
        ),
      ];
      for (const [where, fields, reserved] of groups) {
        const names = fields.map((f) => f.name);
        expect(new Set(names).size, where).toBe(names.length);
        for (const n of names) {
          expect(n, where).toMatch(CAMEL);
          expect(reserved, `${where}.${n}`).not.toContain(n);
        }
        // A reference's label key must not collide with a declared field.
        for (const f of fields.filter((x) => x.kind === 'ref' || x.kind === 'refs'))
          expect(names, `${where}.${f.name}`).not.toContain(refLabelKey(f));
      }
      // Line filters share the query string with the header's fields and filters.
      const filters = filterFieldsOf(def).map((f) => f.name);
      expect(new Set(filters).size, `${def.name} filters`).toBe(filters.length);
      for (const { field } of lineFilters(def))
        expect(
          def.fields.map((f) => f.name),
          `${def.name} line filter ${field.name}`,
        ).not.toContain(field.name);
      const lineNames = (def.lines ?? []).map((l) => l.name);
      for (const n of lineNames)
        expect(
          def.fields.map((f) => f.name),
          `${def.name} line ${n}`,
        ).not.toContain(n);
    }
  });

  it('gives every enum options, and enum defaults are among them', () => {
    for (const { where, f } of allFields.filter(({ f }) => f.kind === 'enum')) {
      expect(f.options?.length, `${where}.${f.name}`).toBeGreaterThan(0);
      const values = (f.options ?? []).map((o) => o.value);
      expect(new Set(values).size).toBe(values.length);
      for (const v of values) expect(v.length, `${where}.${f.name}=${v}`).toBeLessThanOrEqual(20);
      if (f.default !== undefined) expect(values, `${where}.${f.name}`).toContain(f.default);
    }
  });

  it('has a Chinese label on every resource, line and field', () => {
    const chinese = /[\u4e00-\u9fff]/;
    for (const def of RESOURCES) {
      expect(def.label).toMatch(chinese);
      for (const l of def.lines ?? []) expect(l.label).toMatch(chinese);
    }
    for (const { where, f } of allFields) expect(f.label, `${where}.${f.name}`).toMatch(chinese);
  });

  it('declares the special fields it names', () => {
    for (const def of RESOURCES) {
      const byName = new Map(def.fields.map((f) => [f.name, f]));
      const label = def.labelField ?? 'name';
      expect(byName.has(label), `${def.name}.labelField ${label}`).toBe(true);
      if (def.codeField) expect(byName.has(def.codeField)).toBe(true);
      if (def.activeField) {
        const f = byName.get(def.activeField.name);
        expect(f?.kind, `${def.name}.activeField`).toBe('enum');
        expect(f?.options?.map((o) => o.value)).toContain(String(def.activeField.value));
      }
      if (def.parentField) {
        const f = byName.get(def.parentField);
        expect(f?.kind).toBe('ref');
        expect(f?.ref).toBe(def.name);
      }
      if (def.defaultSort) {
        const f = byName.get(def.defaultSort.field);
        expect(f?.sortable || f?.unique, `${def.name}.defaultSort ${def.defaultSort.field}`).toBe(true);
      }
    }
  });

  it('marks every code unique and keeps text lengths within reason', () => {
    for (const def of RESOURCES) {
      const code = def.fields.find((f) => f.name === (def.codeField ?? 'code'));
      if (code) expect(code.unique, def.name).toBe(true);
    }
    for (const { where, f } of allFields.filter(({ f }) => f.kind === 'text'))
      expect(f.max ?? 100, `${where}.${f.name}`).toBeLessThanOrEqual(500);
  });

  it('uses the spec paths where spec §7 fixes them', () => {
    expect(resourceByName('supplier')?.api?.edit).toEqual({ method: 'PUT', path: 'update' });
    expect(resourceByName('material-template')?.api).toEqual({
      page: 'pageList',
      edit: { method: 'POST', path: 'edit' },
      delete: { method: 'POST', path: 'delete' },
    });
    expect(resourceByName('customer')?.activeField).toEqual({ name: 'state', value: '1' });
  });
});

describe('keyword box', () => {
  it('names what it searches in words of two characters at least (报工单号, not 「号」)', () => {
    for (const def of RESOURCES.filter((d) => keywordFields(d).length)) {
      for (const part of keywordHint(def).split('/'))
        expect(part.length, `${def.name}: ${keywordHint(def)}`).toBeGreaterThanOrEqual(2);
    }
    expect(keywordHint(resourceByName('work-report')!)).toBe('报工单号');
    expect(keywordHint(resourceByName('material-info')!)).toMatch(/编码/);
  });
});

describe('document numbering', () => {
  const docNoOf = (def: (typeof RESOURCES)[number]) => def.fields.find((f) => f.name === 'docNo');
  it.each(RESOURCES.filter((d) => docNoOf(d) || d.numbering).map((d) => [d.name, d] as const))(
    '%s: a resource with a docNo field declares its numbering (else 单据编号 cannot set its prefix)',
    (_, def) => {
      expect(def.numbering, `${def.name}: declare numbering: { prefix }`).toBeDefined();
      expect(docNoOf(def), `${def.name}: numbering without a docNo field`).toBeDefined();
      // The number's example in the field's help uses the declared prefix.
      const example = docNoOf(def)?.help?.match(/如 ([A-Z][A-Z0-9]*)\d{8}-\d{4}/);
      if (example) expect(example[1]).toBe(def.numbering?.prefix);
      // The date a number is dated by is a required business date of the header.
      const dateField = def.numbering?.dateField;
      if (dateField) {
        const f = def.fields.find((x) => x.name === dateField);
        expect(f?.kind, `${def.name}: numbering.dateField ${dateField}`).toBe('date');
        expect(f?.required, `${def.name}: numbering.dateField ${dateField}`).toBe(true);
      }
    },
  );

  it('prefixes and type names are unique, valid, and none is another followed by digits', () => {
    const types = docTypesOf(RESOURCES);
    expect(new Set(types.map((t) => t.defaultPrefix)).size).toBe(types.length);
    expect(new Set(types.map((t) => t.docType)).size).toBe(types.length);
    for (const t of types) {
      expect(t.defaultPrefix).toMatch(DOC_PREFIX_REGEX);
      for (const o of types)
        if (o !== t)
          expect(docPrefixClash(t.defaultPrefix, { docType: o.docType, prefix: o.defaultPrefix })).toBeNull();
    }
  });

  it('numbers the same types with the same default prefixes as before (they name the counters)', () => {
    expect(Object.fromEntries(docTypesOf(RESOURCES).map((t) => [t.defaultPrefix, t.docType]))).toEqual({
      XS: '销售订单',
      BH: '备货单',
      QG: '请购单',
      SC: '生产订单',
      PG: '派工单',
      BG: '报工单',
      LZ: '流转卡',
      JS: '技术文档',
      JY: '检验单',
      CG: '采购订单',
      WW: '委外订单',
      YS: '应收单',
      SK: '收款单',
      TK: '退款单',
      YF: '应付单',
      FK: '付款单',
      ST: '供应商退款单',
      BX: '报修单',
      BY: '保养记录',
      DJ: '点检记录',
      RK: '入库单',
      CK: '出库单',
      DB: '调拨单',
      PD: '盘点单',
    });
  });
});
