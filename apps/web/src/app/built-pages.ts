import { http } from '../platform/api/client.ts';
import { tablePaths } from '../platform/resource/area-pages.ts';
import { setMenuFilter } from './menu-model.ts';
import { PAGE_REGISTRY } from './page-registry.ts';

let pending: Promise<Set<string>> | undefined;

/**
 * The route paths that open a real page rather than the 建设中 placeholder, derived from the
 * route registry: registered pages, less the area paths whose page table has no entry.
 * Loads the area page tables (small chunks the first visit needs anyway).
 */
export function loadBuiltPages(): Promise<Set<string>> {
  pending ??= tablePaths()
    .then(({ routed, built }) => {
      for (const p of Object.keys(PAGE_REGISTRY)) if (!routed.has(p)) built.add(p);
      return built;
    })
    .catch((e: unknown) => {
      pending = undefined;
      throw e;
    });
  return pending;
}

/** 系统设置 → 界面: whether menus also list unfinished pages. */
export interface UiSettings {
  showUnfinishedPages: boolean;
}

/**
 * Decides which pages the menus list before the shell first draws them: built pages only,
 * unless 系统设置 shows unfinished ones. If the page tables cannot be loaded the menus list
 * everything rather than nothing.
 */
export async function loadMenuFilter(): Promise<void> {
  const [built, ui] = await Promise.all([
    loadBuiltPages().catch(() => undefined),
    http
      .get<UiSettings>('/api/v1/sysSetting/ui', undefined, { silent: true, skipSessionHandling: true })
      .catch(() => ({ showUnfinishedPages: false })),
  ]);
  setMenuFilter({ built, showUnfinished: ui.showUnfinishedPages || !built });
}
