import { type ReactElement, useRef } from 'react';
import {
  type Location,
  UNSAFE_LocationContext as LocationContext,
  NavigationType,
  useLocation,
  useOutlet,
} from 'react-router';
import { pageMeta } from '../../platform/menu/menu-model.ts';
import { createStore, useStore } from '../../platform/store.ts';
import { tabsStore } from '../../platform/tabs-store.ts';

interface Entry {
  element: ReactElement;
  location: Location;
}

/** Per-path remount counters: bumping one rebuilds that page from scratch (tab 刷新). */
const nonces = createStore<{ byPath: Record<string, number> }>({ byPath: {} });

export function refreshPage(path: string): void {
  nonces.set(({ byPath }) => ({ byPath: { ...byPath, [path]: (byPath[path] ?? 0) + 1 } }));
}

/**
 * Keeps the pages of open tabs mounted (hidden when inactive) so a half-filled form or a
 * search survives switching tabs. Closing a tab drops its page; pages marked noCache (首页)
 * are dropped as soon as you leave them. Each kept page sees the location it was opened with.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const views = useStore(tabsStore, (s) => s.views);
  const byPath = useStore(nonces, (s) => s.byPath);
  const cache = useRef(new Map<string, Entry>());
  const current = location.pathname;
  const isPage = pageMeta(current)?.type === '2';

  if (isPage && outlet) cache.current.set(current, { element: outlet, location });
  for (const key of [...cache.current.keys()]) {
    if (key === current) continue;
    const view = views.find((v) => v.path === key);
    if (!view || view.noCache || pageMeta(key)?.noCache) cache.current.delete(key);
  }

  return (
    <>
      {[...cache.current].map(([key, entry]) => (
        <div
          key={`${key}#${byPath[key] ?? 0}`}
          className="rm-page"
          style={key === current ? undefined : { display: 'none' }}
          data-page={key}
          data-active={key === current}
        >
          <LocationContext.Provider value={{ location: entry.location, navigationType: NavigationType.Pop }}>
            {entry.element}
          </LocationContext.Provider>
        </div>
      ))}
      {!isPage && outlet}
    </>
  );
}
