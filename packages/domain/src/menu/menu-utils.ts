import type { MenuNode } from './types.ts';

/** All nodes of the tree, depth-first (a node before its children, siblings in order). */
export function flattenMenu(tree: readonly MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (nodes: readonly MenuNode[]): void => {
    for (const node of nodes) {
      out.push(node);
      if (node.children) walk(node.children);
    }
  };
  walk(tree);
  return out;
}

/** Every permission string in the tree, once each, in depth-first order. */
export function allPermissions(tree: readonly MenuNode[]): string[] {
  const seen = new Set<string>();
  for (const node of flattenMenu(tree)) {
    if (node.permission) seen.add(node.permission);
  }
  return [...seen];
}

/** The directory or page with exactly this absolute path, or undefined. */
export function findByPath(tree: readonly MenuNode[], path: string): MenuNode | undefined {
  return flattenMenu(tree).find((node) => node.type !== '3' && node.path === path);
}

/** Absolute path → Chinese title of every page (type '2'), hidden pages included. */
export function pageTitles(tree: readonly MenuNode[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const node of flattenMenu(tree)) {
    if (node.type === '2' && node.path) titles[node.path] = node.name;
  }
  return titles;
}
