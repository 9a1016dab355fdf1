import { AUTH_QUERY_STALE_TIME_MS } from '@parley/protocol/constants';
import type { User } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, getOrNullOn401 } from '@/lib/api';

export const USER_QUERY_KEY = ['/api/auth/user'] as const;

/** The signed-in user, or null. A 401 or any error means "not signed in" (spec §4). */
export function useUser() {
  const query = useQuery({
    queryKey: USER_QUERY_KEY,
    queryFn: async () => {
      try {
        return await getOrNullOn401<User>('/api/auth/user');
      } catch (err) {
        console.error('Failed to load the user', err);
        return null;
      }
    },
    staleTime: AUTH_QUERY_STALE_TIME_MS,
  });
  return { user: query.data ?? null, isLoading: query.isLoading, refetch: query.refetch };
}

export interface ProfileInput {
  firstName: string;
  lastName: string;
}

/** PATCH /api/auth/user/update (spec §7); the current user is refetched afterwards. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => apiRequest<User>('PATCH', '/api/auth/user/update', input),
    onSuccess: async (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
