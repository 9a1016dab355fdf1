import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { SubscribePage } from '../pages/Subscribe.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';

const baseURL = inject('baseURL');
const run = Date.now().toString(36);

/** Creates an instant meeting from the page (its cookies): the status code the API answers. */
async function createMeeting(
  page: Page,
): Promise<{ status: number; body: { requiresSubscription?: boolean } }> {
  return page.evaluate(async () => {
    const res = await fetch('/api/meetings', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ meetingType: 'instant', title: 'Pro check', isActive: true, status: 'live' }),
    });
    return { status: res.status, body: await res.json() };
  });
}

async function status(
  page: Page,
): Promise<{ isActive: boolean; subscription: { cancelAtPeriodEnd: boolean } | null }> {
  return page.evaluate(async () =>
    (await fetch('/api/subscription/status', { credentials: 'include' })).json(),
  );
}

/**
 * Whether the header shows the Pro badge (in the phone menu when the header is collapsed), once the
 * status has been answered; waits for the expected element so a slow render cannot pass a test.
 */
async function proBadgeVisible(page: Page, expected: boolean): Promise<boolean> {
  // The header asks for the status after the user; decide only once that answer is rendered.
  const statusLoaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/subscription/status');
  await page.goto('/');
  await page.locator('#main').waitFor();
  await statusLoaded;
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('user-name').locator('visible=true').waitFor();
  const badge = page.getByTestId('pro-badge').locator('visible=true');
  const premium = page.getByRole('link', { name: 'Go Premium' }).locator('visible=true');
  if (expected) await badge.waitFor();
  else await premium.waitFor();
  const visible = await badge.count();
  const close = page.getByRole('button', { name: 'Close menu' });
  if (await close.isVisible()) await close.click();
  return visible > 0;
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

describe.each([
  ['desktop', VIEWPORTS.desktop],
  ['phone', VIEWPORTS.phone],
] as const)('Pro subscription through the sandbox on %s', (label, viewport) => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];

  async function userPage(first: string): Promise<{ page: Page; email: string }> {
    const context = await newContext(browser, baseURL, viewport);
    contexts.push(context);
    const page = await context.newPage();
    errors.push(watchErrors(page));
    const email = `${first.toLowerCase()}-${label}-${run}@example.com`;
    await signIn(page, { email, firstName: first, lastName: 'Tester' });
    return { page, email };
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('subscribes with 4242: success page, Pro badge, and creating a meeting is allowed', async () => {
    const { page, email } = await userPage('Ann');
    expect((await createMeeting(page)).status).toBe(403);
    expect(await proBadgeVisible(page, false)).toBe(false);

    const subscribe = new SubscribePage(page);
    await subscribe.open();
    const plan = page.getByTestId('plan-card');
    await plan.waitFor();
    for (const text of ['$9.99', '$29.99', '67% off', '30-day money-back guarantee']) {
      expect(await plan.getByText(text, { exact: false }).count(), text).toBeGreaterThan(0);
    }
    expect(await plan.locator('s').textContent()).toBe('$29.99');
    expect(await subscribe.email.inputValue()).toBe(email);
    await screenshot(page, `subscribe-plan-${label}`);

    const created = page.waitForResponse((r) => r.url().endsWith('/api/subscription/create'));
    await subscribe.startCheckout();
    const subscriptionId = ((await (await created).json()) as { subscription: { id: string } }).subscription
      .id;
    await expect(page.getByText('Payments sandbox: no real card is charged.').isVisible()).resolves.toBe(
      true,
    );
    await expect(subscribe.expiry.getAttribute('placeholder')).resolves.toBe('MM / YY');
    await subscribe.cardNumber.fill('4242424242424242');
    expect(await subscribe.cardNumber.inputValue()).toBe('4242 4242 4242 4242');
    await screenshot(page, `subscribe-payment-${label}`);

    await subscribe.payWith('4242 4242 4242 4242');
    await subscribe.waitForSuccessPage();
    await toast(page, 'Subscription Active!').waitFor();
    await page.getByText(`A confirmation email has been sent to ${email}.`).waitFor();
    await screenshot(page, `subscription-success-${label}`);

    expect(await proBadgeVisible(page, true)).toBe(true);
    expect((await createMeeting(page)).status).toBe(201);

    // The confirmation page, by subscription id and in status-check mode.
    await page.goto(`/subscription/confirmation/${subscriptionId}`);
    await page.getByRole('heading', { name: 'Welcome to the Pro plan' }).waitFor();
    await page.getByText('Pro Member').waitFor();
    await screenshot(page, `subscription-confirmation-${label}`);
    await page.goto(`/subscription/confirmation/check?email=${encodeURIComponent(email)}`);
    await page.getByRole('heading', { name: 'Welcome to the Pro plan' }).waitFor();

    // Cancel, then reactivate.
    await subscribe.open();
    await subscribe.activeView.waitFor();
    await screenshot(page, `subscribe-active-${label}`);
    await subscribe.cancelButton.click();
    await toast(page, 'Subscription Cancelled').waitFor();
    await subscribe.reactivateButton.waitFor();
    expect((await status(page)).subscription?.cancelAtPeriodEnd).toBe(true);
    expect((await status(page)).isActive).toBe(true);
    await screenshot(page, `subscribe-cancelled-${label}`);
    await subscribe.reactivateButton.click();
    await toast(page, 'Subscription Reactivated').waitFor();
    await subscribe.cancelButton.waitFor();
    expect((await status(page)).subscription?.cancelAtPeriodEnd).toBe(false);
  });

  it('shows Payment Failed with the decline message for 4000 0000 0000 0002 and grants nothing', async () => {
    const { page } = await userPage('Bob');
    const subscribe = new SubscribePage(page);
    await subscribe.open();
    await subscribe.startCheckout();
    await subscribe.payWith('4000 0000 0000 0002');
    const failed = toast(page, 'Payment Failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Your card was declined.');
    expect(await subscribe.cardError.textContent()).toBe('Your card was declined.');
    expect(new URL(page.url()).pathname).toBe('/subscribe');
    await screenshot(page, `subscribe-declined-${label}`);
    expect((await status(page)).isActive).toBe(false);
    expect((await createMeeting(page)).body.requiresSubscription).toBe(true);
    expect(await proBadgeVisible(page, false)).toBe(false);
  });

  it('checks card input before sending it', async () => {
    const { page } = await userPage('Dee');
    const subscribe = new SubscribePage(page);
    await subscribe.open();
    await subscribe.startCheckout();
    await subscribe.payWith('4242 4242 4242 4242', '01 / 20', '123');
    expect(await subscribe.cardError.textContent()).toBe("Your card's expiration year is in the past.");
    await subscribe.payWith('4242 4242 4242 4242', '12 / 34', '1');
    expect(await subscribe.cardError.textContent()).toBe("Your card's security code is incomplete.");
  });

  it('asks 4000 0025 0000 3155 for authentication before it succeeds', async () => {
    const { page } = await userPage('Cy');
    const subscribe = new SubscribePage(page);
    await subscribe.open();
    await subscribe.startCheckout();
    await subscribe.payWith('4000 0025 0000 3155');
    await subscribe.authDialog.waitFor();
    expect((await status(page)).isActive).toBe(false);
    await screenshot(page, `subscribe-authentication-${label}`);
    await subscribe.authDialog.getByRole('button', { name: 'Complete authentication' }).click();
    await subscribe.waitForSuccessPage();
    expect((await status(page)).isActive).toBe(true);
  });

  it('shows Subscription Error with Try Again for a subscription that is not the user’s', async () => {
    const { page } = await userPage('Eve');
    await page.goto('/subscription/confirmation/sub_doesnotexist');
    await page.getByRole('heading', { name: 'Subscription Error' }).waitFor();
    await page.getByText('Subscription not found').waitFor();
    await screenshot(page, `subscription-confirmation-error-${label}`);
    await page.getByRole('link', { name: 'Try Again' }).click();
    await page.waitForURL((u) => u.pathname === '/subscribe');
  });

  it('ran without script errors', () => {
    const real = errors.flat();
    expect(real).toEqual([]);
  });
});
