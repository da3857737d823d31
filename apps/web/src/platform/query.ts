import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/errors.ts';

/**
 * Server state. Errors were already shown by the request layer, so queries do not retry
 * business failures; a network blip is retried once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 5 * 60_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 1 && isApiError(error) && error.kind === 'network',
    },
    mutations: { retry: false },
  },
});
