import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './query.ts';

/** Every page component receives the route path it is mounted on. */
export interface PageProps {
  path: string;
}
export type PageComponent = ComponentType<PageProps>;

/**
 * What only the composition root knows: the shell's chunk, the 建设中 placeholder page and the
 * paths its page registry holds. `app/page-registry.ts` provides it when it loads, before the
 * first render (main.tsx imports the router, which imports the registry).
 */
export interface AppPages {
  loadShell: () => Promise<unknown>;
  loadModulePage: () => Promise<{ ModulePage: PageComponent }>;
  pagePaths: () => readonly string[];
}

let app: AppPages | undefined;

export function provideAppPages(pages: AppPages): void {
  app = pages;
}

/** The composition root's pages; throws when app/page-registry.ts has not been loaded. */
export function appPages(): AppPages {
  if (!app) throw new Error('app/page-registry.ts has not provided the app pages');
  return app;
}

/** Loaders of the chunks every signed-in user needs, shared by the router and prefetching. */
export const loadShell = () => appPages().loadShell();
export const loadModulePage = () => appPages().loadModulePage();

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
