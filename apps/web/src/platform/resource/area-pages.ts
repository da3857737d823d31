import { flattenMenu, MENU_TREE } from '@ringmes/domain';
import { type LazyExoticComponent, lazy } from 'react';
import { loadModulePage, registerPageLoader } from '../../app/chunks.ts';
import type { PageComponent } from '../../app/page-registry.ts';

/** Loads the component of one route (a chunk per page). */
export type PageLoader = () => Promise<PageComponent>;

/**
 * Every page of a menu area (e.g. /factory-info), each resolved on first visit through the
 * area's page table (itself a lazy chunk holding the definitions): the entry chunk carries only
 * the paths, from the menu tree it already has. Area pages without an entry in the table open
 * the module placeholder.
 */
export function areaPages(
  prefix: string,
  loadTable: () => Promise<Record<string, PageLoader>>,
): Record<string, LazyExoticComponent<PageComponent>> {
  const out: Record<string, LazyExoticComponent<PageComponent>> = {};
  for (const node of flattenMenu(MENU_TREE)) {
    const path = node.path;
    if (node.type !== '2' || !path?.startsWith(`${prefix}/`)) continue;
    const load = async () => {
      const table = await loadTable();
      const page = table[path];
      if (page) return { default: await page() };
      const placeholder = await loadModulePage();
      return { default: placeholder.ModulePage };
    };
    registerPageLoader(path, load);
    out[path] = lazy(load);
  }
  return out;
}
