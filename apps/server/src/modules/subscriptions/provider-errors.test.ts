import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';

/**
 * Our database says a user has a subscription the payment provider does not know (deleted at the
 * provider, or a switch of provider): cancelling or reactivating is a 409 the user can act on,
 * never a 500, and nothing changes.
 */
describe('a subscription the provider does not know', () => {
  let t: TestContext;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    const s = await signIn(t, { email: 'orphan@example.com' });
    cookie = s.cookie;
    await makePro(t, s.userId);
  });
  afterAll(() => t.close());

  it.each(['/api/subscription/cancel', '/api/subscription/reactivate'])('%s answers 409', async (url) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie },
      payload: { email: 'orphan@example.com' },
    });
    if (url.endsWith('reactivate')) {
      // Not cancelled, so nothing to change at the provider: answered without calling it.
      expect(res.statusCode, res.body).toBe(200);
      return;
    }
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(
      'Your subscription could not be found at the payment provider. Please contact support.',
    );
    const status = await t.app.inject({ url: '/api/subscription/status', headers: { cookie } });
    expect(status.json()).toMatchObject({ isActive: true, subscription: { cancelAtPeriodEnd: false } });
  });
});
