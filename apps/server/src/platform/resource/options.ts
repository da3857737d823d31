import {
  columnOf,
  type FieldDef,
  fieldOf,
  optionFieldNames,
  optionsNeedRead,
  type ResourceDef,
} from '@ringmes/domain';
import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import { contains } from '../db/like.ts';
import type { App } from '../http/route.ts';
import { type Permission, route } from '../http/route.ts';
import { zx } from '../http/validation.ts';
import { ALL_ROWS_MAX } from '../paging.ts';
import { refLabelSelects } from './query.ts';
import { targetOfResource } from './refs.ts';
import { gate, inScope } from './scope.ts';

/**
 * What dropdowns read (docs/api.md, "Options"): `GET …/options` and, for tree resources,
 * `GET …/tree`. Only the option fields of the declaration (`optionFieldNames`: id, code, label,
 * parent, active flag and the declared ones, with their reference labels) ever leave here, so a
 * user without the resource's read permission can pick a record without reading it.
 */

/** A remote (search-as-you-type) picker asks for this many options at a time unless it says. */
export const REMOTE_OPTIONS_LIMIT = 50;

/** The query of every option list, resources' and users'. */
export const optionQueryFields = {
  /** Matches the label or the code, anywhere. */
  keyword: z.string().trim().max(100).optional(),
  /** These records, whether active or not (the labels of selected values). */
  ids: z
    .string()
    .max(2000)
    .regex(/^\d+(,\d+)*$/, '必须是以逗号分隔的编号')
    .transform((s) => s.split(',').map(Number))
    .optional(),
  /** Inactive records too. */
  all: z.enum(['true', 'false']).optional(),
  limit: z.coerce
    .number({ error: '必须是数字' })
    .int('必须是整数')
    .min(1, '不能小于 1')
    .max(ALL_ROWS_MAX, `不能大于 ${ALL_ROWS_MAX}`)
    .optional(),
};

/**
 * Further permissions that read a document resource's records and options besides its own list
 * permission (a flow card is read on the workshop and inspection pages). Set by the resource's
 * module when it is loaded, before the routes are registered.
 */
const READERS = new Map<string, Permission[]>();
export function alsoReadBy(resource: string, permissions: Permission[]) {
  READERS.set(resource, permissions);
}

/** Who may read a resource's options: anyone signed in for master data, the read permission for documents. */
function access(def: ResourceDef): { permission: Permission; alsoAllowedBy?: Permission[] } {
  if (!optionsNeedRead(def)) return { permission: 'authenticated' };
  const own = gate(def, 'list');
  const more = READERS.get(def.name) ?? [];
  return { permission: own.permission, alsoAllowedBy: [...new Set([...(own.alsoAllowedBy ?? []), ...more])] };
}

function optionFields(def: ResourceDef): FieldDef[] {
  return optionFieldNames(def).map((n) => def.fields.find((f) => f.name === n) as FieldDef);
}

/** SELECT of the option columns (alias `t`) with the labels of their references. */
function optionSelect(app: App, def: ResourceDef): SelectQueryBuilder<any, any, any> {
  const fields = optionFields(def);
  return app.ringmes.db
    .selectFrom(`${def.table} as t`)
    .select(['t.id', ...fields.map((f) => `t.${columnOf(f.name)}`)] as any)
    .select(refLabelSelects(fields, 't') as any);
}

const labelled = (def: ResourceDef, r: any) => {
  const name = r[def.labelField ?? 'name'];
  const code = r[fieldOf(targetOfResource(def).code ?? '')];
  return { ...r, label: code ? `${name}（${code}）` : name, value: r.id };
};

export function registerOptions(app: App, def: ResourceDef) {
  const base = `/api/v1/${def.name}`;
  const t = targetOfResource(def);
  // Option fields that are references or enums filter the list (`?warehouseId=3` for locations).
  const filters = optionFields(def).filter((f) => f.kind === 'ref' || f.kind === 'enum');
  const query = z.strictObject({
    ...optionQueryFields,
    ...Object.fromEntries(
      filters.map((f) => [f.name, f.kind === 'ref' ? zx.id.optional() : z.string().max(30).optional()]),
    ),
  });

  route(app, {
    method: 'GET',
    url: `${base}/options`,
    ...access(def),
    query,
    async handler({ query: q, user }) {
      let s = inScope(optionSelect(app, def), user, def, 'list');
      if (q.ids) s = s.where('t.id', 'in', q.ids);
      else if (t.active && q.all !== 'true')
        s = s.where(sql.ref(`t.${t.active.column}`), '=', t.active.value);
      for (const f of filters) {
        const v = (q as Record<string, unknown>)[f.name];
        if (v !== undefined) s = s.where(sql.ref(`t.${columnOf(f.name)}`), '=', v);
      }
      if (q.keyword) {
        // A label that is not text (工序工资's 生效日期, a measurement's time) is searched as its text.
        const text = (column: string) => {
          const f = def.fields.find((x) => columnOf(x.name) === column);
          return !f || f.kind === 'text' || f.kind === 'textarea'
            ? contains(sql.ref(`t.${column}`), q.keyword!)
            : contains(sql`(t.${sql.ref(column)})::text`, q.keyword!);
        };
        const cols = t.code ? [t.label, t.code] : [t.label];
        s = s.where(sql<boolean>`(${sql.join(cols.map(text), sql` OR `)})`);
      }
      const limit = q.limit ?? (def.options?.remote ? REMOTE_OPTIONS_LIMIT : ALL_ROWS_MAX);
      const rows = await s
        .orderBy(sql.ref(t.code ? `t.${t.code}` : 't.id'))
        .orderBy('t.id')
        .limit(limit)
        .execute();
      return rows.map((r) => labelled(def, r));
    },
  });

  if (!def.parentField) return;
  const parent = def.parentField;
  route(app, {
    method: 'GET',
    url: `${base}/tree`,
    ...access(def),
    async handler({ user }) {
      const ordered = def.fields.some((f) => f.name === 'orderNum') ? 't.order_num' : 't.id';
      const rows = (await inScope(optionSelect(app, def), user, def, 'list')
        .orderBy(sql.ref(ordered))
        .orderBy('t.id')
        .limit(ALL_ROWS_MAX)
        .execute()) as Record<string, any>[];
      const labelKey = def.labelField ?? 'name';
      const nodes = new Map<number, any>(
        rows.map((r) => [r.id, { ...r, label: r[labelKey], value: r.id, children: [] }]),
      );
      const roots: any[] = [];
      for (const n of nodes.values()) {
        const p = n[parent] ? nodes.get(n[parent]) : undefined;
        if (p) p.children.push(n);
        else roots.push(n);
      }
      return roots;
    },
  });
}
