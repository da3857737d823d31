import { RESOURCES, type ResourceDef } from '@ringmes/domain';
import type { App } from '../../app.ts';
import { route } from '../../platform/http/route.ts';
import { type ResourceHooks, registerResource } from '../../platform/resource/crud.ts';
import { registerExcel } from '../../platform/resource/excel.ts';
import { DOC_HOOKS } from '../warehouse/index.ts';
import { bomHooks, bomRoutes } from './bom.ts';
import { materialHooks, materialRoutes, templateHooks } from './material.ts';

/** Hooks by resource name: the rules of a resource that its declaration cannot say. */
const HOOKS: Record<string, ResourceHooks> = {
  'product-bom': bomHooks,
  'material-info': materialHooks,
  'material-template': templateHooks,
  ...DOC_HOOKS,
};

/** `GET …/tree`: a tree resource (material types) as nested `children`. */
function treeRoute(app: App, def: ResourceDef) {
  const parent = def.parentField as string;
  route(app, {
    method: 'GET',
    url: `/api/v1/${def.name}/tree`,
    permission: 'authenticated',
    async handler({ app: { db } }) {
      const rows = (await db
        .selectFrom(def.table)
        .selectAll()
        .orderBy(def.fields.some((f) => f.name === 'orderNum') ? 'orderNum' : 'id')
        .orderBy('id')
        .execute()) as Record<string, any>[];
      const nodes = new Map<number, any>(
        rows.map((r) => [r.id, { ...r, label: r[def.labelField ?? 'name'], value: r.id, children: [] }]),
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

export function factoryRoutes(app: App) {
  for (const def of RESOURCES) {
    registerResource(app, def, HOOKS[def.name]);
    registerExcel(app, def, HOOKS[def.name]);
    if (def.parentField) treeRoute(app, def);
  }
  bomRoutes(app);
  materialRoutes(app);
}
