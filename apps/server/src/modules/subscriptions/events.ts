import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/index.js';
import type { PaymentEvent, PaymentsProvider, ProviderSubscription } from '../../providers/payments/index.js';
import { createUsersRepository } from '../users/repository.js';
import { isLiveRow } from './status.js';
import { createSubscriptionsRepository, type SubscriptionValues } from './repository.js';

/** Event types whose subscription the handler re-reads from the provider. */
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'checkout.session.completed',
]);

const idOf = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string'
      ? (v as { id: string }).id
      : null;

/** The subscription an event is about, from Stripe's object shapes (subscription, invoice, checkout session). */
export function subscriptionIdOf(event: PaymentEvent): string | null {
  const obj = event.data.object as Record<string, unknown>;
  switch (obj.object) {
    case 'subscription':
      return idOf(obj.id);
    case 'invoice': {
      const parent = obj.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
      return idOf(parent?.subscription_details?.subscription) ?? idOf(obj.subscription);
    }
    case 'checkout.session':
      return idOf(obj.subscription);
    default:
      return null;
  }
}

export type ApplyResult = 'applied' | 'duplicate' | 'ignored';

/**
 * The one handler of payment events, for verified Stripe webhooks and the sandbox alike. Each event
 * id is applied once. Events are never trusted for state: the handler re-reads the subscription
 * from the provider, so events arriving late or out of order cannot roll the state back.
 */
export function createPaymentEventHandler(
  db: Database,
  provider: PaymentsProvider,
  log: FastifyBaseLogger,
  /** Called once when a subscription turns active (e.g. to send the confirmation email). */
  onActivated: (userId: string, sub: ProviderSubscription) => Promise<void> = async () => {},
) {
  const repo = createSubscriptionsRepository(db);
  const users = createUsersRepository(db);

  /** Stores what a provider read returned (`readAt` = when the read started). */
  async function syncFromProvider(sub: ProviderSubscription, readAt: Date): Promise<boolean> {
    const values: SubscriptionValues = {
      customerId: sub.customerId,
      status: sub.status,
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      amountCents: sub.amountCents,
      currency: sub.currency,
      providerUpdatedAt: readAt,
    };
    const existing = await repo.findByProviderSubscription(provider.name, sub.id);
    if (existing) return applyToRow(existing.id, existing.userId, sub, values);

    if (!sub.userId || !(await users.findById(sub.userId))) {
      log.warn({ subscriptionId: sub.id }, 'payment provider subscription without a known user; ignored');
      return false;
    }
    const current = await repo.findByUser(sub.userId);
    if (current && isLiveRow(current)) {
      // A live subscription is never replaced by another one (e.g. an old or duplicate one).
      log.warn(
        { subscriptionId: sub.id, current: current.subscriptionId },
        'second subscription for a user; ignored',
      );
      return false;
    }
    if (await repo.upsertForUser(sub.userId, provider.name, sub.id, values)) {
      if (sub.status === 'active') await notify(sub.userId, sub);
      return true;
    }
    // A concurrent read stored this subscription first: apply this one the same way as to any row.
    const stored = await repo.findByProviderSubscription(provider.name, sub.id);
    return stored ? applyToRow(stored.id, stored.userId, sub, values) : false;
  }

  /** Updates a stored row; the follow-up goes out only from the change that turned it active. */
  async function applyToRow(
    rowId: string,
    userId: string,
    sub: ProviderSubscription,
    values: SubscriptionValues,
  ): Promise<boolean> {
    const applied = await repo.updateUnlessNewer(rowId, values);
    if (applied && sub.status === 'active' && applied.previousStatus !== 'active') await notify(userId, sub);
    return applied !== null;
  }

  async function notify(userId: string, sub: ProviderSubscription) {
    try {
      await onActivated(userId, sub);
    } catch (err) {
      log.error({ err, subscriptionId: sub.id }, 'subscription activated, but its follow-up failed');
    }
  }

  async function refresh(subscriptionId: string): Promise<ProviderSubscription | null> {
    const readAt = new Date();
    const sub = await provider.retrieveSubscription(subscriptionId);
    if (sub) await syncFromProvider(sub, readAt);
    return sub;
  }

  async function apply(event: PaymentEvent): Promise<ApplyResult> {
    if (await repo.hasEvent(event.id)) return 'duplicate';
    const subscriptionId = SUBSCRIPTION_EVENTS.has(event.type) ? subscriptionIdOf(event) : null;
    if (subscriptionId) await refresh(subscriptionId);
    // Recorded after the state change: if the read above failed, the provider's retry re-applies it.
    const first = await repo.recordEvent(event.id, provider.name, event.type);
    if (!first) return 'duplicate';
    return subscriptionId ? 'applied' : 'ignored';
  }

  return { apply, refresh, syncFromProvider };
}

export type PaymentEventHandler = ReturnType<typeof createPaymentEventHandler>;
