/** Loaders of the chunks every signed-in user needs, shared by the router and prefetching. */
export const loadShell = () => import('./shell/shell.tsx');
export const loadModulePage = () => import('../pages/module.page.tsx');
