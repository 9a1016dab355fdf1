import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageLedger } from '../../db/schema/index.js';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, listen } from '../../../test/ws-client.js';
import { BILLING_ERRORS } from '../../modules/billing/service.js';
import {
  FakeStripeApi,
  resourceMissing,
  type StripeAnswer,
  type StripeRequest,
} from './testing/fake-stripe-api.js';

/**
 * Pay-as-you-go through the Stripe adapter: a local HTTP server stands in for api.stripe.com (no
 * network here), answering with objects typed by the SDK. The browser's part (Stripe Elements
 * confirming the SetupIntent) is played by `confirm()`, which does what Stripe does when the card
 * is accepted: the intent succeeds with a payment method attached.
 */

const MINUTE_MS = 100;
const GRACE_MS = 1500;

/** Stripe's customers, setup intents and invoice items, as far as the adapter reads them. */
class FakeStripe extends FakeStripeApi {
  intents = new Map<string, Stripe.SetupIntent>();
  /** How many invoice-item creations to refuse with a 500 before accepting (a flaky Stripe). */
  failInvoiceItems = 0;

  constructor() {
    super((req) => this.answer(req));
  }

  confirm(clientSecret: string, card: { brand: string; last4: string }): string {
    const intent = [...this.intents.values()].find((i) => i.client_secret === clientSecret);
    if (!intent) throw new Error(`no setup intent with secret ${clientSecret}`);
    const pm = `pm_fake_${intent.id}`;
    intent.status = 'succeeded';
    intent.payment_method = {
      id: pm,
      object: 'payment_method',
      card: { brand: card.brand, last4: card.last4 },
    } as Stripe.PaymentMethod;
    return pm;
  }

  private answer({ method, path, form }: StripeRequest): StripeAnswer {
    if (method === 'POST' && path === '/v1/customers') {
      return { status: 200, body: { id: 'cus_payg1', object: 'customer', email: form.email ?? null } };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const id = `seti_fake${this.intents.size + 1}`;
      const intent = {
        id,
        object: 'setup_intent',
        customer: form.customer ?? null,
        client_secret: `${id}_secret_xyz`,
        status: 'requires_payment_method',
        payment_method: null,
        usage: form.usage ?? 'off_session',
      } as Stripe.SetupIntent;
      this.intents.set(id, intent);
      return { status: 200, body: intent };
    }
    const seti = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && seti && this.intents.has(seti[1]!)) {
      return { status: 200, body: this.intents.get(seti[1]!) };
    }
    if (method === 'POST' && path === '/v1/invoiceitems') {
      if (this.failInvoiceItems > 0) {
        this.failInvoiceItems -= 1;
        return { status: 500, body: { error: { type: 'api_error', message: 'Stripe had a bad moment' } } };
      }
      const item: Partial<Stripe.InvoiceItem> = {
        id: `ii_fake_${this.requests.length}`,
        object: 'invoiceitem',
        customer: form.customer!,
        amount: Number(form.amount),
        currency: form.currency!,
        description: form.description ?? null,
      };
      return { status: 200, body: item };
    }
    return resourceMissing('No such object');
  }
}

const stripe = new FakeStripe();
let t: TestContext;
let ws: string;
let hostId: string;

beforeAll(async () => {
  await stripe.start();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_parley',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_parley',
    STRIPE_WEBHOOK_SECRET: 'whsec_test_parley',
    STRIPE_PRICE_ID: 'price_test_pro',
    STRIPE_API_BASE: stripe.url,
    FREE_TIER_MINUTE_MS: String(MINUTE_MS),
    FREE_TIER_GRACE_MS: String(GRACE_MS),
  });
  ({ userId: hostId } = await signIn(t, { email: 'stripe-host@example.com', firstName: 'Sia' }));
  await makePro(t, hostId);
  ({ ws } = await listen(t));
});
afterAll(async () => {
  await t?.close();
  await stripe.stop();
});

