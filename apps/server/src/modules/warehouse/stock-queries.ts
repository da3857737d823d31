import {
  allScopePrefixes,
  type LedgerSummary,
  stockOutboundResource,
  stockTransferResource,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type Db, inColumnNames } from '../../platform/db/db.ts';
import { contains, containsAny } from '../../platform/db/like.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import {
  COUNT_CAP,
  cappedTotal,
  checkAllRows,
  type Page,
  pageWindow,
  pagingFields,
} from '../../platform/paging.ts';

const balanceQuery = z.strictObject({
  ...pagingFields,
  materialId: zx.id.optional(),
  warehouseId: zx.id.optional(),
  locationId: zx.id.optional(),
  batchNo: z.string().trim().max(60).optional(),
  qualityStatus: z.enum(['qualified', 'pending', 'rejected']).optional(),
  keyword: z.string().trim().max(100).optional(),
  warehouseType: z.enum(['raw', 'semi', 'finished', 'auxiliary', 'scrap']).optional(),
  includeZero: z.enum(['true', 'false']).optional(),
});

const BALANCE_SORT: Record<string, string> = {
  materialCode: 'm.code',
  materialName: 'm.name',
  warehouseName: 'w.name',
  quantity: 'b.quantity',
  batchNo: 'b.batch_no',
  updatedAt: 'b.updated_at',
  firstInAt: 'b.first_in_at',
};

/**
 * Balances straight from stock_balance (never by summing the ledger), with material, warehouse,
 * location names and the value: each row its share of its material × warehouse value (quantity ×
 * value ÷ quantity, to the cent); the totals per material × warehouse, so a whole pair counts its
 * value exactly, the sum of its ledger amounts.
 */
export async function balancePage(
  db: Db,
  q: z.infer<typeof balanceQuery>,
): Promise<Page<any> & { totalsByUnit: { unitName: string; quantity: string }[]; totalAmount: string }> {
  const where = [sql`true`];
  if (q.includeZero !== 'true') where.push(sql`b.quantity > 0`);
  if (q.materialId) where.push(sql`b.material_id = ${q.materialId}`);
  if (q.warehouseId) where.push(sql`b.warehouse_id = ${q.warehouseId}`);
  if (q.locationId) where.push(sql`b.location_id = ${q.locationId}`);
  if (q.batchNo) where.push(contains(sql.ref('b.batch_no'), q.batchNo));
  if (q.qualityStatus) where.push(sql`b.quality_status = ${q.qualityStatus}`);
  if (q.warehouseType) where.push(sql`w.type = ${q.warehouseType}`);
  if (q.keyword) where.push(containsAny(['m.code', 'm.name', 'm.spec'], q.keyword));
  const cond = sql.join(where, sql` AND `);
  const sortCol = (q.sortField && BALANCE_SORT[q.sortField]) || 'm.code';
  const dir = q.sortOrder?.startsWith('desc') ? sql`DESC` : sql`ASC`;
  const limit = q.pageNum === 0 ? sql`` : sql`LIMIT ${q.pageSize} OFFSET ${(q.pageNum - 1) * q.pageSize}`;
  const from = sql`FROM stock_balance b JOIN material m ON m.id = b.material_id JOIN warehouse w ON w.id = b.warehouse_id`;
  // Quantities are summed per base unit (粒, 件, g and 套 never add up); the money sums across.
  // A pair's matching rows are valued together: all of them are worth its value exactly.
  // The page as 库存查询 opens it (no filter, the default order) runs as named statements:
  // planning them cost more than running them on the demo's balances (bench auth-overhead).
  // Filtered pages stay unnamed: as many texts as filter combinations, each
  // seldom repeated on a connection, and a generic plan would ignore how selective the filter is.
  const named = where.length === (q.includeZero === 'true' ? 1 : 2) && !q.sortField;
  const hot = <T>(query: RawBuilder<T>) => (named ? prepared(query) : query);
  const byUnit = (
    await hot(sql<{ unitName: string; n: number; qty: string; allN: number; allAmount: string }>`
      SELECT unit_name, n, qty, (sum(n) OVER ())::int AS all_n, (sum(amount) OVER ())::text AS all_amount
        FROM (SELECT unit_name, sum(n)::int AS n, sum(q)::text AS qty, sum(amount) AS amount
                FROM (SELECT coalesce(u.name, '') AS unit_name, count(*) AS n, sum(b.quantity) AS q,
                             CASE WHEN sum(b.quantity) = v.quantity THEN v.value
                                  ELSE coalesce(round(sum(b.quantity) * v.value / nullif(v.quantity, 0), 2), 0) END AS amount
                        ${from} LEFT JOIN stock_value v ON v.material_id = b.material_id AND v.warehouse_id = b.warehouse_id
                        LEFT JOIN material_unit u ON u.id = m.unit_id
                       WHERE ${cond} GROUP BY u.name, b.material_id, b.warehouse_id, v.quantity, v.value) p
               GROUP BY unit_name) g
       ORDER BY n DESC, unit_name`).execute(inColumnNames(db))
  ).rows;
  const t = { n: byUnit[0]?.allN ?? 0, amount: byUnit[0]?.allAmount ?? '0' };
  if (q.pageNum === 0) checkAllRows(t.n);
  const rows = await hot(sql<any>`
    SELECT b.id, b.material_id, m.code AS material_code, m.name AS material_name, m.spec, u.name AS unit_name,
           b.warehouse_id, w.name AS warehouse_name, b.location_id, l.name AS location_name, b.batch_no,
           b.quality_status, b.quantity::text AS quantity, coalesce(v.avg_cost, 0)::text AS unit_cost,
           CASE WHEN b.quantity = v.quantity THEN v.value
                ELSE coalesce(round(b.quantity * v.value / nullif(v.quantity, 0), 2), 0) END::numeric(18,2)::text AS amount,
           b.first_in_at, b.updated_at
      ${from}
      LEFT JOIN shelf_location l ON l.id = b.location_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
      LEFT JOIN stock_value v ON v.material_id = b.material_id AND v.warehouse_id = b.warehouse_id
     WHERE ${cond}
     ORDER BY ${sql.raw(sortCol)} ${dir}, b.id ${dir}
     ${limit}`).execute(inColumnNames(db));
  return {
    list: rows.rows,
    total: t.n,
    pageNum: q.pageNum,
    pageSize: q.pageNum === 0 ? rows.rows.length : q.pageSize,
    totalsByUnit: byUnit.map((r) => ({ unitName: r.unitName, quantity: r.qty })),
    totalAmount: t.amount,
  };
}

