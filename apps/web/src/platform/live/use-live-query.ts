import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../api/client.ts';

export type LiveState = 'connecting' | 'live' | 'retrying';

/** A 60-second, one-stream ticket for a live view (`POST /api/v1/dashboard/ticket`). */
export const liveTicket = (scope: string) =>
  http.post<{ ticket: string; expiresIn: number }>('/api/v1/dashboard/ticket', { scope }, { silent: true });

/**
 * Data the server pushes (the live channel: 车间看板, the workshops' task boards): `queryFn` once,
 * then every frame the server writes to the stream of `scope` replaces it — no polling. The stream
 * opens with a short-lived ticket; when it drops, a new ticket and a new stream follow after a
 * growing pause (1 s … 30 s).
 */
export function useLiveQuery<T>({
  queryKey,
  queryFn,
  scope,
}: {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  scope: string;
}) {
  const client = useQueryClient();
  const query = useQuery({ queryKey, queryFn });
  const [state, setState] = useState<LiveState>('connecting');
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    const target = JSON.parse(key) as QueryKey;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    let delay = 1_000;
    const open = async () => {
      try {
        const { ticket } = await liveTicket(scope);
        if (closed) return;
        source = new EventSource(`/api/v1/dashboard/stream?ticket=${encodeURIComponent(ticket)}`);
        source.addEventListener('open', () => {
          delay = 1_000;
          setState('live');
        });
        source.addEventListener('snapshot', (e) => {
          client.setQueryData(target, JSON.parse((e as MessageEvent).data));
          setState('live');
        });
        source.addEventListener('error', () => {
          // The ticket is spent or expired: reconnect with a new one, not the browser's retry.
          source?.close();
          retry();
        });
      } catch {
        retry();
      }
    };
    const retry = () => {
      if (closed) return;
      setState('retrying');
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 30_000);
    };
    void open();
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [scope, key, client]);
  return { query, state };
}
