import type { BillingUsage, FreeTimeState } from '@parley/protocol/billing';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The free tier's HTTP calls (spec §7). Components use these, never fetch directly. */

export const BILLING_USAGE_KEY = '/api/billing/usage';

/** A setup intent to save a card, in this participant's billing step (its join token). */
export function createSetupIntent(
  email: string,
  meetingId: string,
  joinToken: string,
): Promise<{ clientSecret: string }> {
  return apiRequest(
    'POST',
    '/api/payment/setup-intent',
    { email, meetingId },
    { Authorization: `Bearer ${joinToken}` },
  );
}

export function savePaymentMethod(
  email: string,
  paymentMethodId: string,
): Promise<{ saved: true; card: { brand: string; last4: string } | null }> {
  return apiRequest('POST', '/api/payment/save-method', { email, paymentMethodId });
}

/** Starts overage for this participant (its join token proves which one). */
export function startBilling(
  meetingId: string,
  participantEmail: string,
  joinToken: string,
): Promise<{ started: true; freeTime: FreeTimeState }> {
  return apiRequest(
    'POST',
    '/api/billing/start',
    { meetingId, participantEmail },
    { Authorization: `Bearer ${joinToken}` },
  );
}

/** What the saved card was charged (Settings). */
export function useBillingUsage(enabled = true) {
  return useQuery({
    queryKey: [BILLING_USAGE_KEY],
    queryFn: () => apiRequest<BillingUsage>('GET', BILLING_USAGE_KEY),
    enabled,
  });
}

export const freeTimeCoverKey = (meetingId: string) =>
  `/api/meetings/${encodeURIComponent(meetingId)}/free-time-cover`;

export function useFreeTimeCover(meetingId: string, enabled: boolean) {
  return useQuery({
    queryKey: [freeTimeCoverKey(meetingId)],
    queryFn: () => apiRequest<{ coverEveryone: boolean }>('GET', freeTimeCoverKey(meetingId)),
    enabled,
  });
}

export function setFreeTimeCover(meetingId: string, coverEveryone: boolean) {
  return apiRequest<{ coverEveryone: boolean }>('PUT', freeTimeCoverKey(meetingId), { coverEveryone });
}
