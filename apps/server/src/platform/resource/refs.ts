import { columnOf, type FieldDef, RESOURCES, type ResourceDef, resourceByName } from '@ringmes/domain';

/** Where a reference points: table, label column, and the "active" condition for new references. */
export interface RefTarget {
  table: string;
  label: string;
  code?: string;
  active?: { column: string; value: string | number };
  resource?: ResourceDef;
  title: string;
}

const USER: RefTarget = {
  table: 'app_user',
  label: 'first_name',
  code: 'user_name',
  active: { column: 'status', value: '1' },
  title: '用户',
};

export function activeOf(def: ResourceDef): RefTarget['active'] {
  if (def.activeField) return { column: columnOf(def.activeField.name), value: def.activeField.value };
  if (
    def.fields.some(
      (f) => f.name === 'status' && f.kind === 'enum' && f.options?.some((o) => o.value === '1'),
    )
  ) {
    return { column: 'status', value: '1' };
  }
  return undefined;
}

export function targetOfResource(def: ResourceDef): RefTarget {
  const code = def.codeField ?? (def.fields.some((f) => f.name === 'code') ? 'code' : undefined);
  return {
    table: def.table,
    label: columnOf(def.labelField ?? 'name'),
    code: code ? columnOf(code) : undefined,
    active: activeOf(def),
    resource: def,
    title: def.label,
  };
}

const DEPT: RefTarget = {
  table: 'dept',
  label: 'dept_name',
  active: { column: 'status', value: '1' },
  title: '部门',
};

export function refTarget(f: FieldDef): RefTarget {
  if (f.ref === 'user') return USER;
  if (f.ref === 'dept') return DEPT;
  const def = f.ref ? resourceByName(f.ref) : undefined;
  if (!def) throw new Error(`字段 ${f.name} 引用了未登记的资源 ${f.ref}`);
  return targetOfResource(def);
}

/** Every `refs` (id array) field in the registry that points at a resource: arrays have no foreign keys. */
export function arrayReferencesTo(name: string): { table: string; column: string; label: string }[] {
  const out: { table: string; column: string; label: string }[] = [];
  for (const def of RESOURCES) {
    for (const f of def.fields)
      if (f.kind === 'refs' && f.ref === name)
        out.push({ table: def.table, column: columnOf(f.name), label: def.label });
    for (const l of def.lines ?? []) {
      for (const f of l.fields)
        if (f.kind === 'refs' && f.ref === name)
          out.push({ table: l.table, column: columnOf(f.name), label: def.label });
    }
  }
  return out;
}

/** The Chinese name of whatever owns a table, for "该记录已被「…」引用" messages. */
export function labelOfTable(table: string | undefined): string | undefined {
  if (!table) return undefined;
  for (const def of RESOURCES) {
    if (def.table === table) return def.label;
    for (const l of def.lines ?? []) if (l.table === table) return joinLabels(def.label, l.label);
  }
  return undefined;
}

/** 产品BOM + BOM明细 → 产品BOM明细; 销售订单 + 订单明细 → 销售订单明细; 入库单 + 明细 → 入库单明细. */
export function joinLabels(head: string, line: string): string {
  for (let n = Math.min(head.length, line.length); n > 0; n--) {
    if (head.endsWith(line.slice(0, n))) return head + line.slice(n);
  }
  return head + line;
}