const availableQuery = z.strictObject({
  materialId: zx.id,
  warehouseId: zx.id,
  locationId: zx.id.optional(),
  batchNo: z.string().trim().max(60).optional(),
  qualityStatus: z.enum(['qualified', 'pending', 'rejected']).default('qualified'),
});

/**
 * What an outbound line could take, in the material's base unit: the balances posting would
 * draw from (the line's warehouse and quality status; its location and batch when given, any
 * otherwise). Drafts reserve nothing, so it is the on-hand quantity of those balances.
 */
export async function availableQuantity(db: Db, q: z.infer<typeof availableQuery>) {
  const where = [
    sql`b.material_id = ${q.materialId}`,
    sql`b.warehouse_id = ${q.warehouseId}`,
    sql`b.quality_status = ${q.qualityStatus}`,
  ];
  if (q.locationId) where.push(sql`b.location_id = ${q.locationId}`);
  if (q.batchNo) where.push(sql`b.batch_no = ${q.batchNo}`);
  const row = await sql<{ quantity: string; unitName: string | null }>`
    SELECT coalesce((SELECT sum(b.quantity) FROM stock_balance b WHERE ${sql.join(where, sql` AND `)}), 0)::text AS quantity,
           u.name AS unit_name
      FROM material m LEFT JOIN material_unit u ON u.id = m.unit_id WHERE m.id = ${q.materialId}`.execute(db);
  const r = row.rows[0];
  if (!r) throw notFound('物料不存在或已被删除');
  return { quantity: r.quantity, unitName: r.unitName ?? '' };
}

const ledgerQuery = z.strictObject({
  ...pagingFields,
  materialId: zx.id.optional(),
  warehouseId: zx.id.optional(),
  locationId: zx.id.optional(),
  batchNo: z.string().trim().max(60).optional(),
  docType: z.string().max(30).optional(),
  docNo: z.string().trim().max(30).optional(),
  direction: z.enum(['in', 'out']).optional(),
  bizDateFrom: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .optional(),
  bizDateTo: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .optional(),
  /**
   * Keyset paging: the moves older than this one (the last row of the page before), newest
   * first, `pageSize` of them, at any depth; the answer's `nextBeforeId` continues.
   */
  beforeId: zx.id.optional(),
});

/**
 * A ledger page's window (`pageNum = 0`: every row, up to ALL_ROWS_MAX; `beforeId`: the page after
 * that move, read by the index from it).
 */
