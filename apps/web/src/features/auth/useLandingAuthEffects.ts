import { AUTH_REFETCH_DELAY_MS, USER_STORAGE_KEYS } from '@parley/protocol/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { USER_QUERY_KEY, useUser } from './api';

/** Clears the user data the browser keeps (spec §3 local-storage keys, and session storage). */
export function clearStoredUserData(): void {
  try {
    for (const key of USER_STORAGE_KEYS) localStorage.removeItem(key);
    sessionStorage.clear();
  } catch {
    // storage can be unavailable (private mode, blocked cookies): nothing is stored then
  }
}

/**
 * The landing page's auth behaviour (spec §2, §4):
 * - `login=success` refreshes the user (and the subscription badge) and is removed from the address;
 * - on load the cached user is marked stale and refetched after 100 ms (the page's name and
 *   meeting id start empty on every load: they are the landing page's own state);
 * - when loading ends with no user, the spec's local-storage keys and session storage are cleared.
 */
export function useLandingAuthEffects(): void {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { user, isLoading } = useUser();

  const loginSuccess = params.get('login') === 'success';
  useEffect(() => {
    if (!loginSuccess) return;
    void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: ['/api/subscription/status'] });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('login');
        return next;
      },
      { replace: true },
    );
  }, [loginSuccess, queryClient, setParams]);

  useEffect(() => {
    // Stored user data is not trusted across a page load: it is marked stale and asked for again.
    void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY, refetchType: 'none' });
    const timer = setTimeout(() => {
      void queryClient.refetchQueries({ queryKey: USER_QUERY_KEY, type: 'active' });
    }, AUTH_REFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [queryClient]);

  const signedOut = !isLoading && !user;
  useEffect(() => {
    if (signedOut) clearStoredUserData();
  }, [signedOut]);
}
