import { MENU_TREE, type MenuNode } from '@ringmes/domain';
import type { Db } from '../platform/db/db.ts';

/** The stable key of a seeded node: its path, or for a button its permission. */
export function menuKey(node: MenuNode): string {
  return node.type === '3' ? `perm:${node.permission}` : `path:${node.path}`;
}

function parameterOf(node: MenuNode): string {
  const p: Record<string, unknown> = {};
  if (node.activeMenu) p.activeMenu = node.activeMenu;
  if (node.noCache) p.noCache = true;
  if (node.affix) p.affix = true;
  return Object.keys(p).length ? JSON.stringify(p) : '';
}

/**
 * Brings the menu table up to the release's MENU_TREE: inserts every node never seeded before
 * (a node an administrator deleted stays deleted, with its subtree; one they edited keeps their
 * edits). Returns the ids of the nodes inserted, so the caller can grant them. One insert per
 * level of the tree.
 */
export async function syncMenus(db: Db, tree: MenuNode[] = MENU_TREE): Promise<number[]> {
  const seeded = new Set((await db.selectFrom('menuSeed').select('menuKey').execute()).map((r) => r.menuKey));
  const existing = new Map(
    (await db.selectFrom('menu').select(['id', 'menuKey']).where('menuKey', 'is not', null).execute()).map(
      (r) => [r.menuKey as string, r.id as number],
    ),
  );
  const inserted: number[] = [];
  const visited: string[] = [];
  let level: { nodes: MenuNode[]; parentId: number | null }[] = [{ nodes: tree, parentId: null }];
  while (level.length) {
    const next: typeof level = [];
    const fresh: { node: MenuNode; parentId: number | null; location: number; key: string }[] = [];
    for (const { nodes, parentId } of level) {
      for (const [i, node] of nodes.entries()) {
        const key = menuKey(node);
        visited.push(key);
        const id = existing.get(key);
        if (id === undefined && !seeded.has(key)) fresh.push({ node, parentId, location: (i + 1) * 10, key });
        else if (id !== undefined && node.children?.length) next.push({ nodes: node.children, parentId: id });
      }
    }
    if (fresh.length) {
      const rows = await db
        .insertInto('menu')
        .values(
          fresh.map(({ node, parentId, location, key }) => ({
            parentId,
            menuKey: key,
            menuName: node.name,
            menuPath: node.path ?? null,
            nodeType: node.type,
            menuIco: node.icon ?? null,
            menuPermissions: node.permission ?? null,
            menuStatus: node.hidden ? '0' : '1',
            location,
            parameter: parameterOf(node),
          })),
        )
        .returning(['id', 'menuKey'])
        .execute();
      const idOf = new Map(rows.map((r) => [r.menuKey as string, r.id as number]));
      for (const { node, key } of fresh) {
        const id = idOf.get(key) as number;
        inserted.push(id);
        if (node.children?.length) next.push({ nodes: node.children, parentId: id });
      }
    }
    level = next;
  }
  const unseen = [...new Set(visited.filter((k) => !seeded.has(k)))];
  if (unseen.length)
    await db
      .insertInto('menuSeed')
      .values(unseen.map((menuKey) => ({ menuKey })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  return inserted;
}
