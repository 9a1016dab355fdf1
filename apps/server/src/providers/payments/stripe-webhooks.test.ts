import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { signPayload } from './signature.js';
import {
  FakeStripeApi,
  resourceMissing,
  type StripeAnswer,
  type StripeRequest,
} from './testing/fake-stripe-api.js';

/**
 * The Stripe adapter against a local HTTP server standing in for api.stripe.com (no network), and
 * the webhook endpoint with Stripe's signature scheme. Fake objects are typed with the SDK's types.
 */

const WEBHOOK_SECRET = 'whsec_test_secret_for_parley';
const PERIOD_END = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;

/** The fields the adapter reads, typed by the SDK. */
type FakeSubscription = Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'customer'
  | 'status'
  | 'cancel_at_period_end'
  | 'currency'
  | 'metadata'
  | 'latest_invoice'
  | 'pending_setup_intent'
  | 'items'
>;

function fakeSubscription(
  id: string,
  customer: string,
  userId: string,
  clientSecret: string,
): FakeSubscription {
  return {
    id,
    object: 'subscription',
    customer,
    status: 'incomplete',
    cancel_at_period_end: false,
    currency: 'usd',
    metadata: { userId },
    latest_invoice: {
      id: 'in_fake1',
      object: 'invoice',
      confirmation_secret: { client_secret: clientSecret, type: 'payment_intent' },
    } as Stripe.Invoice,
    pending_setup_intent: null,
    items: {
      object: 'list',
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
      data: [
        {
          id: 'si_fake1',
          object: 'subscription_item',
          current_period_start: PERIOD_END - 30 * 24 * 3600,
          current_period_end: PERIOD_END,
          price: { id: 'price_test_pro', object: 'price', unit_amount: 999, currency: 'usd' } as Stripe.Price,
        } as Stripe.SubscriptionItem,
      ],
    },
  };
}

/** Stripe's customers and subscriptions, as far as the adapter reads them. */
class FakeStripe extends FakeStripeApi {
  subscriptions = new Map<string, FakeSubscription>();

  constructor() {
    super((req) => this.answer(req));
  }

  private answer({ method, path, form }: StripeRequest): StripeAnswer {
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Partial<Stripe.Customer> = {
        id: 'cus_fake1',
        object: 'customer',
        email: form.email ?? null,
      };
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      const created = fakeSubscription(
        `sub_fake${this.subscriptions.size + 1}`,
        form.customer!,
        form['metadata[userId]']!,
        'pi_fake1_secret_abc123',
      );
      this.subscriptions.set(created.id, created);
      return { status: 200, body: created };
    }
    if (sub && this.subscriptions.has(sub[1]!)) {
      const current = this.subscriptions.get(sub[1]!)!;
      if (method === 'POST' && form.cancel_at_period_end) {
        current.cancel_at_period_end = form.cancel_at_period_end === 'true';
      }
      return { status: 200, body: current };
    }
    return resourceMissing(`No such subscription: '${sub?.[1]}'`);
  }
}

