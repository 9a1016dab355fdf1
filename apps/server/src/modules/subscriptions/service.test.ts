import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { subscriptions, type UserRow } from '../../db/schema/index.js';
import type { PaymentsProvider, ProviderSubscription } from '../../providers/payments/index.js';
import { createUsersRepository } from '../users/repository.js';
import { createPaymentEventHandler } from './events.js';
import { createSubscriptionsRepository } from './repository.js';
import { PENDING_REFRESH_INTERVAL_MS, createSubscriptionService } from './service.js';

/** A provider that reports the subscription still pending and counts how often it was asked. */
function pendingProvider(userId: string) {
  const calls: string[] = [];
  const provider = {
    name: 'sandbox',
    async retrieveSubscription(id: string): Promise<ProviderSubscription> {
      calls.push(id);
      return {
        id,
        customerId: 'cus_poll',
        userId,
        status: 'incomplete',
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        amountCents: 2000,
        currency: 'usd',
        clientSecret: 'pi_poll_secret_x',
      };
    },
  } as unknown as PaymentsProvider;
  return { provider, calls };
}

describe('subscription status reads', () => {
  let t: TestContext;
  let user: UserRow;
  beforeAll(async () => {
    t = await createTestApp();
    const { userId } = await signIn(t, { email: 'poll@example.com' });
    user = (await createUsersRepository(t.db.db).findById(userId))!;
    await t.db.db.insert(subscriptions).values({
      userId,
      provider: 'sandbox',
      customerId: 'cus_poll',
      subscriptionId: 'sub_poll',
      status: 'incomplete',
      amountCents: 2000,
      currency: 'usd',
    });
  });
  afterAll(() => t.close());

  it('re-reads a pending subscription from the provider at most once a minute, however often polled', async () => {
    const { provider, calls } = pendingProvider(user.id);
    let clock = 1_000_000;
    const events = createPaymentEventHandler(t.db.db, provider, t.app.log);
    const service = createSubscriptionService({
      repo: createSubscriptionsRepository(t.db.db),
      provider,
      events,
      log: t.app.log,
      now: () => clock,
    });

    for (let i = 0; i < 5; i++) {
      const status = await service.status(user);
      expect(status.subscription?.status).toBe('incomplete');
    }
    await Promise.all(Array.from({ length: 5 }, () => service.status(user)));
    expect(calls).toEqual(['sub_poll']);

    clock += PENDING_REFRESH_INTERVAL_MS - 1;
    await service.status(user);
    expect(calls).toHaveLength(1);
    clock += 1;
    await service.status(user);
    expect(calls).toEqual(['sub_poll', 'sub_poll']);
  });
});
