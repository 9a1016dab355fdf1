import type { SubscriptionStatus } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The header's status query: the email is part of the key (spec §7); errors are only logged. */
export function useSubscriptionStatus(email: string | null) {
  return useQuery({
    queryKey: ['/api/subscription/status', email],
    enabled: !!email,
    queryFn: async () => {
      try {
        return await apiRequest<SubscriptionStatus>('GET', '/api/subscription/status');
      } catch (err) {
        console.error('Failed to load the subscription status', err);
        return null;
      }
    },
  });
}
