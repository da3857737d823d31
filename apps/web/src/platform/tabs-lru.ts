/** How many pages of open tabs stay mounted; the least recently shown beyond it re-mount when reopened. */
export const KEEP_ALIVE_MAX = 12;

/**
 * Marks `path` as just shown in `recent` (least recently shown first) and answers the paths to
 * unmount so that at most `max` stay: the least recently shown, never `path` itself.
 * `recent` is changed in place.
 */
export function touchAndEvict(recent: string[], path: string, max = KEEP_ALIVE_MAX): string[] {
  const at = recent.indexOf(path);
  if (at >= 0) recent.splice(at, 1);
  recent.push(path);
  const evicted: string[] = [];
  while (recent.length > Math.max(1, max)) evicted.push(recent.shift() as string);
  return evicted;
}
