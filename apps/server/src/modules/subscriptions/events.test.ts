import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { subscriptions } from '../../db/schema/index.js';
import type { PaymentsProvider, ProviderSubscription } from '../../providers/payments/index.js';
import { createPaymentEventHandler } from './events.js';

const PERIOD_END = new Date(Date.now() + 30 * 24 * 3600 * 1000);

function providerSub(id: string, userId: string, status: string): ProviderSubscription {
  return {
    id,
    customerId: `cus_${userId.slice(0, 8)}`,
    userId,
    status,
    currentPeriodEnd: PERIOD_END,
    cancelAtPeriodEnd: false,
    amountCents: 2000,
    currency: 'usd',
    clientSecret: null,
  };
}

/** The provider's answers are not used here: syncFromProvider is handed the read directly. */
const provider = { name: 'sandbox' } as PaymentsProvider;

/** Many deliveries of "the subscription is active" at once (webhook retries, status reads, confirm). */
describe('payment event handler under concurrent deliveries', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  function handler() {
    const activated: string[] = [];
    const events = createPaymentEventHandler(t.db.db, provider, t.app.log, async (userId) => {
      activated.push(userId);
    });
    return { events, activated };
  }

  it('sends the "Pro is active" follow-up once when a pending subscription turns active', async () => {
    const { userId } = await signIn(t, { email: 'once@example.com' });
    await t.db.db.insert(subscriptions).values({
      userId,
      provider: 'sandbox',
      customerId: 'cus_once',
      subscriptionId: 'sub_once',
      status: 'incomplete',
      amountCents: 2000,
      currency: 'usd',
    });
    const { events, activated } = handler();
    const active = providerSub('sub_once', userId, 'active');
    await Promise.all(Array.from({ length: 8 }, () => events.syncFromProvider(active, new Date())));
    expect(activated).toEqual([userId]);
    // Later reads of the same active subscription do not send it again.
    await events.syncFromProvider(active, new Date());
    expect(activated).toEqual([userId]);
  });

  it('sends it once when a subscription is first seen already active', async () => {
    const { userId } = await signIn(t, { email: 'first-seen@example.com' });
    const { events, activated } = handler();
    const active = providerSub('sub_firstseen', userId, 'active');
    await Promise.all(Array.from({ length: 8 }, () => events.syncFromProvider(active, new Date())));
    expect(activated).toEqual([userId]);
  });

  it('does not roll a subscription back to an older read', async () => {
    const { userId } = await signIn(t, { email: 'order@example.com' });
    const { events } = handler();
    const later = new Date();
    const earlier = new Date(later.getTime() - 1000);
    expect(await events.syncFromProvider(providerSub('sub_order', userId, 'active'), later)).toBe(true);
    expect(await events.syncFromProvider(providerSub('sub_order', userId, 'incomplete'), earlier)).toBe(
      false,
    );
  });
});
