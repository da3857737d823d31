import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { containsPattern } from '../../platform/db/like.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { checkAllRows, type Page, pagingFields } from '../../platform/paging.ts';

/**
 * Inventory alerts: a material's qualified stock over all warehouses below its safety minimum
 * (库存不足) or above its maximum (库存积压). Materials without limits never alert.
 */
const alertQuery = z.strictObject({
  ...pagingFields,
  kind: z.enum(['below', 'above']).optional(),
  keyword: z.string().trim().max(100).optional(),
  materialTypeId: zx.id.optional(),
});

export async function alertPage(db: Db, q: z.infer<typeof alertQuery>): Promise<Page<any>> {
  const k = q.keyword ? containsPattern(q.keyword) : undefined;
  const base = sql`
    WITH t AS (SELECT material_id, sum(quantity) AS q FROM stock_balance WHERE quality_status = 'qualified' GROUP BY material_id),
    a AS (
      SELECT m.id AS material_id, m.code AS material_code, m.name AS material_name, m.spec, u.name AS unit_name,
             m.material_type_id, coalesce(t.q, 0) AS quantity, m.safety_stock_min, m.safety_stock_max,
             CASE WHEN m.safety_stock_min IS NOT NULL AND coalesce(t.q, 0) < m.safety_stock_min THEN 'below'
                  WHEN m.safety_stock_max IS NOT NULL AND coalesce(t.q, 0) > m.safety_stock_max THEN 'above' END AS kind
        FROM material m LEFT JOIN t ON t.material_id = m.id LEFT JOIN material_unit u ON u.id = m.unit_id
       WHERE m.status = '1' AND (m.safety_stock_min IS NOT NULL OR m.safety_stock_max IS NOT NULL))
    SELECT * FROM a WHERE kind IS NOT NULL
      ${q.kind ? sql`AND kind = ${q.kind}` : sql``}
      ${k ? sql`AND (material_code ILIKE ${k} OR material_name ILIKE ${k} OR spec ILIKE ${k})` : sql``}
      ${q.materialTypeId ? sql`AND material_type_id = ${q.materialTypeId}` : sql``}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${base}) x`.execute(db)).rows[0].n;
  if (q.pageNum === 0) checkAllRows(total);
  const limit = q.pageNum === 0 ? sql`` : sql`LIMIT ${q.pageSize} OFFSET ${(q.pageNum - 1) * q.pageSize}`;
  const rows = await sql<any>`
    SELECT material_id, material_code, material_name, spec, unit_name, kind,
           quantity::text AS quantity, safety_stock_min::text AS safety_stock_min, safety_stock_max::text AS safety_stock_max,
           CASE WHEN kind = 'below' THEN (safety_stock_min - quantity)::text ELSE (quantity - safety_stock_max)::text END AS gap
      FROM (${base}) x
     ORDER BY kind DESC, CASE WHEN kind = 'below' THEN safety_stock_min - quantity ELSE quantity - safety_stock_max END DESC, material_code
     ${limit}`.execute(db);
  return {
    list: rows.rows,
    total,
    pageNum: q.pageNum,
    pageSize: q.pageNum === 0 ? rows.rows.length : q.pageSize,
  };
}

/**
 * After stock went out: materials now below their minimum raise an in-app message to the
 * warehouse keepers (each warehouse's keeper and every user of the 仓管员 role), once a day per
 * material and user. Runs in the posting transaction.
 */
export async function notifyLowStock(db: Db, materialIds: number[]): Promise<number> {
  if (!materialIds.length) return 0;
  const r = await sql`
    WITH low AS (
      SELECT m.id, m.code, m.name, coalesce(sum(b.quantity) FILTER (WHERE b.quality_status = 'qualified'), 0) AS q, m.safety_stock_min
        FROM material m LEFT JOIN stock_balance b ON b.material_id = m.id
       WHERE m.id = ANY(${sql.val([...new Set(materialIds)])}::bigint[]) AND m.safety_stock_min IS NOT NULL
       GROUP BY m.id HAVING coalesce(sum(b.quantity) FILTER (WHERE b.quality_status = 'qualified'), 0) < m.safety_stock_min),
    keepers AS (
      SELECT keeper_id AS user_id FROM warehouse WHERE keeper_id IS NOT NULL
      UNION SELECT ur.user_id FROM user_role ur JOIN role r ON r.id = ur.role_id WHERE r.role_key = 'warehouse')
    INSERT INTO message (user_id, title, content, kind, link)
    SELECT k.user_id, '库存预警：' || low.name || ' 低于安全库存',
           '物料 ' || low.name || '（' || low.code || '）当前合格库存 ' || trim_scale(low.q) || '，低于安全库存下限 ' || trim_scale(low.safety_stock_min) || '，请及时补货。',
           'stock-alert', '/warehouse-logistics/inventory-details?materialId=' || low.id
      FROM low CROSS JOIN keepers k JOIN app_user u ON u.id = k.user_id AND u.status = '1'
     WHERE NOT EXISTS (SELECT 1 FROM message x WHERE x.user_id = k.user_id AND x.kind = 'stock-alert'
                         AND x.link = '/warehouse-logistics/inventory-details?materialId=' || low.id
                         AND x.created_at > date_trunc('day', now()))`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

const alertPageAnswer = z.object({
  list: z.array(
    z.object({
      materialId: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      spec: z.string().nullable(),
      unitName: z.string().nullable(),
      kind: z.enum(['below', 'above']),
      quantity: z.string(),
      safetyStockMin: z.string().nullable(),
      safetyStockMax: z.string().nullable(),
      /** How far below the minimum or above the maximum. */
      gap: z.string(),
    }),
  ),
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
});

export function alertRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stock-alert/page',
    permission: 'warehouse:stock:list',
    alsoAllowedBy: ['finance:inventoryAlert:query'],
    query: alertQuery,
    response: alertPageAnswer,
    handler: ({ query, app: { db } }) => alertPage(db, query),
  });
}
