/** A page answer: `result: { list, total, pageNum, pageSize }`. */
export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
  /** false when the server stopped counting at its cap: `total` is a lower bound ("10,000+"). */
  totalExact?: false;
}

/** Standard paging query (pageNum is 1-based, 0 means every record). */
export interface PageQuery {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}
