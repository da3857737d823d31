import type { Kysely, SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';
import { badRequest } from './errors.ts';
import { zx } from './http/validation.ts';

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
  /**
   * Present (false) only when the list has more than COUNT_CAP rows and `paginate` was asked to
   * cap: `total` is then COUNT_CAP, a lower bound ("10,000+"), not the exact count.
   */
  totalExact?: false;
}

/**
 * Lists that may grow to millions of rows (resources: materials, customers, documents) count at
 * most this many matching rows per page call: beyond it the answer says `total: COUNT_CAP,
 * totalExact: false` and the screen shows "10,000+ 条". Counting a table of millions scans them all
 * on every page call; counting up to 10,001 rows stays cheap.
 */
export const COUNT_CAP = 10_000;

/** The paging fields every list call accepts (architecture.md, "HTTP contract"). */
export const pagingFields = {
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  sortField: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,40}$/, '排序字段不正确')
    .optional(),
  sortOrder: zx.sortOrder,
};

/**
 * `pageNum = 0` (the spec's "all rows") answers at most this many rows; above it the list must be
 * narrowed by filters (docs/api.md). Bigger reads are exports; dropdowns search the server.
 */
export const ALL_ROWS_MAX = 5000;

/** Refuses an all-rows read of `total` rows over ALL_ROWS_MAX. */
export function checkAllRows(total: number) {
  if (total > ALL_ROWS_MAX) throw badRequest(`记录过多（共 ${total} 条），请输入条件缩小范围`);
}

/** A count taken up to COUNT_CAP + 1 rows: above the cap it answers the cap, not exact. */
export function cappedTotal(counted: number): { total: number; exact: boolean } {
  return counted > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total: counted, exact: true };
}

/**
 * Where page `pageNum` lies among `total` rows: `take` rows after `skip` in the list's order, or,
 * past the middle of an exact total, in reverse order from the other end (`fromEnd`; the rows then
 * come back reversed), so a last page costs what a first one does.
 */
export function pageWindow(total: number, exact: boolean, pageNum: number, pageSize: number) {
  const offset = (pageNum - 1) * pageSize;
  const fromEnd = exact && offset > total / 2;
  const take = fromEnd ? Math.max(0, Math.min(pageSize, total - offset)) : pageSize;
  return { fromEnd, take, skip: fromEnd ? Math.max(0, total - offset - take) : offset };
}

export interface PageArgs {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc' | 'ascend' | 'descend';
}

/**
 * A read of every row is fetched this many rows at a time (a portal on PostgreSQL): parsed batch by
 * batch, with turns of the event loop between, not as one long stretch.
 */
export const ROWS_PER_FETCH = 500;

/** How a list is ordered: the asked sort field if it is sortable, else the default; the id breaks ties. */
export interface ListOrder {
  args: Pick<PageArgs, 'sortField' | 'sortOrder'>;
  sortable: Record<string, string>;
  defaultSort: { column: string; desc: boolean };
  idColumn: string;
  totalOrder?: ReadonlySet<string>;
}

/** `query` in the list's order (`reverse`: the other way round). */
export function orderedBy<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  o: ListOrder,
  reverse = false,
): Q {
  const { args, sortable, defaultSort, idColumn, totalOrder } = o;
  const column = (args.sortField && sortable[args.sortField]) || defaultSort.column;
  const desc =
    args.sortField && sortable[args.sortField] ? !!args.sortOrder?.startsWith('desc') : defaultSort.desc;
  const dir = desc !== reverse ? 'desc' : 'asc';
  const q = query.orderBy(sql.ref(column), dir);
  return (column !== idColumn && !totalOrder?.has(column) ? q.orderBy(sql.ref(idColumn), dir) : q) as Q;
}

