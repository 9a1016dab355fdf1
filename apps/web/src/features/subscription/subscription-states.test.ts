import type { SubscriptionStatus } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { subscriptionBadge } from './ActiveSubscription';
import { confirmModeState, statusModeState } from './confirmation-state';

const status = (isActive: boolean, subStatus: string, cancelAtPeriodEnd = false): SubscriptionStatus => ({
  hasSubscription: subStatus !== 'incomplete',
  isActive,
  daysUntilExpiry: 20,
  subscription: { status: subStatus, currentPeriodEnd: null, amount: '9.99', cancelAtPeriodEnd },
});

describe('subscription states the pages show', () => {
  it('a past_due subscription is never shown as Active', () => {
    expect(subscriptionBadge(status(false, 'past_due'))).toEqual({
      label: 'Payment overdue',
      variant: 'danger',
    });
    expect(statusModeState(status(false, 'past_due'))).toEqual({ kind: 'pending', status: 'past_due' });
  });

  it('a payment still processing lands on a pending page, not on "Pro is active"', () => {
    expect(statusModeState(status(false, 'incomplete'))).toEqual({ kind: 'pending', status: 'incomplete' });
    expect(
      confirmModeState({
        success: false,
        customer: { email: 'a@b.c' },
        subscription: { planName: 'Pro Plan', amount: '9.99', status: 'incomplete' },
      }),
    ).toEqual({ kind: 'pending', status: 'incomplete' });
  });

  it('active subscriptions are Active, or end at period end once cancelled', () => {
    expect(statusModeState(status(true, 'active'))).toEqual({ kind: 'success' });
    expect(subscriptionBadge(status(true, 'active')).label).toBe('Active');
    expect(subscriptionBadge(status(true, 'active', true)).label).toBe('Ends at period end');
  });

  it('no subscription, or a cancelled one, is an error in status mode', () => {
    expect(
      statusModeState({ hasSubscription: false, isActive: false, daysUntilExpiry: 0, subscription: null }),
    ).toEqual({
      kind: 'error',
      message: 'Failed to confirm subscription status',
    });
    expect(statusModeState(status(false, 'canceled')).kind).toBe('error');
  });
});
