import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../api/client.ts';
import { refTarget } from './ref-targets.ts';
import { resourceKeys } from './resource-api.ts';

/** One choice of a reference picker. */
export interface RefOption {
  value: number;
  label: string;
  code?: string;
  name?: string;
  [key: string]: unknown;
}

export interface RefTreeNode extends RefOption {
  disabled?: boolean;
  children?: RefTreeNode[];
}

/** Option lists change rarely: cached for 10 minutes, refreshed on demand or after an edit of the resource. */
export const OPTIONS_STALE_MS = 10 * 60_000;

interface UserOption {
  userId: number;
  userName: string;
  firstName: string;
}

/** What an option list is asked for (the server's option query, docs/api.md "Options"). */
export interface OptionQuery {
  /** Matches the name or the code. */
  keyword?: string;
  /** These records, whether active or not. */
  ids?: number[];
  limit?: number;
  /** Filters on option fields (`warehouseId` of locations); `all: 'true'` includes inactive records. */
  [filter: string]: string | number | number[] | undefined;
}

/**
 * `GET /api/v1/<name>/options` (active records only — customers with state 1); users come from
 * `/api/v1/user/getOptionUser`. Every signed-in user may call these for master data; they answer
 * only what a dropdown shows, never prices or other confidential fields.
 */
export async function loadOptions(resource: string, query: OptionQuery = {}): Promise<RefOption[]> {
  const { ids, ...rest } = query;
  const params = { ...rest, ...(ids ? { ids: ids.join(',') } : {}) };
  if (resource === 'user') {
    const users = await request<UserOption[]>({ url: '/api/v1/user/getOptionUser', params });
    return users.map((u) => ({
      value: u.userId,
      label: u.firstName ? `${u.firstName}（${u.userName}）` : u.userName,
      name: u.firstName,
      code: u.userName,
    }));
  }
  const rows = await request<RefOption[]>({ url: `/api/v1/${resource}/options`, params });
  return rows.map((r) => ({ ...r, value: Number(r.value ?? r.id), label: String(r.label) }));
}

/** The server answers at most this many options; a full list means: search on the server instead. */
export const OPTIONS_LIMIT = 5000;

/** A search-as-you-type picker shows this many matches at a time. */
export const REMOTE_OPTIONS_LIMIT = 50;

/**
 * Big tables (materials, customers, suppliers, equipment — `options.remote` in their definitions —
 * and users) are never loaded whole: their pickers ask the server with the typed text.
 */
export function isRemote(resource: string | undefined): boolean {
  return resource === 'user' || Boolean(refTarget(resource).remote);
}

/** The cached option list of a small resource (`useOptions('material-unit')`). */
export function useOptions(resource: string | undefined, enabled = true) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: resourceKeys.options(resource ?? ''),
    queryFn: () => loadOptions(resource as string),
    enabled: Boolean(resource) && enabled,
    staleTime: OPTIONS_STALE_MS,
    gcTime: 30 * 60_000,
  });
  return {
    options: query.data ?? [],
    loading: query.isLoading,
    /** The list was cut at the server's limit: pickers search on the server. */
    truncated: (query.data?.length ?? 0) >= OPTIONS_LIMIT,
    refresh: () => client.invalidateQueries({ queryKey: resourceKeys.options(resource ?? '') }),
  };
}

/** Options matching a keyword (the first ones when it is empty), searched on the server. */
export function useOptionSearch(resource: string | undefined, keyword: string, enabled: boolean) {
  const query = useQuery({
    queryKey: [...resourceKeys.options(resource ?? ''), 'search', keyword],
    queryFn: () => loadOptions(resource as string, { keyword, limit: REMOTE_OPTIONS_LIMIT }),
    enabled: Boolean(resource) && enabled,
    staleTime: OPTIONS_STALE_MS,
    placeholderData: keepPreviousData,
  });
  return { options: query.data, loading: query.isFetching };
}

/** The options of these ids (labels of selected values a remote picker has not listed). */
export function useOptionsById(resource: string | undefined, ids: number[]) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const query = useQuery({
    queryKey: [...resourceKeys.options(resource ?? ''), 'ids', sorted.join(',')],
    queryFn: () => loadOptions(resource as string, { ids: sorted }),
    enabled: Boolean(resource) && sorted.length > 0,
    staleTime: OPTIONS_STALE_MS,
  });
  return query.data ?? [];
}

function markInactive(nodes: RefTreeNode[], isActive: (n: RefTreeNode) => boolean): RefTreeNode[] {
  return nodes.map((n) => ({
    ...n,
    value: Number(n.value ?? n.id),
    label: String(n.label ?? n.name),
    disabled: !isActive(n),
    children: n.children?.length ? markInactive(n.children, isActive) : undefined,
  }));
}

/** A tree resource (物料类型) as tree-select data from `GET …/tree`; disabled records cannot be picked. */
export function useTreeOptions(resource: string | undefined, enabled = true) {
  const client = useQueryClient();
  const { active } = refTarget(resource);
  const query = useQuery({
    queryKey: resourceKeys.tree(resource ?? ''),
    queryFn: async () => {
      const nodes = await request<RefTreeNode[]>({ url: `/api/v1/${resource}/tree` });
      return markInactive(nodes, (n) => !active || String(n[active.name]) === String(active.value));
    },
    enabled: Boolean(resource) && enabled,
    staleTime: OPTIONS_STALE_MS,
  });
  return {
    tree: query.data ?? [],
    loading: query.isLoading,
    refresh: () => client.invalidateQueries({ queryKey: resourceKeys.tree(resource ?? '') }),
  };
}

/** Call after a record of `resource` changed: its lists, details, options and tree reload. */
export function invalidateResource(client: ReturnType<typeof useQueryClient>, resource: string) {
  void client.invalidateQueries({ queryKey: resourceKeys.all(resource) });
  void client.invalidateQueries({ queryKey: resourceKeys.options(resource) });
}