function ledgerWindow(q: z.infer<typeof ledgerQuery>, total: number, exact: boolean) {
  if (q.beforeId != null) {
    if (q.pageNum === 0) throw fieldError('beforeId', '按 beforeId 翻页时不能一次取全部（pageNum=0）');
    return { size: q.pageSize, fromEnd: false, take: q.pageSize, skip: 0 };
  }
  if (q.pageNum === 0) checkAllRows(total);
  const size = q.pageNum === 0 ? total : q.pageSize;
  return { size, ...pageWindow(total, exact, q.pageNum === 0 ? 1 : q.pageNum, size) };
}

/** The columns of a ledger page's rows (`s` the ledger), labels joined. */
const LEDGER_ROWS = sql`
  SELECT s.id, s.material_id, m.code AS material_code, m.name AS material_name, m.spec, u.name AS unit_name,
         s.warehouse_id, w.name AS warehouse_name, s.location_id, l.name AS location_name, s.batch_no, s.quality_status,
         s.quantity::text AS quantity, s.unit_cost::text AS unit_cost, s.amount::text AS amount,
         s.doc_type, s.doc_kind, s.doc_id, s.doc_no, s.line_id, s.biz_date, s.reversal_of, s.created_at,
         cu.first_name AS created_by_name`;
const LEDGER_JOINS = sql`
    JOIN material m ON m.id = s.material_id
    JOIN warehouse w ON w.id = s.warehouse_id
    LEFT JOIN shelf_location l ON l.id = s.location_id
    LEFT JOIN material_unit u ON u.id = m.unit_id
    LEFT JOIN app_user cu ON cu.id = s.created_by`;

/**
 * Ledger moves, newest first. Pages past the middle of an exact count are read from the other
 * end of the index (ORDER BY id ASC with a small offset), so the last page costs what the first
 * does.
 *
 * Scoped to a material (`materialId`, narrowed by warehouse, location and batch when given), the
 * count is exact, each move also carries `balanceAfter` — the scope's quantity right after it,
 * whatever the other filters — and the answer a `summary`. Both are summed in SQL from the side of
 * the ledger nearer the page: the on-hand quantity minus the newer moves, or the older moves plus
 * the page. The whole ledger is counted as resource lists are (`unscopedPage`).
 */
export async function ledgerPage(
  db: Db,
  q: z.infer<typeof ledgerQuery>,
): Promise<Page<any> & { summary?: LedgerSummary }> {
  // Balance-key filters: the same columns on stock_ledger and stock_balance.
  const keyOn = (a: string) => {
    const c = (col: string) => sql.ref(`${a}.${col}`);
    const out = [];
    if (q.materialId) out.push(sql`${c('material_id')} = ${q.materialId}`);
    if (q.warehouseId) out.push(sql`${c('warehouse_id')} = ${q.warehouseId}`);
    if (q.locationId) out.push(sql`${c('location_id')} = ${q.locationId}`);
    if (q.batchNo) out.push(sql`${c('batch_no')} = ${q.batchNo}`);
    return out;
  };
  const where = [sql`true`, ...keyOn('s')];
  if (q.docType) where.push(sql`s.doc_type = ${q.docType}`);
  if (q.docNo) where.push(sql`s.doc_no = ${q.docNo}`);
  if (q.direction === 'in') where.push(sql`s.quantity > 0`);
  if (q.direction === 'out') where.push(sql`s.quantity < 0`);
  if (q.bizDateFrom) where.push(sql`s.biz_date >= ${q.bizDateFrom}::date`);
  if (q.bizDateTo) where.push(sql`s.biz_date <= ${q.bizDateTo}::date`);
  const cond = sql.join(where, sql` AND `);
  if (!q.materialId) return unscopedPage(db, q, cond);
  const scope = (a: string) => sql.join(keyOn(a), sql` AND `);
  // The totals and the running balances come from one snapshot, so they agree with each other
  // even while others post.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => scopedPage(trx, q, cond, scope));
}

