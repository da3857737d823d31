import type { PrintDocTypeName, PrintLayout } from '@ringmes/domain';
import { http } from '../api/client.ts';

/** A stored 打印模板 (server: apps/server/src/modules/system/print-template.routes.ts). */
export interface PrintTemplate {
  id: number;
  docType: PrintDocTypeName;
  name: string;
  isDefault: boolean;
  remark: string | null;
  layout: PrintLayout;
  updatedAt: string;
  version: number;
}
export type PrintTemplateRow = Omit<PrintTemplate, 'layout'> & { page: string };

/** The layout a type prints with: its default template, else the code's (`id: null`). */
export interface EffectiveTemplate {
  id: number | null;
  name: string;
  layout: PrintLayout;
}

export const printTemplateKeys = {
  all: ['print-template'] as const,
  list: (docType?: string) => ['print-template', 'list', docType ?? ''] as const,
  info: (id: number | undefined) => ['print-template', 'info', id] as const,
  default: (docType: string) => ['print-template', 'default', docType] as const,
};

export const printTemplateApi = {
  list: (docType?: PrintDocTypeName) =>
    http.get<PrintTemplateRow[]>('/api/v1/print-template/list', docType ? { docType } : undefined),
  info: (id: number) => http.get<PrintTemplate>(`/api/v1/print-template/info/${id}`),
  default: (docType: PrintDocTypeName) =>
    http.get<EffectiveTemplate>('/api/v1/print-template/default', { docType }),
  add: (body: { docType: PrintDocTypeName; name: string; layout: PrintLayout; isDefault?: boolean }) =>
    http.post<PrintTemplate>('/api/v1/print-template/add', body),
  edit: (id: number, body: { name?: string; layout?: PrintLayout; version?: number }) =>
    http.put<PrintTemplate>(`/api/v1/print-template/edit/${id}`, body),
  setDefault: (id: number) => http.post<PrintTemplate>(`/api/v1/print-template/set-default/${id}`),
  remove: (id: number) => http.delete<null>(`/api/v1/print-template/delete/${id}`),
};
