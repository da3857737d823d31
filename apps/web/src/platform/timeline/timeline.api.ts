import { http } from '../api/client.ts';

/** One entry of a record's timeline as the server words it (`GET /api/v1/timeline/record/…`). */
interface Who {
  id: number;
  at: string;
  userId: number | null;
  userName: string | null;
}
export type TimelineEntry =
  | (Who & {
      kind: 'history';
      action: string;
      actionLabel: string;
      changes: { field: string; label: string; from: string; to: string }[];
      fromState: string | null;
      toState: string | null;
      reason: string | null;
    })
  | (Who & { kind: 'comment'; content: string; mentions: { id: number; name: string }[]; mine: boolean })
  | (Who & { kind: 'attachment'; fileName: string; mimeType: string; size: number; removable: boolean });

export interface RecordTimelineAnswer {
  resource: string;
  resourceLabel: string;
  id: number;
  title: string;
  entries: TimelineEntry[];
}

export interface Mentionable {
  id: number;
  userName: string;
  firstName: string | null;
}

export const timelineKeys = {
  record: (resource: string, id: number) => ['timeline', resource, id] as const,
};

const base = (resource: string, id: number) => `/api/v1/timeline/record/${resource}/${id}`;

export const timelineApi = {
  get: (resource: string, id: number) => http.get<RecordTimelineAnswer>(base(resource, id)),
  mentionable: (resource: string, id: number, keyword: string) =>
    http.get<Mentionable[]>(`${base(resource, id)}/mentionable`, { keyword }),
  comment: (resource: string, id: number, body: { content: string; mentions: number[] }) =>
    http.post<Extract<TimelineEntry, { kind: 'comment' }>>(`${base(resource, id)}/comment`, body),
  removeComment: (id: number) => http.delete<null>(`/api/v1/timeline/comment/${id}`),
  removeFile: (id: number) => http.delete<null>(`/api/v1/timeline/file/${id}`),
  uploadUrl: (resource: string, id: number) => `${base(resource, id)}/file`,
  fileUrl: (id: number) => `/api/v1/timeline/file/${id}`,
};
