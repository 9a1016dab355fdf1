import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { FreeTimeOverlay } from '../pages/FreeTime.js';
import { createMeeting, setCoverEveryone, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The free tier on a server that runs minutes as seconds (FREE_TIER_MINUTE_MS=1000): the 45 free
 * minutes last 45 s, the prompt opens at 40 s; the grace is 12 s (FREE_TIER_GRACE_MS).
 */
const GRACE_MS = 12_000;

describe('the free tier in the meeting room (minutes as seconds)', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let hostPage: Page;
  let host: RoomPage;

  async function page(viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS] = VIEWPORTS.desktop) {
    const ctx = await newContext(browser, server.url, viewport);
    contexts.push(ctx);
    const p = await ctx.newPage();
    return { page: p, room: new RoomPage(p), overlay: new FreeTimeOverlay(p), errors: watchErrors(p) };
  }

  beforeAll(async () => {
    server = await startServer({ FREE_TIER_MINUTE_MS: '1000', FREE_TIER_GRACE_MS: String(GRACE_MS) });
    browser = await launchBrowser();
    const h = await page();
    hostPage = h.page;
    host = h.room;
    await signInAsProHost(hostPage, { email: 'free-host@example.com', firstName: 'Fay', lastName: 'Host' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('a guest skips the prompt and is removed after the grace; another saves 4242 in the grace and stays', async () => {
    const meetingId = await createMeeting(hostPage);
    // The host turned the cover of guests off (on by default: issue 37 item 3), so they count.
    await setCoverEveryone(hostPage, meetingId, false);
    await host.open(meetingId, { name: 'Fay', host: true });
    await host.waitJoined();

    // Gus: a guest on a desktop. Bea: signed in without Pro, on a phone.
    const gus = await page();
    const bea = await page(VIEWPORTS.phone);
    await signIn(bea.page, { email: 'bea@example.com', firstName: 'Bea', lastName: 'Payer' });

    // One door (issue 37 item 2): a name, and in; the e-mail is asked by the payment card.
    await gus.room.open(meetingId);
    await gus.room.preJoinName.waitFor();
    expect(await gus.page.getByLabel('Email for billing').count()).toBe(0);
    await screenshot(gus.page, 'free-tier-join-form-desktop');
    await gus.room.joinFromDialog('Gus', { micOn: false });
    const gusJoinedAt = Date.now();
    await gus.overlay.timeLeft.waitFor();
    expect(await gus.overlay.secondsLeft()).toBeGreaterThan(40);
    expect(await gus.overlay.state()).toBe('free');
    await screenshot(gus.page, 'free-tier-clock-desktop');

    await bea.room.open(meetingId);
    await bea.room.preJoinName.waitFor();
    // A signed-in user's account name is filled in.
    await expect.poll(() => bea.room.preJoinName.inputValue(), { timeout: 5000 }).toBe('Bea Payer');
    await screenshot(bea.page, 'free-tier-join-form-phone');
    await bea.room.joinFromDialog('Bea', { micOn: false });

    await bea.overlay.timeLeft.waitFor();
    // On a phone an open panel covers the screen: the clock moves under its tabs, off its controls.
    await bea.room.openPeople();
    const panel = bea.page.getByRole('complementary', { name: 'Side panel' });
    const strip = panel.getByRole('status').filter({ hasText: 'Free time left' });
    await strip.waitFor();
    await bea.overlay.timeLeft.waitFor({ state: 'hidden' });
    const tabs = await panel.getByRole('tablist').boundingBox();
    const stripBox = await strip.boundingBox();
    expect(stripBox!.y).toBeGreaterThanOrEqual(tabs!.y + tabs!.height - 1);
    await screenshot(bea.page, 'free-tier-panel-strip-phone');
    await panel.getByRole('button', { name: 'Close panel' }).click();
    await bea.overlay.timeLeft.waitFor();

    // 35 s: the upgrade hint (10 left); 40 s: the payment prompt and the warning style.
    const gusLeftAtPrompt = await gus.overlay.watchPromptOpening();
    await gus.page
      .getByRole('link', { name: 'Upgrade to Pro for unlimited time' })
      .waitFor({ timeout: 40_000 });
    await gus.overlay.prompt.waitFor({ timeout: 10_000 });
    // The prompt opened at 40 minutes (seconds here) elapsed: 5 left, by the server's clock (read
    // in the page as the prompt appeared: on a starved machine (2026-11-27, load 19) the test's
    // own read came 2-3 s later).
    const leftAtPrompt = await gusLeftAtPrompt();
    expect(leftAtPrompt).toBeLessThanOrEqual(5);
    expect(leftAtPrompt).toBeGreaterThanOrEqual(3);
    expect(Date.now() - gusJoinedAt).toBeGreaterThan(38_000);
    expect(await gus.overlay.state()).toBe('warning');
    // The prompt lasts 5 s here: both skip it first. A screenshot before the click took longer
    // than that on a starved machine (2026-11-27), and the grace dialog had replaced the prompt.
    await gus.overlay.prompt.getByRole('button', { name: 'Skip for now' }).click();
    await gus.overlay.prompt.waitFor({ state: 'detached' });
    // Skipping keeps the warning style while free time is left. On a machine slow enough that the
    // click and the read took the prompt's whole 5 s (2026-11-27, session 13), the grace has begun.
    const afterSkip = await gus.overlay.stateAndSecondsLeft();
    expect(afterSkip.state).toBe(afterSkip.left > 0 ? 'warning' : 'grace');
    await bea.overlay.prompt.getByRole('button', { name: 'Skip for now' }).click();
    await screenshot(gus.page, 'free-tier-warning-desktop');

    // The Pro host never sees the clock.
    expect(await hostPage.getByTestId('free-time-overlay').count()).toBe(0);

    // 45 s: the grace, with its countdown.
    await gus.overlay.graceDialog.waitFor({ timeout: 10_000 });
    await gus.overlay.graceDialog
      .getByText('Add a payment method in 12 seconds or the call will end.')
      .waitFor();
    await screenshot(gus.page, 'free-tier-grace-desktop');
    await bea.overlay.graceDialog.waitFor();
    await screenshot(bea.page, 'free-tier-grace-phone');

    // Bea saves the test card during the grace and stays, paying as she goes.
    await bea.overlay.saveTestCard(bea.overlay.graceDialog);
    await bea.overlay.overage.waitFor({ timeout: 10_000 });
    await bea.overlay.graceDialog.waitFor({ state: 'detached' });
    await screenshot(bea.page, 'free-tier-overage-phone');

    // Gus lets it run out: 'Call Ended', back to /.
    await gus.page
      .getByTestId('toast')
      .filter({ hasText: 'Call Ended' })
      .filter({ hasText: 'Free time expired without payment method.' })
      .waitFor({ timeout: GRACE_MS + 5000 });
    await gus.page.waitForURL((u) => u.pathname === '/');
    await screenshot(gus.page, 'free-tier-call-ended-desktop');
    expect(await hostPage.getByTestId('free-time-overlay').count()).toBe(0);

    // Bea is still in, and the ledger charges her minutes: 10 cents each.
    await bea.page.waitForTimeout(3000);
    expect(await bea.room.room.isVisible()).toBe(true);
    const overage = (await bea.overlay.overage.textContent()) ?? '';
    const minutes = Number(/(\d+) min/.exec(overage)?.[1]);
    expect(minutes).toBeGreaterThanOrEqual(3);
    expect(overage).toContain(`$${(minutes * 0.1).toFixed(2)}`);
    await bea.room.control('Leave meeting').click();
    await bea.page.goto('/settings');
    const usage = bea.page.getByTestId('billing-usage');
    await usage.waitFor();
    const total = (await bea.page.getByTestId('billing-usage-total').textContent()) ?? '';
    const charged = Number(/(\d+) minutes? charged/.exec(total)?.[1]);
    expect(charged).toBeGreaterThanOrEqual(minutes);
    expect(total).toContain(`$${(charged * 0.1).toFixed(2)}`);
    await expect(usage.textContent()).resolves.toContain('VISA •••• 4242');
    await expect(usage.textContent()).resolves.toContain(meetingId);
    await screenshot(bea.page, 'free-tier-settings-usage-phone');
    expect(gus.errors.filter((e) => !e.includes('WebSocket'))).toEqual([]);
    expect(bea.errors.filter((e) => !e.includes('WebSocket'))).toEqual([]);
  }, 150_000);

  it('a guest who leaves and rejoins keeps the clock', async () => {
    const meetingId = await createMeeting(hostPage);
    await setCoverEveryone(hostPage, meetingId, false);
    // The host stays in: an instant meeting ends when its last participant leaves.
    await host.open(meetingId, { name: 'Fay', host: true });
    await host.waitJoined();
    const lea = await page();
    await lea.room.open(meetingId);
    await lea.room.joinFromDialog('Lea', { micOn: false });
    await lea.overlay.timeLeft.waitFor();
    await lea.page.waitForTimeout(6000);
    const counted = await lea.overlay.secondsLeft();
    const countedAt = Date.now();
    expect(counted).toBeLessThanOrEqual(40);
    // A reload resumes the same participant: the clock shows the server's time, not a fresh 45
    // (the reload's own seconds count: the participant is still in).
    await lea.page.reload();
    await lea.room.waitJoined();
    await lea.overlay.timeLeft.waitFor();
    const before = await lea.overlay.secondsLeft();
    const beforeAt = Date.now();
    expect(before).toBeLessThanOrEqual(counted);
    expect(before).toBeGreaterThanOrEqual(counted - Math.max(6, seconds(beforeAt - countedAt) + 1));
    await lea.room.control('Leave meeting').click();
    await lea.page.getByRole('heading', { name: 'You left the meeting' }).waitFor();
    const leftAt = Date.now();
    // Time away is not counted; a new tab of the same browser (its browser secret), a new name:
    // the same clock. What may count is the time in the room on either side of the 4 s away (the
    // click to leave, the join and the read), measured here: on a starved machine a join alone
    // took over 3 s.
    await lea.page.waitForTimeout(4000);
    const tab = await lea.page.context().newPage();
    const again = { page: tab, room: new RoomPage(tab), overlay: new FreeTimeOverlay(tab) };
    const joinAt = Date.now();
    await again.room.open(meetingId);
    await again.room.joinFromDialog('Lea Again', { micOn: false });
    await again.overlay.timeLeft.waitFor();
    const after = await again.overlay.secondsLeft();
    const inRoom = leftAt - beforeAt + (Date.now() - joinAt);
    expect(after).toBeLessThanOrEqual(before);
    expect(after).toBeGreaterThanOrEqual(before - Math.max(3, seconds(inRoom) + 1));
  }, 120_000);

  it("a Pro host's cover-everyone meeting shows no clock to a guest", async () => {
    const meetingId = await createMeeting(hostPage);
    await setCoverEveryone(hostPage, meetingId, false);
    await host.open(meetingId, { name: 'Fay', host: true });
    await host.waitJoined();
    const cy = await page();
    await cy.room.open(meetingId);
    await cy.room.joinFromDialog('Cy', { micOn: false });
    await cy.overlay.timeLeft.waitFor();

    await hostPage.getByRole('button', { name: 'Settings' }).first().click();
    await hostPage.getByRole('tab', { name: 'Account' }).click();
    const cover = hostPage.getByRole('switch', { name: /Cover everyone/ });
    // The switch is disabled until the meeting's setting has loaded (it shows the default, on).
    await expect.poll(() => cover.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await cover.getAttribute('aria-checked')).toBe('false');
    await cover.click();
    await expect.poll(() => cover.getAttribute('aria-checked'), { timeout: 5000 }).toBe('true');
    await screenshot(hostPage, 'free-tier-cover-everyone-desktop');
    await hostPage.keyboard.press('Escape');

    // The guest's clock goes away at once; a guest coming in later never sees one.
    await cy.page.getByTestId('free-time-overlay').waitFor({ state: 'detached' });
    const dee = await page(VIEWPORTS.phone);
    await dee.room.open(meetingId);
    await dee.room.joinFromDialog('Dee', { micOn: false });
    await dee.page.waitForTimeout(3000);
    expect(await dee.page.getByTestId('free-time-overlay').count()).toBe(0);
    expect(await cy.page.getByTestId('free-time-overlay').count()).toBe(0);
  }, 120_000);
});

/** Milliseconds as whole seconds, rounded up. */
function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
