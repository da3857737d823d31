import { flattenMenu, MENU_TREE } from '@ringmes/domain';
import type { QueryClient } from '@tanstack/react-query';
import { type LazyExoticComponent, lazy } from 'react';
import type { PageComponent } from '../page.ts';
import { loadModulePage, registerPageLoader } from '../page.ts';

/**
 * Loads the component of one route (a chunk per page). `prefetch`, when the page's first data is
 * known without the page (a list's first page), asks for it ahead.
 */
export type PageLoader = (() => Promise<PageComponent>) & {
  prefetch?: (client: QueryClient) => Promise<void>;
};
type TableLoader = () => Promise<Record<string, PageLoader>>;

/** Every page table registered here, with the route paths it may serve. */
const TABLES: { paths: string[]; load: TableLoader }[] = [];

/**
 * Routes served through a page table (itself a lazy chunk holding the definitions), each
 * resolved on first visit: the entry chunk carries only the paths. Paths without an entry in
 * the table open the module placeholder.
 */
export function tablePages(
  paths: readonly string[],
  loadTable: TableLoader,
): Record<string, LazyExoticComponent<PageComponent>> {
  TABLES.push({ paths: [...paths], load: loadTable });
  const out: Record<string, LazyExoticComponent<PageComponent>> = {};
  for (const path of paths) {
    const load = async () => {
      const page = (await loadTable())[path];
      if (page) return { default: await page() };
      const placeholder = await loadModulePage();
      return { default: placeholder.ModulePage };
    };
    registerPageLoader(path, load, async (client) => (await loadTable())[path]?.prefetch?.(client));
    out[path] = lazy(load);
  }
  return out;
}

/** Every page of a menu area (e.g. /factory-info), from the menu tree the entry already has. */
export function areaPages(prefix: string, loadTable: TableLoader) {
  const paths = flattenMenu(MENU_TREE)
    .filter((n) => n.type === '2' && n.path?.startsWith(`${prefix}/`))
    .map((n) => n.path as string);
  return tablePages(paths, loadTable);
}

/** Paths that page tables route somewhere (the rest open the placeholder). */
export async function tablePaths(): Promise<{ routed: Set<string>; built: Set<string> }> {
  const tables = await Promise.all(TABLES.map(async (t) => ({ paths: t.paths, table: await t.load() })));
  const routed = new Set<string>();
  const built = new Set<string>();
  for (const { paths, table } of tables) {
    for (const p of paths) {
      routed.add(p);
      if (table[p]) built.add(p);
    }
  }
  return { routed, built };
}
