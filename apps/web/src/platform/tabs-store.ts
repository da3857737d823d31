import { createStore } from './store.ts';

/** One visited page in the tag bar. `path` is the key; `fullPath` keeps the query. */
export interface TabView {
  path: string;
  fullPath: string;
  title: string;
  /** Pinned: cannot be closed (首页). */
  affix?: boolean;
  /** Not kept alive when you leave it (首页). */
  noCache?: boolean;
}

interface TabsState {
  views: TabView[];
}

/** The open tabs survive a page reload within the browser tab (not the pages' state). */
const STORAGE_KEY = 'rm-tabs';

function restore(): TabView[] {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    const views: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(views) ? views.filter((v): v is TabView => typeof v?.path === 'string') : [];
  } catch {
    return [];
  }
}

const store = createStore<TabsState>({ views: restore() });
store.subscribe(() => {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(store.get().views));
  } catch {
    // storage full or disabled: tabs simply do not survive a reload
  }
});

export const tabsStore = {
  ...store,
  /** Adds a visited page or refreshes its title and query. Pinned tabs stay first. */
  visit(view: TabView) {
    store.set(({ views }) => {
      const at = views.findIndex((v) => v.path === view.path);
      if (at >= 0) {
        const old = views[at];
        if (old.fullPath === view.fullPath && old.title === view.title) return { views };
        const next = views.slice();
        next[at] = { ...old, fullPath: view.fullPath, title: view.title };
        return { views: next };
      }
      if (view.affix) {
        const pinned = views.filter((v) => v.affix);
        return { views: [...pinned, view, ...views.filter((v) => !v.affix)] };
      }
      return { views: [...views, view] };
    });
  },
  /** Closes one tab (pinned tabs refuse); answers the tab to show next when it was active. */
  close(path: string): TabView | undefined {
    const { views } = store.get();
    const at = views.findIndex((v) => v.path === path);
    if (at < 0 || views[at].affix) return undefined;
    const next = views.filter((v) => v.path !== path);
    store.set({ views: next });
    return next[at] ?? next[at - 1] ?? next[next.length - 1];
  },
  closeOthers(path: string) {
    store.set(({ views }) => ({ views: views.filter((v) => v.affix || v.path === path) }));
  },
  closeAll() {
    store.set(({ views }) => ({ views: views.filter((v) => v.affix) }));
  },
  /** Logout: every tab goes, pinned ones too (they come back with the next session). */
  reset() {
    store.set({ views: [] });
  },
};
