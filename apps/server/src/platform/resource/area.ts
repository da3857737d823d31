import type { ResourceDef } from '@ringmes/domain';
import type { AttachmentOwner } from '../attachments/attachments.ts';
import type { App } from '../http/route.ts';
import { type ResourceHooks, registerResource } from './crud.ts';
import { registerExcel } from './excel.ts';
import { lifecycleHooks, registerLifecycle, type TransitionHandlers } from './lifecycle.ts';

/**
 * One resource's server side: its declaration and what the kit cannot derive from it — the rules
 * of its generic calls (`hooks`), the effects of its lifecycle transitions (`transitions`, by
 * transition name) and routes of its own beyond the kit's. A resource that needs none of them (a
 * plain master) has no entry: the kit serves it from its declaration alone.
 */
export interface ResourceEntry {
  def: ResourceDef;
  hooks?: ResourceHooks;
  transitions?: Record<string, TransitionHandlers>;
  routes?: (app: App) => void;
}

/**
 * One business area of the server (a folder under `modules/`), exported by its `index.ts`: the
 * entries of its resources and its routes beyond any one resource (reports, boards, commands).
 * The composition root lists the areas; adding a resource with behaviour is one line here.
 */
export interface ServerArea {
  name: string;
  resources?: ResourceEntry[];
  routes?: (app: App) => void;
  /** The kinds of record of this area that carry files (`/api/v1/attachment/…/:owner/…`). */
  attachments?: AttachmentOwner[];
}

/**
 * The entries of `areas` by declaration. An entry whose declaration is not among `defs` (the
 * domain's `RESOURCES`), that two entries share, or with effects of a transition its lifecycle
 * does not declare is a wiring fault: it throws at start-up.
 */
export function entriesByDef(defs: readonly ResourceDef[], areas: readonly ServerArea[]) {
  const known = new Set(defs);
  const entries = new Map<ResourceDef, ResourceEntry>();
  for (const area of areas)
    for (const e of area.resources ?? []) {
      if (!known.has(e.def)) throw new Error(`${area.name}: ${e.def.name} is not in RESOURCES`);
      if (entries.has(e.def)) throw new Error(`${area.name}: ${e.def.name} has two entries`);
      const declared = new Set(e.def.lifecycle?.transitions.map((t) => t.name));
      for (const name of Object.keys(e.transitions ?? {}))
        if (!declared.has(name))
          throw new Error(`${area.name}: ${e.def.name} declares no transition ${name}`);
      entries.set(e.def, e);
    }
  return entries;
}

/**
 * Every declared resource's generic routes (CRUD, Excel, lifecycle transitions), in `defs` order,
 * with its entry's hooks and transition effects; then each area's own routes, in `areas` order.
 * A document with a lifecycle and no hooks of its own still starts in its initial state and
 * is edited only in its editable states (`lifecycleHooks`); a numbered one is numbered by
 * `createRecord` from its declaration when its hooks set no number.
 */
export function registerAreas(app: App, defs: readonly ResourceDef[], areas: readonly ServerArea[]) {
  const entries = entriesByDef(defs, areas);
  for (const def of defs) {
    const entry = entries.get(def);
    const hooks = entry?.hooks ?? (def.lifecycle && !def.readonlyApi ? lifecycleHooks(def) : undefined);
    registerResource(app, def, hooks);
    registerExcel(app, def, hooks);
    if (def.lifecycle) registerLifecycle(app, def, entry?.transitions);
  }
  for (const area of areas) {
    for (const entry of area.resources ?? []) entry.routes?.(app);
    area.routes?.(app);
  }
}
