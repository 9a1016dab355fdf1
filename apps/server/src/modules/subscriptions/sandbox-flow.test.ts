import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { mailOutbox } from '../../db/schema/index.js';

/** The embedded default: the built-in sandbox, end to end through the HTTP API. */
describe('subscriptions on the built-in sandbox', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, cookie: string | undefined, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: cookie ? { cookie } : {},
      ...(payload !== undefined ? { payload } : {}),
    });
  const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

  async function create(email: string) {
    const who = await signIn(t, { email, firstName: 'Sam', lastName: 'Ple' });
    const res = await post('/api/subscription/create', who.cookie, { email });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { clientSecret: string; subscription: { id: string; status: string } };
    return { ...who, ...body };
  }
  const pay = (clientSecret: string, cardNumber: string, expiry = '12 / 34', cvc = '123') =>
    post('/api/payment/sandbox/confirm', undefined, { clientSecret, cardNumber, expiry, cvc });

  it('tells the web it runs the sandbox', async () => {
    const res = await get('/api/subscription/config');
    expect(res.json()).toEqual({ provider: 'sandbox', publishableKey: null });
  });

  it('needs a signed-in user for every subscription call', async () => {
    expect((await get('/api/subscription/status')).statusCode).toBe(401);
    expect((await get('/api/subscription/status/a%40b.co')).statusCode).toBe(401);
    for (const url of [
      '/api/subscription/create',
      '/api/subscription/cancel',
      '/api/subscription/reactivate',
    ]) {
      expect((await post(url, undefined, { email: 'a@b.co' })).statusCode).toBe(401);
    }
    expect((await post('/api/subscription/confirm/sub_abc', undefined)).statusCode).toBe(401);
  });

  it('starts without a subscription and without Pro', async () => {
    const { cookie, userId } = await signIn(t, { email: 'new@example.com' });
    const res = await get('/api/subscription/status', cookie);
    expect(res.json()).toEqual({
      hasSubscription: false,
      isActive: false,
      daysUntilExpiry: 0,
      subscription: null,
    });
    expect(await t.app.subscriptions.isPro(userId)).toBe(false);
  });

  it('creates an incomplete subscription with a payment intent client secret; 4242 makes it active for a month', async () => {
    const s = await create('pay@example.com');
    expect(s.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    expect(s.subscription).toMatchObject({ id: expect.stringMatching(/^sub_/), status: 'incomplete' });
    const pending = (await get('/api/subscription/status', s.cookie)).json();
    expect(pending).toMatchObject({
      hasSubscription: false,
      isActive: false,
      subscription: { status: 'incomplete' },
    });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);

    const paid = await pay(s.clientSecret, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ object: 'payment_intent', status: 'succeeded' });

    const status = (await get('/api/subscription/status', s.cookie)).json();
    expect(status).toMatchObject({
      hasSubscription: true,
      isActive: true,
      subscription: { status: 'active', amount: '9.99', cancelAtPeriodEnd: false },
    });
    expect(status.daysUntilExpiry).toBeGreaterThanOrEqual(28);
    expect(status.daysUntilExpiry).toBeLessThanOrEqual(31);
    const end = new Date(status.subscription.currentPeriodEnd);
    const expected = new Date();
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(Math.abs(end.getTime() - expected.getTime())).toBeLessThan(4 * 24 * 3600 * 1000);
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(true);
    await t.app.jobs.idle(); // the confirmation goes through the job queue
    const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'pay@example.com'));
    expect(mails.map((m) => m.subject)).toEqual(['Your Parley Pro Plan is active']);

    // Paying twice is refused, and a second create does not make a second subscription.
    expect((await pay(s.clientSecret, '4242424242424242')).statusCode).toBe(400);
    const again = await post('/api/subscription/create', s.cookie, { email: 'pay@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have an active Pro subscription');

    const confirm = await post('/api/subscription/confirm/' + s.subscription.id, s.cookie);
    expect(confirm.json()).toEqual({
      success: true,
      customer: { email: 'pay@example.com' },
      subscription: { planName: 'Pro Plan', amount: '9.99', status: 'active' },
    });
  });

  it('cancels at period end and reactivates, staying Pro throughout', async () => {
    const s = await create('cancel@example.com');
    await pay(s.clientSecret, '4242424242424242');
    const cancelled = await post('/api/subscription/cancel', s.cookie, { email: 'cancel@example.com' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      message: 'Your subscription will end at the current billing period.',
      status: { isActive: true, subscription: { cancelAtPeriodEnd: true, status: 'active' } },
    });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(true);
    const reactivated = await post('/api/subscription/reactivate', s.cookie, { email: 'cancel@example.com' });
    expect(reactivated.json()).toMatchObject({
      status: { isActive: true, subscription: { cancelAtPeriodEnd: false } },
    });
    const status = (await get('/api/subscription/status/cancel%40example.com', s.cookie)).json();
    expect(status.subscription.cancelAtPeriodEnd).toBe(false);
  });

  it('refuses cancel and reactivate without an active subscription', async () => {
    const { cookie } = await signIn(t, { email: 'none@example.com' });
    const res = await post('/api/subscription/cancel', cookie, { email: 'none@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You have no active subscription to cancel');
    expect(
      (await post('/api/subscription/reactivate', cookie, { email: 'none@example.com' })).statusCode,
    ).toBe(400);
  });

  it('declines 4000 0000 0000 0002 with Stripe’s message and grants nothing; another card then works', async () => {
    const s = await create('decline@example.com');
    const res = await pay(s.clientSecret, '4000000000000002');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    expect((await get('/api/subscription/status', s.cookie)).json()).toMatchObject({ isActive: false });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
    // Creating again hands back the same pending subscription; a good card completes it.
    const again = (await post('/api/subscription/create', s.cookie, { email: 'decline@example.com' })).json();
    expect(again.subscription.id).toBe(s.subscription.id);
    expect(again.clientSecret).toBe(s.clientSecret);
    expect((await pay(s.clientSecret, '4242424242424242')).statusCode).toBe(200);
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(true);
  });

  it('asks 4000 0025 0000 3155 for authentication before it succeeds; a failed authentication grants nothing', async () => {
    const s = await create('auth@example.com');
    const first = await pay(s.clientSecret, '4000 0025 0000 3155');
    expect(first.json()).toMatchObject({ status: 'requires_action' });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
    const failed = await post('/api/payment/sandbox/authenticate', undefined, {
      clientSecret: s.clientSecret,
      outcome: 'fail',
    });
    expect(failed.statusCode).toBe(402);
    expect(failed.json().message).toMatch(/unable to authenticate/);
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
    // Authentication is only possible while it is asked for.
    expect(
      (
        await post('/api/payment/sandbox/authenticate', undefined, {
          clientSecret: s.clientSecret,
          outcome: 'complete',
        })
      ).statusCode,
    ).toBe(400);
    await pay(s.clientSecret, '4000002500003155');
    const done = await post('/api/payment/sandbox/authenticate', undefined, {
      clientSecret: s.clientSecret,
      outcome: 'complete',
    });
    expect(done.json()).toMatchObject({ status: 'succeeded' });
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(true);
  });

  it('validates card input like Stripe: number, expiry (MM / YY, not past), security code', async () => {
    const s = await create('cards@example.com');
    const cases: Array<[string, string, string, string]> = [
      ['4242 4242 4242', '12 / 34', '123', 'Your card number is incomplete.'],
      ['4242 4242 4242 4241', '12 / 34', '123', 'Your card number is invalid.'],
      ['4242424242424242', '12 / ', '123', "Your card's expiration date is incomplete."],
      ['4242424242424242', '13 / 34', '123', "Your card's expiration date is invalid."],
      ['4242424242424242', '01 / 20', '123', "Your card's expiration year is in the past."],
      ['4242424242424242', '12 / 34', '12', "Your card's security code is incomplete."],
      ['378282246310005', '12 / 34', '123', "Your card's security code is incomplete."],
    ];
    for (const [cardNumber, expiry, cvc, message] of cases) {
      const res = await pay(s.clientSecret, cardNumber, expiry, cvc);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    // Last month is in the past in every month of the year (January's is last December).
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const mm = String(lastMonth.getUTCMonth() + 1).padStart(2, '0');
    const yy = String(lastMonth.getUTCFullYear()).slice(2);
    const expired = await pay(s.clientSecret, '4242424242424242', `${mm} / ${yy}`);
    expect(expired.json().message).toBe("Your card's expiration date is in the past.");
    expect(await t.app.subscriptions.isPro(s.userId)).toBe(false);
  });

  it('rejects an unknown or malformed client secret', async () => {
    expect((await pay('pi_doesnotexist_secret_nope', '4242424242424242')).statusCode).toBe(404);
    const bad = await pay('nonsense', '4242424242424242');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/clientSecret/);
  });

  it('answers the status only for the signed-in user’s own email, without telling whether another exists', async () => {
    const { cookie } = await signIn(t, { email: 'me@example.com' });
    expect((await get('/api/subscription/status/me%40example.com', cookie)).statusCode).toBe(200);
    expect((await get('/api/subscription/status/ME%40Example.com', cookie)).statusCode).toBe(200);
    const existing = await get('/api/subscription/status/pay%40example.com', cookie);
    const unknown = await get('/api/subscription/status/nobody%40example.com', cookie);
    expect(existing.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(403);
    expect(existing.body).toBe(unknown.body);
    // Managing someone else's subscription is refused the same way.
    expect((await post('/api/subscription/cancel', cookie, { email: 'pay@example.com' })).statusCode).toBe(
      403,
    );
    expect((await post('/api/subscription/create', cookie, { email: 'other@example.com' })).statusCode).toBe(
      403,
    );
  });

  it('confirms only the user’s own subscription', async () => {
    const s = await create('owner@example.com');
    const other = await signIn(t, { email: 'intruder@example.com' });
    expect((await post(`/api/subscription/confirm/${s.subscription.id}`, other.cookie)).statusCode).toBe(404);
    const own = await post(`/api/subscription/confirm/${s.subscription.id}`, s.cookie);
    expect(own.json()).toMatchObject({ success: false, subscription: { status: 'incomplete' } });
    const invalid = await post('/api/subscription/confirm/not-a-subscription', s.cookie);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Invalid confirmation link');
    // The spec's client sends a JSON content type with no body.
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/subscription/confirm/${s.subscription.id}`,
      headers: { cookie: s.cookie, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(200);
  });

  it('answers bad input with 400 and a message', async () => {
    const { cookie } = await signIn(t, { email: 'bad@example.com' });
    for (const payload of [
      {},
      { email: 'not-an-email' },
      { email: 42 },
      { email: 'bad@example.com', extra: 1 },
    ]) {
      const res = await post('/api/subscription/create', cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/create',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(
      (await post('/api/payment/sandbox/confirm', undefined, { clientSecret: 'pi_a_secret_b' })).statusCode,
    ).toBe(400);
  });
});
