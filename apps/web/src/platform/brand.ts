import { useQuery } from '@tanstack/react-query';
import { http } from './api/client.ts';

/** 系统设置 → 公司信息: the name and logo (a data URL) on the login page and printouts. */
export interface Brand {
  companyName: string;
  logo: string | null;
}

export const BRAND_KEY = ['sysSetting', 'brand'] as const;

/** The company as 系统设置 names it; public, so the login page can show it. */
export function useBrand(): Brand | undefined {
  return useQuery({
    queryKey: BRAND_KEY,
    queryFn: () =>
      http.get<Brand>('/api/v1/sysSetting/brand', undefined, { silent: true, skipSessionHandling: true }),
    staleTime: 60_000,
  }).data;
}