async function scopedPage(
  db: Db,
  q: z.infer<typeof ledgerQuery>,
  cond: RawBuilder<unknown>,
  scope: (alias: string) => RawBuilder<unknown>,
): Promise<Page<any> & { summary: LedgerSummary }> {
  const head = (
    await sql<{ n: number } & LedgerSummary>`
      WITH pair AS (SELECT b.warehouse_id, sum(b.quantity) AS q FROM stock_balance b WHERE ${scope('b')} GROUP BY b.warehouse_id),
      on_hand AS (
        SELECT coalesce(sum(p.q), 0) AS q,
               coalesce(sum(CASE WHEN p.q = v.quantity THEN v.value
                                 ELSE coalesce(round(p.q * v.value / nullif(v.quantity, 0), 2), 0) END), 0) AS value
          FROM pair p LEFT JOIN stock_value v ON v.material_id = ${q.materialId} AND v.warehouse_id = p.warehouse_id)
      SELECT count(*)::int AS n,
             coalesce(sum(s.quantity) FILTER (WHERE s.quantity > 0), 0)::text AS in_quantity,
             coalesce(-sum(s.quantity) FILTER (WHERE s.quantity < 0), 0)::text AS out_quantity,
             (SELECT q FROM on_hand)::text AS balance, (SELECT value FROM on_hand)::numeric(18,2)::text AS value
        FROM stock_ledger s WHERE ${cond}`.execute(db)
  ).rows[0];
  const { n: total, ...summary } = head;
  const { size, fromEnd, take, skip } = ledgerWindow(q, total, true);
  const ids = await sql<{ id: number }>`
    SELECT s.id FROM stock_ledger s WHERE ${cond} ${before(q)}
     ORDER BY s.id ${fromEnd ? sql`ASC` : sql`DESC`} LIMIT ${take} OFFSET ${skip}`.execute(db);
  const idList = ids.rows.map((r) => r.id);
  if (!idList.length)
    return { list: [], total, pageNum: q.pageNum, pageSize: size, summary, ...next(q, idList) };
  const min = Math.min(...idList);
  const max = Math.max(...idList);
  const after = fromEnd
    ? sql`(SELECT coalesce(sum(x.quantity), 0) FROM stock_ledger x WHERE ${scope('x')} AND x.id < ${min})
          + sum(p.quantity) OVER (ORDER BY p.id)`
    : // The on-hand quantity read above, in the same snapshot.
      sql`${head.balance}::numeric
          - (SELECT coalesce(sum(x.quantity), 0) FROM stock_ledger x WHERE ${scope('x')} AND x.id > ${max})
          - coalesce(sum(p.quantity) OVER (ORDER BY p.id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`;
  const rows = (
    await sql<any>`
      WITH running AS (SELECT p.id, (${after})::text AS balance_after FROM stock_ledger p WHERE ${scope('p')} AND p.id BETWEEN ${min} AND ${max})
      ${LEDGER_ROWS}, r.balance_after
        FROM stock_ledger s
        ${LEDGER_JOINS}
        JOIN running r ON r.id = s.id
       WHERE s.id = ANY(${sql.val(idList)}::bigint[])
       ORDER BY s.id DESC`.execute(db)
  ).rows;
  return { list: rows, total, pageNum: q.pageNum, pageSize: size, summary, ...next(q, idList) };
}

/**
 * The order of a ledger page, newest first: by id, or by business date then id when the page is
 * filtered by business date (and by nothing narrower: a document number or a material has its own
 * index ending in id). A real ledger's dates grow with its ids, so a date range a year back read
 * newest-id-first walks every newer move before the first match; read by `(biz_date, id)` it
 * starts at the range (issue 39 §1).
 */
type LedgerOrder = 'id' | 'date';
const ledgerOrder = (q: z.infer<typeof ledgerQuery>): LedgerOrder =>
  !q.materialId && !q.docNo && (q.bizDateFrom || q.bizDateTo) ? 'date' : 'id';
const orderBy = (order: LedgerOrder, dir: 'ASC' | 'DESC') =>
  order === 'date' ? sql`s.biz_date ${sql.raw(dir)}, s.id ${sql.raw(dir)}` : sql`s.id ${sql.raw(dir)}`;

/** A keyset page's bound: the moves older than `beforeId` in the page's order. */
const before = (q: z.infer<typeof ledgerQuery>, order: LedgerOrder = 'id') =>
  q.beforeId == null
    ? sql``
    : order === 'date'
      ? sql`AND (s.biz_date, s.id) < (SELECT b.biz_date, b.id FROM stock_ledger b WHERE b.id = ${q.beforeId})`
      : sql`AND s.id < ${q.beforeId}`;

/** A keyset page's continuation: the last move of a full page (the oldest in its order), else null. */
const next = (q: z.infer<typeof ledgerQuery>, ids: number[]) =>
  q.beforeId == null ? {} : { nextBeforeId: ids.length === q.pageSize ? Number(ids[ids.length - 1]) : null };

/**
 * The whole ledger (not scoped to a material), newest first, counted as resource lists are: exact
 * up to COUNT_CAP, above it `total: COUNT_CAP, totalExact: false` and the pages up to the cap read
 * forward. An exact count of millions of moves is a scan of them all on every page; this one
 * stops at the cap (bench stock-posting). Pages past the cap by number are not offered; `beforeId` reads on from any move, at any
 * depth, by the index.
 */