/** The number of rows `query` selects. */
export async function countRows(query: SelectQueryBuilder<any, any, any>): Promise<number> {
  return Number(
    ((await query.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as any)?.n ?? 0,
  );
}

/**
 * Runs a filtered query as a page: `pageNum = 0` answers every row, up to ALL_ROWS_MAX. `sortable` maps the API's
 * sort fields to columns (anything else is refused by the schema or ignored); the id breaks ties
 * so pages are stable (unless the column is in `totalOrder`). Pages past the middle are read from
 * the other end in reverse order, so the last page of a long list costs what the first does.
 */
export async function paginate<T>(
  query: SelectQueryBuilder<any, any, any>,
  args: PageArgs,
  sortable: Record<string, string>,
  defaultSort: { column: string; desc: boolean },
  idColumn: string,
  /** Count at most COUNT_CAP rows (a subquery with LIMIT, run on this database). */
  capOn?: Kysely<any>,
  /**
   * Sort columns that order the rows on their own (unique and never null): the id is no tie-breaker
   * there, so PostgreSQL reads a deep page straight from the column's index instead of sorting
   * every row it skips again by id (a deep page of the materials by code; bench master-list).
   */
  totalOrder?: ReadonlySet<string>,
): Promise<Page<T>> {
  const ordered = (reverse: boolean) =>
    orderedBy(query, { args, sortable, defaultSort, idColumn, totalOrder }, reverse);
  const count = () => countRows(query);
  if (args.pageNum === 0) {
    // One row over the cap tells that there are too many; only then are they counted.
    const list: T[] = [];
    for await (const row of ordered(false)
      .limit(ALL_ROWS_MAX + 1)
      .stream(ROWS_PER_FETCH))
      list.push(row as T);
    if (list.length > ALL_ROWS_MAX) checkAllRows(await count());
    return { list, total: list.length, pageNum: 0, pageSize: list.length };
  }
  const capped = () =>
    query
      .clearSelect()
      .select(sql`1`.as('one'))
      .limit(COUNT_CAP + 1);
  if (capOn && args.pageNum === 1) {
    // The first page and its capped count in one statement: the count is an uncorrelated
    // sub-select, which PostgreSQL runs once (an InitPlan). One round trip instead of two, and on
    // PGlite one pass through its backend instead of two. An empty first page means no rows.
    const rows = (await ordered(false)
      .select(sql<string | number>`(SELECT count(*) FROM ${capped()} AS capped)`.as('page_total'))
      .limit(args.pageSize)
      .execute()) as (T & { pageTotal?: string | number })[];
    const { total, exact } = cappedTotal(rows.length ? Number(rows[0].pageTotal) : 0);
    // The count is each row's last property: deleting it keeps the row a fast object.
    for (const r of rows) delete r.pageTotal;
    return {
      list: rows as T[],
      total,
      pageNum: 1,
      pageSize: args.pageSize,
      ...(exact ? {} : { totalExact: false as const }),
    };
  }
  const { total, exact } = capOn
    ? cappedTotal(
        Number(
          (await sql<{ n: string | number }>`SELECT count(*) AS n FROM ${capped()} AS capped`.execute(capOn))
            .rows[0]?.n ?? 0,
        ),
      )
    : { total: await count(), exact: true };
  const offset = (args.pageNum - 1) * args.pageSize;
  /**
   * `limit` rows after skipping `skip`. A resource list's select list has a sub-select per
   * reference label, which PostgreSQL evaluates for every row it skips too (a deep page of the
   * materials was many times its first): past the first page, the page's ids are found first and
   * only its rows are read whole (bench master-list).
   */
  const read = async (reverse: boolean, limit: number, skip: number) => {
    if (!capOn || skip === 0) return (await ordered(reverse).limit(limit).offset(skip).execute()) as T[];
    const ids = ordered(reverse).clearSelect().select(sql.ref(idColumn).as('id')).limit(limit).offset(skip);
    return (await ordered(reverse).where(sql.ref(idColumn), 'in', ids).execute()) as T[];
  };
  let list: T[] = [];
  if (!exact) {
    // The end is unknown: read forward (pages up to the cap, as the screen offers them).
    list = await read(false, args.pageSize, offset);
    return { list, total, pageNum: args.pageNum, pageSize: args.pageSize, totalExact: false };
  }
  if (offset < total) {
    const w = pageWindow(total, true, args.pageNum, args.pageSize);
    list = w.fromEnd ? (await read(true, w.take, w.skip)).reverse() : await read(false, w.take, w.skip);
  }
  return { list, total, pageNum: args.pageNum, pageSize: args.pageSize };
}
