import type { TableProps } from 'antd';
import { useState } from 'react';

export const DEFAULT_PAGE_SIZE = 20;

export interface Sort {
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

/**
 * Paging and sorting of a list the server pages: the state, the query fields it adds, the
 * Table's `pagination` and `onChange`, and each sortable column's current order. A column's
 * sort key is its `key`, else its `dataIndex`. Without a chosen sort the query asks for
 * `defaultSort` (and no column shows an arrow). A new page size or sort starts from page 1.
 */
export function useServerTable({
  defaultSort = {},
  pageSize: initialSize = DEFAULT_PAGE_SIZE,
}: {
  defaultSort?: Sort;
  pageSize?: number;
} = {}) {
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: initialSize });
  const [sort, setSort] = useState<Sort>({});

  const onChange: NonNullable<TableProps<any>['onChange']> = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = s?.columnKey ?? s?.field;
    const next: Sort =
      s?.order && key !== undefined
        ? { sortField: String(key), sortOrder: s.order === 'ascend' ? 'asc' : 'desc' }
        : {};
    const sortChanged = next.sortField !== sort.sortField || next.sortOrder !== sort.sortOrder;
    setSort(next);
    const pageSize = pagination.pageSize ?? initialSize;
    setPaging({
      pageNum: pageSize !== paging.pageSize || sortChanged ? 1 : (pagination.current ?? 1),
      pageSize,
    });
  };

  const asked = sort.sortField ? sort : defaultSort;
  return {
    /** The sort the server is asked for. */
    sort: asked,
    /** Paging and sort query fields. */
    query: { ...asked, ...paging },
    firstPage: () => setPaging((p) => ({ ...p, pageNum: 1 })),
    /** Back to page 1 and the default sort (a search form's 重置). */
    reset: () => {
      setSort({});
      setPaging((p) => ({ ...p, pageNum: 1 }));
    },
    /** The chosen sort (none when the list is on its default) and page size, as a saved view keeps them. */
    chosen: { ...sort, pageSize: paging.pageSize },
    /** Sets the sort and page size of a saved view, from page 1. */
    apply: (v: Sort & { pageSize?: number }) => {
      setSort(v.sortField ? { sortField: v.sortField, sortOrder: v.sortOrder ?? 'asc' } : {});
      setPaging({ pageNum: 1, pageSize: v.pageSize ?? initialSize });
    },
    sortOrderOf: (name: string): 'ascend' | 'descend' | null =>
      sort.sortField === name ? (sort.sortOrder === 'asc' ? 'ascend' : 'descend') : null,
    /** `exact: false` (the server's capped count): the total shows as "10,000+". */
    pagination: (total: number, exact?: boolean) => ({
      current: paging.pageNum,
      pageSize: paging.pageSize,
      total,
      showSizeChanger: true,
      showQuickJumper: true,
      pageSizeOptions: [10, 20, 50, 100],
      showTotal: (t: number) => (exact === false ? `共 ${t.toLocaleString('en')}+ 条` : `共 ${t} 条`),
    }),
    onChange,
  };
}