async function unscopedPage(db: Db, q: z.infer<typeof ledgerQuery>, cond: RawBuilder<unknown>) {
  const counted = (
    await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM stock_ledger s WHERE ${cond} LIMIT ${COUNT_CAP + 1}) c`.execute(
      db,
    )
  ).rows[0].n;
  const { total, exact } = cappedTotal(counted);
  const { size, fromEnd, take, skip } = ledgerWindow(q, total, exact);
  const order = ledgerOrder(q);
  const list = (
    await sql<any>`
      ${LEDGER_ROWS}
        FROM (SELECT s.id FROM stock_ledger s WHERE ${cond} ${before(q, order)}
               ORDER BY ${orderBy(order, fromEnd ? 'ASC' : 'DESC')} LIMIT ${take} OFFSET ${skip}) p
        JOIN stock_ledger s ON s.id = p.id
        ${LEDGER_JOINS}
       ORDER BY ${orderBy(order, 'DESC')}`.execute(db)
  ).rows;
  return {
    list,
    total,
    pageNum: q.pageNum,
    pageSize: size,
    ...(exact ? {} : { totalExact: false as const }),
    ...next(
      q,
      list.map((r: { id: number }) => r.id),
    ),
  };
}

// ------------------------------------------------------------------ answers

const id = z.number().int();
const dec = z.string();
/** What a balance and a ledger move both name: material, warehouse, location, batch and status. */
const stockKey = {
  id,
  materialId: id,
  materialCode: z.string(),
  materialName: z.string(),
  spec: z.string().nullable(),
  unitName: z.string().nullable(),
  warehouseId: id,
  warehouseName: z.string(),
  locationId: id.nullable(),
  locationName: z.string().nullable(),
  batchNo: z.string(),
  qualityStatus: z.string(),
  quantity: dec,
  unitCost: dec,
  amount: dec,
};
const paged = {
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  totalExact: z.literal(false).optional(),
};
const balancePageAnswer = z.object({
  list: z.array(z.object({ ...stockKey, firstInAt: z.string(), updatedAt: z.string() })),
  ...paged,
  totalsByUnit: z.array(z.object({ unitName: z.string(), quantity: dec })),
  totalAmount: dec,
});
const ledgerPageAnswer = z.object({
  list: z.array(
    z.object({
      ...stockKey,
      docType: z.string(),
      docKind: z.string(),
      docId: id,
      docNo: z.string(),
      lineId: id.nullable(),
      bizDate: z.string(),
      reversalOf: id.nullable(),
      createdAt: z.string(),
      createdByName: z.string().nullable(),
      /** Scoped to a material: the scope's quantity right after the move. */
      balanceAfter: dec.optional(),
    }),
  ),
  ...paged,
  /** With `beforeId`: the move to read on from, null after the last page. */
  nextBeforeId: id.nullable().optional(),
  /** Scoped to a material: its moves in and out, on hand now and its value. */
  summary: z.object({ inQuantity: dec, outQuantity: dec, balance: dec, value: dec }).optional(),
});

export function stockQueryRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stock-balance/page',
    permission: 'warehouse:stock:list',
    query: balanceQuery,
    response: balancePageAnswer,
    handler: ({ query, app: { db } }) => balancePage(db, query),
  });

  // Outbound and transfer forms show each line's 可用 to whoever may write those documents.
  route(app, {
    method: 'GET',
    url: '/api/v1/stock-balance/available',
    permission: 'warehouse:stock:list',
    alsoAllowedBy: [stockOutboundResource, stockTransferResource].flatMap((def) =>
      [def.permission, ...allScopePrefixes(def)].flatMap((p) => [
        `${p}:add` as Permission,
        `${p}:edit` as Permission,
      ]),
    ),
    query: availableQuery,
    response: z.object({ quantity: dec, unitName: z.string() }),
    handler: ({ query, app: { db } }) => availableQuantity(db, query),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/stock-ledger/page',
    permission: 'warehouse:stock:list',
    query: ledgerQuery,
    response: ledgerPageAnswer,
    handler: ({ query, app: { db } }) => ledgerPage(db, query),
  });

  // The material card's 入库记录 / 出库记录, from the ledger.
  for (const [path, direction] of [
    ['warehousingRecord', 'in'],
    ['outboundRecord', 'out'],
  ] as const) {
    route(app, {
      method: 'GET',
      url: `/api/v1/material-info/${path}/:id`,
      permission: 'factory:material:list',
      params: idParams,
      query: z.strictObject({ pageNum: zx.pageNum, pageSize: zx.pageSize }),
      response: ledgerPageAnswer,
      handler: ({ params, query, app: { db } }) =>
        ledgerPage(db, { ...query, materialId: params.id, direction }),
    });
  }
}
