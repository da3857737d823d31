import { createContext, useContext, useEffect, useRef } from 'react';

/**
 * Whether the kept page around a component is the tab on screen (the shell's keep-alive provides
 * it per page; outside a kept page, always true). Pages of open tabs stay mounted while hidden, so
 * what they read went stale behind the user's back: a queue the 车间主任 dispatched to, a task
 * another role judged.
 */
export const PageShownContext = createContext(true);

/** Whether this page is the tab on screen. */
export function usePageShown(): boolean {
  return useContext(PageShownContext);
}

/**
 * Runs `reread` each time the page comes back on screen (its tab clicked, its menu entry chosen
 * again) — not when it first mounts, which reads anyway. For queries a kept page must show fresh
 * when the user returns to it.
 */
export function useRereadWhenShown(reread: () => unknown): void {
  const shown = usePageShown();
  const was = useRef(shown);
  const latest = useRef(reread);
  latest.current = reread;
  useEffect(() => {
    if (shown && !was.current) void latest.current();
    was.current = shown;
  }, [shown]);
}
