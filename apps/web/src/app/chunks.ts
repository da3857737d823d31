import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from '../platform/query.ts';

/** Loaders of the chunks every signed-in user needs, shared by the router and prefetching. */
export const loadShell = () => import('./shell/shell.tsx');
export const loadModulePage = () => import('../pages/module.page.tsx');

/**
 * Warms the shell while the user types their password, so sign-in does not wait for it.
 * Runs when the browser is idle; failures are ignored (the router loads it again). The 建设中
 * placeholder is not warmed: the menus list finished pages only, unless 系统设置 says otherwise.
 */
export function prefetchAppChunks(): void {
  const run = () => {
    void loadShell().catch(() => undefined);
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 800);
}

const pageLoaders = new Map<string, () => Promise<unknown>>();
const pageData = new Map<string, (client: QueryClient) => Promise<void>>();

/**
 * Remembers how to load the chunks of a route's page, for `preloadPage`, and how to ask for its
 * first data, for `prefetchPageData`.
 */
export function registerPageLoader(
  path: string,
  load: () => Promise<unknown>,
  data?: (client: QueryClient) => Promise<void>,
): void {
  pageLoaders.set(path, load);
  if (data) pageData.set(path, data);
}

/**
 * Asks for the first data of the page at `path` (signed in, before the page has drawn): with the
 * user's menu in flight, not after the page has mounted. Failures are ignored: the page asks again.
 */
export function prefetchPageData(path: string): void {
  void pageData
    .get(path.split(/[?#]/)[0])?.(queryClient)
    .catch(() => undefined);
}

/**
 * Starts loading the chunks of the page at `path` (and the shell) now, e.g. while the sign-in
 * request is in flight, so the page does not wait for them in two serial steps after it.
 * Dynamic imports are cached: the router's own load later reuses them.
 */
export function preloadPage(path: string): void {
  void loadShell().catch(() => undefined);
  void pageLoaders
    .get(path.split(/[?#]/)[0])?.()
    .catch(() => undefined);
}
