import type { SubscriptionStatus } from '@parley/protocol';
import type { SubscriptionRow } from '../../db/schema/index.js';
import { LIVE_STATUSES } from '../../providers/payments/types.js';

const DAY_MS = 24 * 3600 * 1000;
const PRO_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing']);

/** The paid period has not ended (a subscription without an end date has no end yet). */
const periodOpen = (row: Pick<SubscriptionRow, 'currentPeriodEnd'>, now: Date) =>
  !row.currentPeriodEnd || row.currentPeriodEnd > now;

/**
 * The "is Pro" rule for a subscription row (or none): active or trialing, and its paid period open.
 * The subscription service's isPro asks it for a user; the status API reports it as isActive.
 */
export function grantsPro(
  row: Pick<SubscriptionRow, 'status' | 'currentPeriodEnd'> | undefined,
  now: Date = new Date(),
): boolean {
  return !!row && PRO_STATUSES.has(row.status) && periodOpen(row, now);
}

/** A subscription that still runs: a second one must not be created next to it. */
export function isLiveRow(
  row: Pick<SubscriptionRow, 'status' | 'currentPeriodEnd'>,
  now = new Date(),
): boolean {
  return LIVE_STATUSES.has(row.status) && periodOpen(row, now);
}

export const formatAmount = (cents: number) => (cents / 100).toFixed(2);

/** The status answer of spec §3 for a user's subscription row (or none). */
export function toSubscriptionStatus(row: SubscriptionRow | undefined, now = new Date()): SubscriptionStatus {
  if (!row) return { hasSubscription: false, isActive: false, daysUntilExpiry: 0, subscription: null };
  const live = isLiveRow(row, now);
  return {
    hasSubscription: live,
    isActive: grantsPro(row, now),
    daysUntilExpiry:
      live && row.currentPeriodEnd
        ? Math.max(0, Math.ceil((row.currentPeriodEnd.getTime() - now.getTime()) / DAY_MS))
        : 0,
    subscription: {
      status: row.status,
      currentPeriodEnd: row.currentPeriodEnd ? row.currentPeriodEnd.toISOString() : null,
      amount: formatAmount(row.amountCents),
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    },
  };
}
