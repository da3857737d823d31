import { http } from '../api/client.ts';
import { appPages } from '../page.ts';
import { setMenuFilter } from './menu-model.ts';

/**
 * Paths a page table routes (its area's menu pages) but holds no page for yet: they open the
 * 建设中 placeholder. Kept here rather than read from the tables, which are lazy chunks holding
 * the area's resource definitions (some 25 files) that the first visit does not need;
 * `built-pages.test.ts` checks this list against the tables.
 */
export const PLACEHOLDER_PAGES: readonly string[] = [];

let built: ReadonlySet<string> | undefined;

/** The route paths that open a real page rather than the 建设中 placeholder. */
export function builtPages(): ReadonlySet<string> {
  built ??= new Set(
    appPages()
      .pagePaths()
      .filter((p) => !PLACEHOLDER_PAGES.includes(p)),
  );
  return built;
}

/** 系统设置 → 界面: whether menus also list unfinished pages. */
export interface UiSettings {
  showUnfinishedPages: boolean;
}

/**
 * Decides which pages the menus list before the shell first draws them: built pages only,
 * unless 系统设置 shows unfinished ones.
 */
export async function loadMenuFilter(): Promise<void> {
  const ui = await http
    .get<UiSettings>('/api/v1/sysSetting/ui', undefined, { silent: true, skipSessionHandling: true })
    .catch(() => ({ showUnfinishedPages: false }));
  setMenuFilter({ built: builtPages(), showUnfinished: ui.showUnfinishedPages });
}
