import type { Key } from 'react';

/** Keys of every node that has children, depth first: what a tree table expands to show all. */
export function parentKeys<T extends { children?: readonly T[] }>(
  rows: readonly T[],
  keyOf: (row: T) => Key,
  into: Key[] = [],
): Key[] {
  for (const r of rows) {
    if (r.children?.length) {
      into.push(keyOf(r));
      parentKeys(r.children, keyOf, into);
    }
  }
  return into;
}
