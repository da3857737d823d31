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
 * (a node an administrator deleted stays deleted; one they edited keeps their edits). Returns
 * the ids of the nodes inserted, so the caller can grant them.
 */
export async function syncMenus(db: Db, tree: MenuNode[] = MENU_TREE): Promise<number[]> {
  const seeded = new Set((await db.selectFrom('menuSeed').select('menuKey').execute()).map((r) => r.menuKey));
  const existing = new Map(
    (await db.selectFrom('menu').select(['id', 'menuKey']).where('menuKey', 'is not', null).execute()).map(
      (r) => [r.menuKey as string, r.id as number],
    ),
  );
  const inserted: number[] = [];
  const walk = async (nodes: MenuNode[], parentId: number | null) => {
    let location = 0;
    for (const node of nodes) {
      location += 10;
      const key = menuKey(node);
      let id = existing.get(key);
      if (id === undefined && !seeded.has(key)) {
        const row = await db
          .insertInto('menu')
          .values({
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
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id as number;
        inserted.push(id);
      }
      if (!seeded.has(key))
        await db
          .insertInto('menuSeed')
          .values({ menuKey: key })
          .onConflict((oc) => oc.doNothing())
          .execute();
      if (id !== undefined && node.children?.length) await walk(node.children, id);
    }
  };
  await walk(tree, null);
  return inserted;
}
