import type { ResourceDef } from '@ringmes/domain';
import type { QueryClient } from '@tanstack/react-query';
import { type QueryParams, request } from '../api/client.ts';
import { download } from '../api/download.ts';
import type { Page } from '../api/types.ts';
import { DEFAULT_PAGE_SIZE } from '../ui/server-table.ts';

/** A record as the generic API answers it: declared fields, `<base>Name` labels, audit columns, lines. */
export type ResourceRow = Record<string, any> & {
  id: number;
  createdAt?: string;
  updatedAt?: string;
  version?: number;
};

export interface ImportReport {
  total: number;
  valid: number;
  imported: number;
  errors: { row: number; column: string; message: string }[];
}

/** Query keys: everything of one resource sits under ['resource', name] so one invalidation refreshes it. */
export const resourceKeys = {
  all: (name: string) => ['resource', name] as const,
  page: (name: string, query: QueryParams) => ['resource', name, 'page', query] as const,
  rows: (name: string, query?: QueryParams) => ['resource', name, 'rows', query ?? {}] as const,
  info: (name: string, id: number | undefined) => ['resource', name, 'info', id] as const,
  tree: (name: string) => ['resource', name, 'tree'] as const,
  options: (name: string) => ['options', name] as const,
};

/**
 * What a list asks first when opened without filters in its address: page 1 at the default size,
 * the server's default sort (`useServerTable`'s starting state).
 */
export const FIRST_PAGE: QueryParams = { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE };

/**
 * Asks for a list's first page ahead of the page (sign-in straight to a list): the list finds it
 * in the cache under the same key and draws its rows on its first render.
 */
export function prefetchFirstPage(client: QueryClient, def: ResourceDef): Promise<void> {
  // Silent: a page the user may not open answers 403 to the page itself, not with a toast here.
  return client.prefetchQuery({
    queryKey: resourceKeys.page(def.name, FIRST_PAGE),
    queryFn: () => resourceApi(def).page(FIRST_PAGE, { silent: true }),
  });
}

interface CallExtra {
  silent?: boolean;
}

/** The generic API of a resource (see the server's platform/resource/crud.ts), paths from the definition. */
export function resourceApi(def: ResourceDef) {
  const base = `/api/v1/${def.name}`;
  const edit = def.api?.edit ?? { method: 'PUT' as const, path: 'edit' };
  const del = def.api?.delete ?? { method: 'DELETE' as const, path: 'delete' };
  return {
    page: (query: QueryParams, extra: CallExtra = {}) =>
      request<Page<ResourceRow>>({ url: `${base}/${def.api?.page ?? 'page'}`, params: query, ...extra }),
    /** Every row matching the filters (pageNum 0), for trees and small embedded tables. */
    rows: (query: QueryParams = {}) =>
      request<Page<ResourceRow>>({
        url: `${base}/${def.api?.page ?? 'page'}`,
        params: { ...query, pageNum: 0 },
      }).then((p) => p.list),
    info: (id: number) => request<ResourceRow>({ url: `${base}/info/${id}` }),
    add: (body: Record<string, unknown>, extra: CallExtra = {}) =>
      request<ResourceRow>({ url: `${base}/add`, method: 'POST', data: body, ...extra }),
    edit: (id: number, body: Record<string, unknown>, extra: CallExtra = {}) =>
      edit.method === 'POST'
        ? request<ResourceRow>({
            url: `${base}/${edit.path}`,
            method: 'POST',
            data: { ...body, id },
            ...extra,
          })
        : request<ResourceRow>({ url: `${base}/${edit.path}/${id}`, method: 'PUT', data: body, ...extra }),
    remove: (ids: number[]) =>
      del.method === 'POST'
        ? request<null>({
            url: `${base}/${del.path}`,
            method: 'POST',
            data: ids.length === 1 ? { id: ids[0] } : { ids },
          })
        : request<null>({ url: `${base}/${del.path}/${ids.join(',')}`, method: 'DELETE' }),
    tree: () => request<ResourceRow[]>({ url: `${base}/tree` }),
    async downloadTemplate(): Promise<void> {
      const { fileName } = await request<{ fileName: string }>({ url: `${base}/importTemplate` });
      await download('/common/download', { fileName, delete: 'true' });
    },
    importUrl: (dryRun: boolean) => `${base}/import?dryRun=${dryRun}`,
    async downloadLineTemplate(): Promise<void> {
      const { fileName } = await request<{ fileName: string }>({ url: `${base}/importLinesTemplate` });
      await download('/common/download', { fileName, delete: 'true' });
    },
    importLinesUrl: `${base}/importLines`,
  };
}

export type ResourceApi = ReturnType<typeof resourceApi>;
