import { QUERY_DEFAULTS } from '@parley/protocol/constants';
import { QueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: QUERY_DEFAULTS.retry,
        staleTime: QUERY_DEFAULTS.staleTime,
        refetchOnWindowFocus: QUERY_DEFAULTS.refetchOnWindowFocus,
        queryFn: ({ queryKey }) => apiRequest('GET', String(queryKey[0])),
      },
      mutations: { retry: false },
    },
  });
}
