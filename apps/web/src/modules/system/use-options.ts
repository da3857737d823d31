import { useQuery } from '@tanstack/react-query';
import { deptApi, roleApi, systemKeys } from './system.api.ts';

/** The whole department tree (for filters and pickers). */
export function useDeptTree() {
  return useQuery({
    queryKey: [...systemKeys.depts, 'tree', ''],
    queryFn: () => deptApi.tree(),
    staleTime: 60_000,
  });
}

/** Every role as an option. */
export function useRoleOptions() {
  return useQuery({ queryKey: systemKeys.roleOptions, queryFn: roleApi.listAll, staleTime: 60_000 });
}

export const STATUS_OPTIONS = [
  { value: '1', label: '正常' },
  { value: '0', label: '停用' },
] as const;
