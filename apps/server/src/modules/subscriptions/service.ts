import {
  PRO_PLAN,
  type ConfirmationResult,
  type SubscriptionActionResponse,
  type SubscriptionCreateResponse,
  type SubscriptionStatus,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema/index.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { PaymentsProvider } from '../../providers/payments/index.js';
import { displayName } from '../users/display-name.js';
import type { PaymentEventHandler } from './events.js';
import type { SubscriptionsRepository } from './repository.js';
import { formatAmount, grantsPro, isLiveRow, toSubscriptionStatus } from './status.js';

export const OWN_EMAIL_ONLY = 'You can only see and manage the subscription of your own account';
const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9]{1,64}$/;

/** A pending subscription is re-read from the provider on a status read at most this often. */
export const PENDING_REFRESH_INTERVAL_MS = 60_000;

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface SubscriptionServiceDeps {
  repo: SubscriptionsRepository;
  provider: PaymentsProvider;
  /** The payment event handler: every provider read is stored through it. */
  events: PaymentEventHandler;
  log: FastifyBaseLogger;
  /** The clock of the pending-subscription refreshes (ms). */
  now?: () => number;
}

/** Subscription rules: who may do what, and which provider calls each action makes. */
export function createSubscriptionService({
  repo,
  provider,
  events,
  log,
  now = Date.now,
}: SubscriptionServiceDeps) {
  /** When each pending subscription was last re-read for a status read (provider subscription id → ms). */
  const lastRefresh = new Map<string, number>();

  /** True (and noted) when this pending subscription may be re-read now. */
  function refreshDue(subscriptionId: string): boolean {
    const at = now();
    const last = lastRefresh.get(subscriptionId);
    if (last !== undefined && at - last < PENDING_REFRESH_INTERVAL_MS) return false;
    if (lastRefresh.size >= 10_000) {
      for (const [id, t] of lastRefresh) if (at - t >= PENDING_REFRESH_INTERVAL_MS) lastRefresh.delete(id);
    }
    lastRefresh.set(subscriptionId, at);
    return true;
  }

  function requireOwnEmail(user: UserRow, email: string) {
    if (!sameEmail(user.email, email)) throw forbidden(OWN_EMAIL_ONLY);
  }

  /**
   * The user's status; a pending first payment is re-read from the provider (a missed event heals),
   * at most once a minute per subscription however often the status is polled.
   */
  async function status(user: UserRow): Promise<SubscriptionStatus> {
    let row = await repo.findByUser(user.id);
    if (
      row &&
      row.status === 'incomplete' &&
      row.provider === provider.name &&
      refreshDue(row.subscriptionId)
    ) {
      try {
        await events.refresh(row.subscriptionId);
        row = await repo.findByUser(user.id);
      } catch (err) {
        log.warn({ err }, 'could not refresh a pending subscription from the provider');
      }
    }
    return toSubscriptionStatus(row);
  }

  return {
    /**
     * The one place that decides "is Pro": a subscription the provider reports active (or
     * trialing) whose paid period has not ended (the rule is grantsPro). Every Pro-only action
     * asks this.
     */
    async isPro(userId: string): Promise<boolean> {
      return grantsPro(await repo.findByUser(userId), new Date(now()));
    },

    status,

    async statusForEmail(user: UserRow, email: string): Promise<SubscriptionStatus> {
      requireOwnEmail(user, email);
      return status(user);
    },

    async create(user: UserRow, email: string): Promise<SubscriptionCreateResponse> {
      requireOwnEmail(user, email);
      const row = await repo.findByUser(user.id);
      if (row && isLiveRow(row)) throw conflict('You already have an active Pro subscription');

      // A first payment still pending: hand back the same subscription's client secret.
      if (row && row.status === 'incomplete' && row.provider === provider.name) {
        const current = await events.refresh(row.subscriptionId);
        if (current && current.status === 'incomplete' && current.clientSecret) {
          return {
            clientSecret: current.clientSecret,
            subscription: { id: current.id, status: current.status },
            message: 'Subscription created. Complete the payment to activate Pro.',
          };
        }
        const after = await repo.findByUser(user.id);
        if (after && isLiveRow(after)) throw conflict('You already have an active Pro subscription');
      }

      const customerId =
        row && row.provider === provider.name
          ? row.customerId
          : await provider.ensureCustomer({ userId: user.id, email: user.email, name: displayName(user) });
      const readAt = new Date();
      const sub = await provider.createSubscription({
        customerId,
        userId: user.id,
        // The same request repeated (a double click, a retry) creates one subscription.
        idempotencyKey: `parley-subscription-${user.id}-after-${row?.subscriptionId ?? 'none'}`,
      });
      await events.syncFromProvider(sub, readAt);
      return {
        clientSecret: sub.status === 'incomplete' ? sub.clientSecret : null,
        subscription: { id: sub.id, status: sub.status },
        message:
          sub.status === 'incomplete'
            ? 'Subscription created. Complete the payment to activate Pro.'
            : `Subscription ${sub.status}`,
      };
    },

    /**
     * Cancel at period end (`autoRenew` false) or undo that (true). Both need a subscription that
     * still runs; the provider is only called when the setting changes.
     */
    async setAutoRenew(
      user: UserRow,
      email: string,
      autoRenew: boolean,
    ): Promise<SubscriptionActionResponse> {
      requireOwnEmail(user, email);
      const row = await repo.findByUser(user.id);
      if (!row || !isLiveRow(row)) {
        throw badRequest(
          autoRenew
            ? 'Your subscription has ended. Subscribe again to get Pro.'
            : 'You have no active subscription to cancel',
        );
      }
      if (row.cancelAtPeriodEnd === autoRenew) {
        const readAt = new Date();
        await events.syncFromProvider(
          await setCancelAtProvider(provider, log, row.subscriptionId, !autoRenew),
          readAt,
        );
      }
      return {
        message: autoRenew
          ? 'Your subscription will renew at the end of the current billing period.'
          : 'Your subscription will end at the current billing period.',
        status: toSubscriptionStatus(await repo.findByUser(user.id)),
      };
    },

    /**
     * `sessionId` is the provider's subscription id (`sub_…`), as returned by create. The
     * subscription is read from the provider (never from what the client says) and must be the
     * signed-in user's.
     */
    async confirm(user: UserRow, sessionId: string): Promise<ConfirmationResult> {
      if (!SUBSCRIPTION_ID.test(sessionId)) throw badRequest('Invalid confirmation link');
      const row = await repo.findByProviderSubscription(provider.name, sessionId);
      if (row && row.userId !== user.id) throw notFound('Subscription not found');
      const sub = await events.refresh(sessionId);
      if (!sub || sub.userId !== user.id) throw notFound('Subscription not found');
      const active = sub.status === 'active' || sub.status === 'trialing';
      return {
        success: active,
        customer: { email: user.email },
        subscription: { planName: PRO_PLAN.name, amount: formatAmount(sub.amountCents), status: sub.status },
      };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

/**
 * Changes cancel-at-period-end at the provider. A subscription our database has but the provider
 * does not (deleted there, or a switch of provider) is a 409 the user can act on, and a provider
 * that fails is a 502: neither is an unexplained 500.
 */
async function setCancelAtProvider(
  provider: PaymentsProvider,
  log: FastifyBaseLogger,
  subscriptionId: string,
  cancel: boolean,
) {
  try {
    return await provider.setCancelAtPeriodEnd(subscriptionId, cancel);
  } catch (err) {
    log.warn({ err, subscriptionId }, 'the payment provider refused a cancel-at-period-end change');
    const known = await provider.retrieveSubscription(subscriptionId).catch(() => undefined);
    if (known === null) {
      throw conflict('Your subscription could not be found at the payment provider. Please contact support.');
    }
    throw new HttpError(502, 'The payment provider could not be reached. Please try again.');
  }
}
