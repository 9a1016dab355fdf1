import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { LandingPage } from '../pages/Landing.js';
import {
  VIEWPORTS,
  horizontalOverflow,
  launchBrowser,
  newContext,
  screenshot,
  watchErrors,
} from '../support/browser.js';

const baseURL = inject('baseURL');

/**
 * Issue 37 item 4 at 1440 and 390 px: Try Free says what is free (joining anyone's meeting, 45
 * minutes a meeting) and what Pro adds; a free account that starts a meeting is led to Pro with
 * that explanation, not an error toast.
 */
describe.each([
  ['1440', { width: 1440, height: 900 }],
  ['390', VIEWPORTS.phone],
] as const)('Try Free at %s px', (label, viewport) => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the free plan and Pro side by side, then the way to Pro for a free host', async () => {
    const ctx = await newContext(browser, baseURL, viewport);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await signIn(page, {
      email: `try-free-${label}-${Date.now()}@example.com`,
      firstName: 'Tess',
      lastName: 'Free',
    });
    const landing = new LandingPage(page);
    await landing.open();
    await landing.tryFree.click();
    await expect
      .poll(() => landing.freeAndPro.evaluate((e) => e.getBoundingClientRect().top), { timeout: 5000 })
      .toBeLessThan(200);
    const text = await landing.freeAndPro.innerText();
    expect(text).toContain("Join anyone's meeting from the link they send you");
    expect(text).toContain('45 minutes per meeting, then 10 cents a minute with a saved card');
    expect(text).toContain('Start instant meetings and schedule meetings');
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `try-free-panel-${label}`);

    await landing.name.fill('Tess');
    await landing.startInstant.click();
    await page.waitForURL((u) => u.pathname === '/subscribe' && u.searchParams.get('reason') === 'host');
    await page.getByTestId('hosting-needs-pro').waitFor();
    await page.getByTestId('plan-card').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('toast').count()).toBe(0);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `try-free-subscribe-${label}`);

    // The Pro card's own link leads to the same explanation.
    await landing.open();
    await landing.freeAndPro.getByRole('link', { name: 'Get Pro to host' }).click();
    await page.getByTestId('hosting-needs-pro').waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
