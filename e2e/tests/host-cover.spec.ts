import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FreeTimeOverlay } from '../pages/FreeTime.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

const WIDE = { width: 1440, height: 900 } as const;
const GRACE_MS = 8000;

/**
 * Issue 37 item 3 on a server that runs minutes as half seconds (FREE_TIER_MINUTE_MS=500): a Pro
 * host's meeting covers its guests by default; the host turns it off in Settings > Account and is
 * then told 5 minutes (seconds here) before a guest's free time ends and when it has run out.
 */
describe("a Pro host's meeting covers its guests", () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function visitor(viewport: { width: number; height: number }) {
    const ctx = await newContext(browser, server.url, viewport);
    contexts.push(ctx);
    const page = await ctx.newPage();
    return { page, room: new RoomPage(page), overlay: new FreeTimeOverlay(page), errors: watchErrors(page) };
  }

  beforeAll(async () => {
    server = await startServer({ FREE_TIER_MINUTE_MS: '500', FREE_TIER_GRACE_MS: String(GRACE_MS) });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('by default no clock for a guest; off, the host hears before and when it runs out', async () => {
    const host = await visitor(WIDE);
    await signInAsProHost(host.page, {
      email: 'cover-host@example.com',
      firstName: 'Cora',
      lastName: 'Host',
    });
    const meetingId = await createMeeting(host.page);
    await host.room.open(meetingId, { name: 'Cora', host: true });
    await host.room.waitJoined();

    const guest = await visitor(VIEWPORTS.phone);
    await guest.room.open(meetingId);
    await guest.room.joinFromDialog('Gil', { micOn: false });
    // Covered: no clock at all, past where one would have appeared.
    await guest.page.waitForTimeout(3000);
    expect(await guest.page.getByTestId('free-time-overlay').count()).toBe(0);
    await screenshot(guest.page, 'host-cover-guest-covered-390');

    // Settings > Account: the switch is on; the host turns it off.
    await host.page.getByRole('button', { name: 'Settings' }).first().click();
    await host.page.getByRole('tab', { name: 'Account' }).click();
    const cover = host.page.getByRole('switch', { name: /Cover everyone/ });
    // Disabled, showing the default, until the meeting's own setting has loaded.
    await expect.poll(() => cover.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await cover.getAttribute('aria-checked')).toBe('true');
    await screenshot(host.page, 'host-cover-settings-on-1440');
    await cover.click();
    await expect.poll(() => cover.getAttribute('aria-checked'), { timeout: 5000 }).toBe('false');
    await screenshot(host.page, 'host-cover-settings-off-1440');
    await host.page.keyboard.press('Escape');

    // The guest is counted from now: 45 "minutes", and the host is told at 40 and at 45.
    await guest.overlay.timeLeft.waitFor({ timeout: 10_000 });
    const toasts = host.page.getByTestId('toast');
    await toasts.filter({ hasText: "Gil's free time ends in 5 minutes" }).waitFor({ timeout: 50_000 });
    await expect(toasts.filter({ hasText: "Cover everyone's time" }).count()).resolves.toBeGreaterThan(0);
    await screenshot(host.page, 'host-cover-notice-ending-1440');
    await toasts.filter({ hasText: "Gil's free time has run out" }).waitFor({ timeout: 15_000 });
    await screenshot(host.page, 'host-cover-notice-ended-1440');
    await guest.overlay.graceDialog.waitFor();
    await screenshot(guest.page, 'host-cover-guest-grace-390');
    // Without a card the guest leaves when the grace ends.
    await guest.page.waitForURL((u) => u.pathname === '/', { timeout: GRACE_MS + 10_000 });
    expect(host.errors.filter((e) => !e.includes('WebSocket'))).toEqual([]);
  }, 150_000);

  it('the notice reads well on a phone-sized host', async () => {
    const host = await visitor(VIEWPORTS.phone);
    await signInAsProHost(host.page, {
      email: 'cover-host2@example.com',
      firstName: 'Cal',
      lastName: 'Host',
    });
    const meetingId = await createMeeting(host.page);
    await host.room.open(meetingId, { name: 'Cal', host: true });
    await host.room.waitJoined();
    await host.page.getByRole('button', { name: 'Settings' }).first().click();
    await host.page.getByRole('tab', { name: 'Account' }).click();
    const cover = host.page.getByRole('switch', { name: /Cover everyone/ });
    await expect.poll(() => cover.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await cover.getAttribute('aria-checked')).toBe('true');
    await screenshot(host.page, 'host-cover-settings-on-390');
    await cover.click();
    await expect.poll(() => cover.getAttribute('aria-checked'), { timeout: 5000 }).toBe('false');
    await host.page.keyboard.press('Escape');
    const guest = await visitor(WIDE);
    await guest.room.open(meetingId, { name: 'Gale' });
    await guest.room.waitJoined();
    await host.page
      .getByTestId('toast')
      .filter({ hasText: "Gale's free time ends in 5 minutes" })
      .waitFor({ timeout: 50_000 });
    await screenshot(host.page, 'host-cover-notice-ending-390');
  }, 150_000);
});
