import type { ConfirmationResult, SubscriptionStatus } from '@parley/protocol';

/**
 * What the confirmation page shows. 'success' says Pro is active, so it needs the server's word
 * that it is (isActive, or a confirmed result); a subscription whose payment has not completed yet
 * (incomplete, past_due) is 'pending', never 'success'.
 */
export type ConfirmationState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'pending'; status: string }
  | { kind: 'success' };

const PENDING_STATUSES = new Set(['incomplete', 'past_due']);

export function statusModeState(data: SubscriptionStatus | null | undefined): ConfirmationState {
  if (data?.isActive) return { kind: 'success' };
  const status = data?.subscription?.status;
  if (status && PENDING_STATUSES.has(status)) return { kind: 'pending', status };
  return { kind: 'error', message: 'Failed to confirm subscription status' };
}

export function confirmModeState(data: ConfirmationResult | null | undefined): ConfirmationState {
  if (data?.success) return { kind: 'success' };
  const status = data?.subscription.status;
  if (status && PENDING_STATUSES.has(status)) return { kind: 'pending', status };
  return { kind: 'error', message: 'Failed to confirm subscription' };
}
