/** Loaders of the chunks every signed-in user needs, shared by the router and prefetching. */
export const loadShell = () => import('./shell/shell.tsx');
export const loadModulePage = () => import('../pages/module.page.tsx');

/**
 * Warms the shell while the user types their password, so sign-in does not wait for it.
 * Runs when the browser is idle; failures are ignored (the router loads it again).
 */
export function prefetchAppChunks(): void {
  const run = () => {
    void loadShell().catch(() => undefined);
    void loadModulePage().catch(() => undefined);
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 800);
}
