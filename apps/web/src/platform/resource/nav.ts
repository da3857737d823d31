import { navigateTo } from '../navigation.ts';
import { tabsStore } from '../tabs-store.ts';

/** Opens a resource page in its tab (the shell adds the tab); edit and detail pages take `?id=`. */
export function openResourcePage(path: string, id?: number): void {
  navigateTo(id ? `${path}?id=${id}` : path);
}

/** Leaves a form or detail page for good: closes its tab (so its state is dropped) and goes to `to`. */
export function leavePage(current: string, to: string): void {
  tabsStore.close(current);
  navigateTo(to);
}

/** The record id of an edit/detail page (`?id=12`), or undefined. */
export function idFromSearch(search: URLSearchParams): number | undefined {
  const n = Number(search.get('id'));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