describe('pay-as-you-go through the Stripe adapter', () => {
  it('saves a card with a SetupIntent and bills each minute past 45 once, as an invoice item', async () => {
    const m = await createMeeting(t, { hostId, coversGuests: false });
    const user = await signIn(t, { email: 'payg@example.com', firstName: 'Paz' });
    const joined = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/participants`,
      headers: { cookie: user.cookie },
      payload: { name: 'Paz', email: 'payg@example.com', sessionId: 'payg-tab' },
    });
    expect(joined.statusCode).toBe(201);
    const { joinToken } = joined.json<{ joinToken: string }>();
    const socket = await connect(ws, m.meetingId, { name: 'Paz', cookie: user.cookie });
    socket.send({ type: 'join_meeting', joinToken });
    await socket.next('joined');
    expect((await socket.next('free_time')).freeTime.mode).toBe('free');

    // The Stripe path: a SetupIntent for the user's customer, off-session, under an idempotency key.
    const intent = await t.app.inject({
      method: 'POST',
      url: '/api/payment/setup-intent',
      headers: { cookie: user.cookie, authorization: `Bearer ${joinToken}` },
      payload: { email: 'payg@example.com', meetingId: m.meetingId },
    });
    expect(intent.statusCode).toBe(200);
    const { clientSecret } = intent.json<{ clientSecret: string }>();
    expect(clientSecret).toBe('seti_fake1_secret_xyz');
    const created = stripe.requests.find((r) => r.path === '/v1/setup_intents');
    expect(created?.form).toMatchObject({ customer: 'cus_payg1', usage: 'off_session' });
    expect(created?.idempotencyKey).toMatch(/^billing-setup-/);

    // Before Stripe confirms the card, saving it is refused.
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/payment/save-method',
      headers: { cookie: user.cookie },
      payload: { email: 'payg@example.com', paymentMethodId: 'pm_fake_seti_fake1' },
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(BILLING_ERRORS.notConfirmed);

    const paymentMethodId = stripe.confirm(clientSecret, { brand: 'mastercard', last4: '4444' });
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/payment/save-method',
      headers: { cookie: user.cookie },
      payload: { email: 'payg@example.com', paymentMethodId },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ saved: true, card: { brand: 'mastercard', last4: '4444' } });

    // Stripe fails the first invoice item once: the SDK retries it under the same key.
    stripe.failInvoiceItems = 1;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/billing/start',
      headers: { cookie: user.cookie, authorization: `Bearer ${joinToken}` },
      payload: { meetingId: m.meetingId, participantEmail: 'payg@example.com' },
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ freeTime: { mode: 'overage' } });

    // Stay three minutes past the free 45 (and the grace), then leave.
    await new Promise((r) => setTimeout(r, 45 * MINUTE_MS + GRACE_MS + 3 * MINUTE_MS));
    expect(socket.received.some((msg) => msg.type === 'free_time_ended')).toBe(false);
    socket.close();
    await new Promise((r) => setTimeout(r, 500));

    const rows = await t.db.db.select().from(usageLedger);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((r) => r.minute)).size).toBe(rows.length);
    const items = stripe.requests.filter((r) => r.path === '/v1/invoiceitems');
    const accepted = new Set(items.map((r) => r.idempotencyKey));
    // One key per ledger minute; the retried one was sent twice under the same key.
    expect([...accepted].sort()).toEqual(rows.map((r) => `usage-${r.id}`).sort());
    expect(items.length).toBe(rows.length + 1);
    for (const item of items) {
      expect(item.form).toMatchObject({ customer: 'cus_payg1', amount: '10', currency: 'usd' });
      expect(item.form.description).toMatch(/past the free 45/);
    }
    // Every minute is marked with the invoice item Stripe answered with.
    const marked = await t.db.db.select().from(usageLedger);
    expect(marked.every((r) => r.providerItemId?.startsWith('ii_fake_'))).toBe(true);

    // The Settings card reads the same figures.
    const usage = await t.app.inject({ url: '/api/billing/usage', headers: { cookie: user.cookie } });
    expect(usage.json()).toMatchObject({
      hasPaymentMethod: true,
      card: { brand: 'mastercard', last4: '4444' },
      totalMinutes: rows.length,
      totalCents: rows.length * 10,
    });
  }, 20_000);
});
