import type {
  ConfirmationResult,
  PaymentsConfig,
  SandboxIntentResult,
  SubscriptionActionResponse,
  SubscriptionCreateResponse,
  SubscriptionStatus,
} from '@parley/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Every status query's key starts with this, so one invalidation refreshes them all. */
export const SUBSCRIPTION_STATUS_KEY = '/api/subscription/status';

/** The header's status query: the email is part of the key (spec §7); errors are only logged. */
export function useSubscriptionStatus(email: string | null) {
  return useQuery({
    queryKey: [SUBSCRIPTION_STATUS_KEY, email],
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

/**
 * The subscribe and confirmation pages' status query, GET /api/subscription/status/{email}: only
 * when the email contains @, no retry (spec §5, §7). Errors are only logged.
 */
export function useSubscriptionStatusByEmail(email: string | null, options: { throwOnError?: boolean } = {}) {
  return useQuery({
    queryKey: [SUBSCRIPTION_STATUS_KEY, email, 'by-email', !!options.throwOnError],
    enabled: !!email && email.includes('@'),
    retry: false,
    queryFn: async () => {
      try {
        return await apiRequest<SubscriptionStatus>(
          'GET',
          `/api/subscription/status/${encodeURIComponent(email ?? '')}`,
        );
      } catch (err) {
        console.error('Failed to load the subscription status', err);
        if (options.throwOnError) throw err;
        return null;
      }
    },
  });
}

/** Which payments provider the server runs (Stripe with its publishable key, or the sandbox). */
export function usePaymentsConfig() {
  return useQuery({
    queryKey: ['/api/subscription/config'],
    queryFn: () => apiRequest<PaymentsConfig>('GET', '/api/subscription/config'),
  });
}

function useStatusRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_STATUS_KEY] });
}

/** POST /api/subscription/create; the status is re-fetched afterwards (spec §4). */
export function useCreateSubscription() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<SubscriptionCreateResponse>('POST', '/api/subscription/create', { email }),
    onSettled: refresh,
  });
}

export function useCancelSubscription() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<SubscriptionActionResponse>('POST', '/api/subscription/cancel', { email }),
    onSettled: refresh,
  });
}

export function useReactivateSubscription() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<SubscriptionActionResponse>('POST', '/api/subscription/reactivate', { email }),
    onSettled: refresh,
  });
}

/** The sandbox card form's submission (the sandbox's stand-in for Stripe.js confirming a payment). */
export function useSandboxConfirm() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (body: { clientSecret: string; cardNumber: string; expiry: string; cvc: string }) =>
      apiRequest<SandboxIntentResult>('POST', '/api/payment/sandbox/confirm', body),
    onSettled: refresh,
  });
}

/** The sandbox's authentication step (its stand-in for the bank's 3D Secure page). */
export function useSandboxAuthenticate() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (body: { clientSecret: string; outcome: 'complete' | 'fail' }) =>
      apiRequest<SandboxIntentResult>('POST', '/api/payment/sandbox/authenticate', body),
    onSettled: refresh,
  });
}

/** POST /api/subscription/confirm/{sessionId} (sessionId: the subscription id `sub_…`). */
export function useConfirmSubscription(sessionId: string | null) {
  const refresh = useStatusRefresh();
  return useQuery({
    queryKey: ['/api/subscription/confirm', sessionId],
    enabled: !!sessionId,
    retry: false,
    queryFn: async () => {
      const result = await apiRequest<ConfirmationResult>(
        'POST',
        `/api/subscription/confirm/${encodeURIComponent(sessionId ?? '')}`,
      );
      void refresh();
      return result;
    },
  });
}
