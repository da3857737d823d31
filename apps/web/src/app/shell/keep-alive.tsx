import { memo, type ReactElement, useRef } from 'react';
import {
  type Location,
  UNSAFE_LocationContext as LocationContext,
  NavigationType,
  useLocation,
  useOutlet,
} from 'react-router';
import { pageMeta } from '../../platform/menu/menu-model.ts';
import { PageShownContext } from '../../platform/page-shown.ts';
import { createStore, useStore } from '../../platform/store.ts';
import { touchAndEvict } from '../../platform/tabs-lru.ts';
import { tabsStore } from '../../platform/tabs-store.ts';

interface Entry {
  element: ReactElement;
  location: Location;
  /** What the page reads as its location: one object per entry, so a navigation elsewhere changes nothing it reads. */
  context: { location: Location; navigationType: NavigationType };
}

/** Per-path remount counters: bumping one rebuilds that page from scratch (tab 刷新). */
const nonces = createStore<{ byPath: Record<string, number> }>({ byPath: {} });

export function refreshPage(path: string): void {
  nonces.set(({ byPath }) => ({ byPath: { ...byPath, [path]: (byPath[path] ?? 0) + 1 } }));
}

/**
 * One kept page. Memoised on its entry and whether it shows: switching tabs re-renders two of
 * these (the one hidden, the one shown) and nothing inside either page, whose element and
 * location context stay the same objects.
 */
const KeptPage = memo(function KeptPage({
  path,
  entry,
  active,
}: {
  path: string;
  entry: Entry;
  active: boolean;
}) {
  return (
    <div
      className="rm-page"
      style={active ? undefined : { display: 'none' }}
      data-page={path}
      data-active={active}
    >
      <PageShownContext.Provider value={active}>
        <LocationContext.Provider value={entry.context}>{entry.element}</LocationContext.Provider>
      </PageShownContext.Provider>
    </div>
  );
});

/**
 * Keeps the pages of open tabs mounted (hidden when inactive) so a half-filled form or a
 * search survives switching tabs. Closing a tab drops its page; pages marked noCache (首页)
 * are dropped as soon as you leave them; beyond KEEP_ALIVE_MAX the page shown longest ago is
 * dropped too (its tab stays and re-mounts the page when clicked). Each kept page sees the
 * location it was opened with.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const views = useStore(tabsStore, (s) => s.views);
  const byPath = useStore(nonces, (s) => s.byPath);
  const cache = useRef(new Map<string, Entry>());
  const recent = useRef<string[]>([]);
  const current = location.pathname;
  const isPage = pageMeta(current)?.type === '2';

  if (isPage && outlet) {
    // A new entry only when the location changed: the same one renders nothing new inside the page.
    if (cache.current.get(current)?.location !== location) {
      cache.current.set(current, {
        element: outlet,
        location,
        context: { location, navigationType: NavigationType.Pop },
      });
    }
    for (const old of touchAndEvict(recent.current, current)) cache.current.delete(old);
  }
  for (const key of [...cache.current.keys()]) {
    if (key === current) continue;
    const view = views.find((v) => v.path === key);
    if (!view || view.noCache || pageMeta(key)?.noCache) cache.current.delete(key);
  }
  recent.current = recent.current.filter((key) => cache.current.has(key));

  return (
    <>
      {[...cache.current].map(([key, entry]) => (
        <KeptPage key={`${key}#${byPath[key] ?? 0}`} path={key} entry={entry} active={key === current} />
      ))}
      {!isPage && outlet}
    </>
  );
}
