import type { MessageKind } from '@ringmes/domain';
import { http } from '../../../platform/api/client.ts';
import type { Page } from '../../../platform/api/types.ts';

export interface Message {
  id: number;
  title: string;
  content: string;
  kind: string;
  link?: string | null;
  read: boolean;
  createdAt: string;
}

export const messageKeys = {
  all: ['message'] as const,
  unread: ['message', 'unreadCount'] as const,
  page: (params: object) => ['message', 'page', params] as const,
};

export const messageApi = {
  unreadCount: () => http.get<{ count: number }>('/api/v1/message/unreadCount'),
  /** `read` filters by state; the server takes it as '1' (read) or '0' (unread). `kind` by type. */
  page: ({ read, ...params }: { pageNum: number; pageSize: number; read?: boolean; kind?: MessageKind }) =>
    http.get<Page<Message>>('/api/v1/message/page', {
      ...params,
      read: read === undefined ? undefined : read ? '1' : '0',
    }),
  read: (id: number) => http.post<null>(`/api/v1/message/read/${id}`),
  readAll: () => http.post<null>('/api/v1/message/readAll'),
};
