import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';

/** The components of every product's active BOM, as product → [component]. */
async function activeEdges(db: Db): Promise<Map<number, number[]>> {
  const rows = await sql<{ productId: number; materialId: number }>`
    SELECT b.product_id, l.material_id FROM bom b JOIN bom_line l ON l.bom_id = b.id WHERE b.status = 'active'`.execute(
    db,
  );
  const edges = new Map<number, number[]>();
  for (const r of rows.rows) edges.set(r.productId, [...(edges.get(r.productId) ?? []), r.materialId]);
  return edges;
}

async function materialNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('material')
    .select(['id', 'code', 'name'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.name}（${r.code}）`]));
}

/**
 * A BOM must not contain its product, directly or through the active BOMs of its components
 * (6204 bearing → inner ring → … → 6204 bearing would explode forever). Answers the cycle path.
 */
export async function findCycle(
  db: Db,
  productId: number,
  components: number[],
): Promise<number[] | undefined> {
  const edges = await activeEdges(db);
  edges.set(productId, components);
  const path: number[] = [productId];
  const onPath = new Set<number>([productId]);
  const done = new Set<number>();
  const visit = (node: number): number[] | undefined => {
    for (const next of edges.get(node) ?? []) {
      if (onPath.has(next)) return [...path, next];
      if (done.has(next)) continue;
      path.push(next);
      onPath.add(next);
      const found = visit(next);
      if (found) return found;
      path.pop();
      onPath.delete(next);
      done.add(next);
    }
    return undefined;
  };
  return visit(productId);
}

export const bomHooks: ResourceHooks = {
  async validate({ db }, data, before) {
    const lines: { materialId: number }[] = data.lines ?? [];
    const seen = new Set<number>();
    for (const [i, l] of lines.entries()) {
      if (l.materialId === data.productId) {
        throw badRequest('BOM 不能包含产品自身', [
          { field: `lines.${i}.materialId`, message: '子件不能是产品自身' },
        ]);
      }
      if (seen.has(l.materialId))
        throw badRequest('同一子件在 BOM 中重复出现', [
          { field: `lines.${i}.materialId`, message: '子件重复' },
        ]);
      seen.add(l.materialId);
    }
    const cycle = await findCycle(
      db,
      data.productId,
      lines.map((l) => l.materialId),
    );
    if (cycle) {
      const names = await materialNames(db, cycle);
      throw badRequest(`BOM 存在循环引用：${cycle.map((id) => names.get(id) ?? id).join(' → ')}`, [
        { field: 'lines', message: 'BOM 存在循环引用' },
      ]);
    }
    const dup = await db
      .selectFrom('bom')
      .select(['id', 'code'])
      .where('productId', '=', data.productId)
      .where('versionNo', '=', data.versionNo)
      .$if(!!before, (q) => q.where('id', '<>', before!.id))
      .executeTakeFirst();
    if (dup)
      throw badRequest(`该产品已有版本 ${data.versionNo}（${dup.code}）`, [
        { field: 'versionNo', message: '版本号重复' },
      ]);
    if (data.status === 'active') {
      const active = await db
        .selectFrom('bom')
        .select(['code', 'versionNo'])
        .where('productId', '=', data.productId)
        .where('status', '=', 'active')
        .$if(!!before, (q) => q.where('id', '<>', before!.id))
        .executeTakeFirst();
      if (active)
        throw conflict(`该产品已有启用的 BOM（${active.code} ${active.versionNo}），请先停用后再启用新版本`);
    }
  },
};

export interface BomNode {
  materialId: number;
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  /** Per one unit of the parent, loss included. */
  quantity: string;
  /** Per one unit of the top product, loss included. */
  totalQuantity: string;
  lossRate: string;
  bomId: number | null;
  children: BomNode[];
}

/**
 * Explodes a BOM over the active BOMs of its components. Quantities are multiplied in SQL
 * numeric so nothing is rounded through binary floating point.
 */
export function bomRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/product-bom/tree/:id',
    permission: 'factory:bom:list',
    params: idParams,
    async handler({ params, app: { db } }) {
      const head = await db
        .selectFrom('bom')
        .select(['id', 'productId'])
        .where('id', '=', params.id)
        .executeTakeFirst();
      if (!head) throw notFound('产品BOM不存在或已被删除');
      const rows = await sql<{
        depth: number;
        path: number[];
        bomId: number;
        materialId: number;
        quantity: string;
        totalQuantity: string;
        lossRate: string;
        code: string;
        name: string;
        spec: string | null;
        unitName: string | null;
        childBomId: number | null;
      }>`
        WITH RECURSIVE x AS (
          SELECT 1 AS depth, ARRAY[b.product_id, l.material_id]::int[] AS path, l.bom_id, l.material_id, l.line_no,
                 (l.quantity * (1 + l.loss_rate / 100))::numeric(18,6) AS quantity,
                 (l.quantity * (1 + l.loss_rate / 100))::numeric(18,6) AS total_quantity, l.loss_rate
            FROM bom_line l JOIN bom b ON b.id = l.bom_id WHERE l.bom_id = ${params.id}
          UNION ALL
          SELECT x.depth + 1, x.path || l.material_id::int, l.bom_id, l.material_id, l.line_no,
                 (l.quantity * (1 + l.loss_rate / 100))::numeric(18,6),
                 (x.total_quantity * l.quantity * (1 + l.loss_rate / 100))::numeric(18,6), l.loss_rate
            FROM x JOIN bom cb ON cb.product_id = x.material_id AND cb.status = 'active'
            JOIN bom_line l ON l.bom_id = cb.id
           WHERE x.depth < 20 AND NOT l.material_id::int = ANY(x.path)
        )
        SELECT x.depth, x.path, x.bom_id, x.material_id, x.quantity::text, x.total_quantity::text, x.loss_rate::text,
               m.code, m.name, m.spec, u.name AS unit_name,
               (SELECT cb.id FROM bom cb WHERE cb.product_id = x.material_id AND cb.status = 'active' LIMIT 1) AS child_bom_id
          FROM x JOIN material m ON m.id = x.material_id LEFT JOIN material_unit u ON u.id = m.unit_id
         ORDER BY x.path`.execute(db);
      const byPath = new Map<string, BomNode>();
      const roots: BomNode[] = [];
      for (const r of rows.rows) {
        const node: BomNode = {
          materialId: r.materialId,
          code: r.code,
          name: r.name,
          spec: r.spec,
          unitName: r.unitName,
          quantity: trim(r.quantity),
          totalQuantity: trim(r.totalQuantity),
          lossRate: trim(r.lossRate),
          bomId: r.childBomId,
          children: [],
        };
        byPath.set(r.path.join('/'), node);
        const parent = byPath.get(r.path.slice(0, -1).join('/'));
        if (r.depth === 1 || !parent) roots.push(node);
        else parent.children.push(node);
      }
      return { bomId: params.id, productId: head.productId, children: roots };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/product-bom/activeByProduct',
    permission: 'authenticated',
    query: z.strictObject({ productId: z.coerce.number().int().positive() }),
    async handler({ query, app: { db } }) {
      return (
        (await db
          .selectFrom('bom')
          .select(['id', 'code', 'versionNo'])
          .where('productId', '=', query.productId)
          .where('status', '=', 'active')
          .executeTakeFirst()) ?? null
      );
    },
  });
}

const trim = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