describe('Stripe adapter and webhooks (local stand-in for Stripe)', () => {
  const stripe = new FakeStripe();
  let t: TestContext;

  beforeAll(async () => {
    await stripe.start();
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_parley',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_parley',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: 'price_test_pro',
      STRIPE_API_BASE: stripe.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe.stop();
  });
  beforeEach(() => {
    stripe.requests = [];
  });

  const sendEvent = (
    event: object,
    opts: { timestamp?: number; tamper?: (body: string) => string; secret?: string } = {},
  ) => {
    const body = JSON.stringify(event);
    const header = signPayload(body, opts.secret ?? WEBHOOK_SECRET, opts.timestamp);
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      payload: opts.tamper ? opts.tamper(body) : body,
    });
  };
  const event = (id: string, type: string, object: object, created = Math.floor(Date.now() / 1000)) => ({
    id,
    object: 'event',
    type,
    created,
    api_version: '2026-10-28.endive',
    data: { object },
  });
  const status = async (cookie: string) =>
    (await t.app.inject({ url: '/api/subscription/status', headers: { cookie } })).json();

  async function subscribe(email: string) {
    const who = await signIn(t, { email, firstName: 'Stri', lastName: 'Pe' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/create',
      headers: { cookie: who.cookie },
      payload: { email },
    });
    expect(res.statusCode).toBe(200);
    return { ...who, created: res.json() as { clientSecret: string; subscription: { id: string } } };
  }

  it('tells the web to use Stripe with the publishable key, and its CSP allows Stripe.js', async () => {
    const res = await t.app.inject('/api/subscription/config');
    expect(res.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_parley' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
  });

  it('creates the customer and a default_incomplete subscription with idempotency keys, returning the client secret', async () => {
    const s = await subscribe('stripe-create@example.com');
    expect(s.created.clientSecret).toBe('pi_fake1_secret_abc123');
    const [customer, subscription] = stripe.requests;
    expect(customer).toMatchObject({ method: 'POST', path: '/v1/customers' });
    expect(customer!.headers.authorization).toBe('Bearer sk_test_parley');
    expect(customer!.headers['idempotency-key']).toBe(`parley-customer-${s.userId}`);
    expect(customer!.form).toMatchObject({
      email: 'stripe-create@example.com',
      name: 'Stri Pe',
      'metadata[userId]': s.userId,
    });
    expect(subscription).toMatchObject({ method: 'POST', path: '/v1/subscriptions' });
    expect(subscription!.headers['idempotency-key']).toBe(`parley-subscription-${s.userId}-after-none`);
    expect(subscription!.form).toMatchObject({
      customer: 'cus_fake1',
      'items[0][price]': 'price_test_pro',
      payment_behavior: 'default_incomplete',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'metadata[userId]': s.userId,
      'expand[0]': 'latest_invoice.confirmation_secret',
      'expand[1]': 'pending_setup_intent',
    });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
  });

  it('applies a verified event by re-reading the subscription from Stripe', async () => {
    const s = await subscribe('stripe-valid@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    sub.status = 'active';
    const res = await sendEvent(event('evt_valid_1', 'customer.subscription.updated', sub));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'applied' });
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${sub.id}`)).toBe(
      true,
    );
    expect(await status(s.cookie)).toMatchObject({
      isActive: true,
      subscription: { status: 'active', amount: '9.99' },
    });
  });

  it('refuses a tampered body, a wrong secret, a stale timestamp and a missing signature, changing nothing', async () => {
    const s = await subscribe('stripe-bad@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    const evt = event('evt_bad_1', 'customer.subscription.updated', { ...sub, status: 'active' });
    sub.status = 'active'; // even though Stripe now says active, unverified events must not trigger anything
    const tampered = await sendEvent(evt, { tamper: (b) => b.replace('"evt_bad_1"', '"evt_bad_2"') });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().message).toMatch(/signature/i);
    expect((await sendEvent(evt, { secret: 'whsec_someone_else' })).statusCode).toBe(400);
    const stale = await sendEvent(evt, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toMatch(/tolerance/i);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(evt),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(stripe.requests.filter((r) => r.method === 'GET')).toEqual([]);
    // (The status API itself would re-read a pending subscription from Stripe: a provider read.)
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
  });

  it('refuses a captured delivery replayed after the tolerance window', async () => {
    const s = await subscribe('stripe-replay@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    const body = JSON.stringify(event('evt_replay_1', 'customer.subscription.updated', sub));
    const capturedHeader = signPayload(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600);
    sub.status = 'active';
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': capturedHeader },
      payload: body,
    });
    expect(replay.statusCode).toBe(400);
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
  });

  it('applies the same event id once', async () => {
    const s = await subscribe('stripe-twice@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    sub.status = 'active';
    const evt = event('evt_twice_1', 'invoice.paid', {
      id: 'in_fake1',
      object: 'invoice',
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    });
    expect((await sendEvent(evt)).json().result).toBe('applied');
    // Stripe's state moves on without an event; the repeated delivery must not apply anything.
    sub.cancel_at_period_end = true;
    const again = await sendEvent(evt);
    expect(again.statusCode).toBe(200);
    expect(again.json().result).toBe('duplicate');
    expect(await status(s.cookie)).toMatchObject({
      isActive: true,
      subscription: { cancelAtPeriodEnd: false },
    });
  });

  it('keeps the newest state when an older event arrives after a newer one', async () => {
    const s = await subscribe('stripe-order@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    const createdSnapshot = structuredClone(sub); // status incomplete
    sub.status = 'active';
    sub.cancel_at_period_end = true;
    const now = Math.floor(Date.now() / 1000);
    expect(
      (await sendEvent(event('evt_order_new', 'customer.subscription.updated', sub, now))).statusCode,
    ).toBe(200);
    const late = await sendEvent(
      event('evt_order_old', 'customer.subscription.created', createdSnapshot, now - 60),
    );
    expect(late.statusCode).toBe(200);
    expect(await status(s.cookie)).toMatchObject({
      isActive: true,
      subscription: { status: 'active', cancelAtPeriodEnd: true },
    });
  });

  it('cancels at period end and reactivates through Stripe', async () => {
    const s = await subscribe('stripe-cancel@example.com');
    const sub = stripe.subscriptions.get(s.created.subscription.id)!;
    sub.status = 'active';
    await sendEvent(event('evt_cancel_setup', 'customer.subscription.updated', sub));
    stripe.requests = [];
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/cancel',
      headers: { cookie: s.cookie },
      payload: { email: 'stripe-cancel@example.com' },
    });
    expect(cancel.json()).toMatchObject({
      status: { isActive: true, subscription: { cancelAtPeriodEnd: true } },
    });
    expect(stripe.requests[0]).toMatchObject({
      method: 'POST',
      path: `/v1/subscriptions/${sub.id}`,
      form: { cancel_at_period_end: 'true' },
    });
    const reactivate = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/reactivate',
      headers: { cookie: s.cookie },
      payload: { email: 'stripe-cancel@example.com' },
    });
    expect(reactivate.json()).toMatchObject({ status: { subscription: { cancelAtPeriodEnd: false } } });
    expect(stripe.requests[1]?.form).toMatchObject({ cancel_at_period_end: 'false' });
  });

  it('records events about unknown subscriptions or other objects without changing anything', async () => {
    const unknown = await sendEvent(
      event('evt_unknown_1', 'customer.subscription.updated', { id: 'sub_nope', object: 'subscription' }),
    );
    expect(unknown.json()).toEqual({ received: true, result: 'applied' });
    const other = await sendEvent(event('evt_other_1', 'charge.succeeded', { id: 'ch_1', object: 'charge' }));
    expect(other.json()).toEqual({ received: true, result: 'ignored' });
    const notEvent = await sendEvent({ hello: 'world' });
    expect(notEvent.statusCode).toBe(400);
  });

  it('refuses to start with a secret key but no price or webhook secret', async () => {
    await expect(createTestApp({ STRIPE_SECRET_KEY: 'sk_test_x' })).rejects.toThrow(/STRIPE_PRICE_ID/);
  });
});
