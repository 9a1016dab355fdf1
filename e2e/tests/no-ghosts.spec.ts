import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { launchBrowser, newContext, screenshot } from '../support/browser.js';
import { eventually } from '../support/poll.js';

const baseURL = inject('baseURL');

/**
 * No ghosts (issue 37 item 7): a guest who closed the tab stayed a frozen "Reconnecting..." tile
 * for ~50 s, and a knocker who gave up stayed listed. A closed tab leaves within the server's
 * closed grace (5 s, so that a reload comes back as itself), never listed as away (its tile may
 * say "Reconnecting..." for those seconds: its peer connection dropped); a knock leaves the host's
 * notice as soon as the knocker's tab is gone.
 */
describe('no ghosts', () => {
  let browser: Browser;
  let hostPage: Page;
  let host: RoomPage;

  beforeAll(async () => {
    browser = await launchBrowser();
    hostPage = await (await newContext(browser, baseURL)).newPage();
    host = new RoomPage(hostPage);
    await signInAsProHost(hostPage, { email: 'ghost-host@example.com', firstName: 'Hana', lastName: 'Host' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function guestTab(): Promise<{ page: Page; room: RoomPage; ctx: BrowserContext }> {
    const ctx = await newContext(browser, baseURL);
    const page = await ctx.newPage();
    return { page, room: new RoomPage(page), ctx };
  }

  it('a guest who closes the tab is gone from the host’s room in seconds, never listed as away', async () => {
    const id = await createMeeting(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const gus = await guestTab();
    await gus.room.open(id, { name: 'Gus' });
    await gus.room.waitJoined();
    await host.remoteTiles.first().waitFor();
    // Watch the host's room for Gus shown as away (the People list's "Reconnecting...").
    await hostPage.evaluate(() => {
      const w = window as unknown as {
        __sawAway: boolean;
        __parley?: { participants(): { isConnected: boolean }[] };
      };
      w.__sawAway = false;
      setInterval(() => {
        if (w.__parley?.participants().some((p) => !p.isConnected)) w.__sawAway = true;
      }, 50);
    });
    const t0 = Date.now();
    await gus.page.close();
    await eventually(
      () => host.remoteTiles.count(),
      (n) => n === 0,
      12_000,
    );
    const goneMs = Date.now() - t0;
    console.log(`no-ghosts: a closed tab left the host's room after ${goneMs} ms`);
    expect(goneMs).toBeLessThan(20_000); // it was ~50 s; the closed grace is 5 s
    await expect(
      hostPage.evaluate(() => (window as unknown as { __sawAway: boolean }).__sawAway),
    ).resolves.toBe(false);
    await expect(host.participantCount.textContent()).resolves.toBe('1 participant');
    await gus.ctx.close();
  });

  it('a knocker who closes the tab leaves the host’s notice; knocking again shows one Kim', async () => {
    const id = await createMeeting(hostPage, { waitingRoom: true });
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const notice = host.knockNotice;

    const kim = await guestTab();
    await kim.room.open(id);
    await kim.room.joinFromDialog('Kim', { micOn: false, waitForRoom: false });
    await notice.getByText('Kim wants to join').waitFor({ timeout: 5000 });
    await kim.page.close();
    await notice.waitFor({ state: 'detached', timeout: 5000 });

    const again = await guestTab();
    await again.room.open(id);
    await again.room.joinFromDialog('Kim', { micOn: false, waitForRoom: false });
    await notice.getByText('Kim wants to join').waitFor({ timeout: 5000 });
    expect(await notice.getByRole('button', { name: 'Admit Kim' }).count()).toBe(1);
    await screenshot(hostPage, 'room-knock-once-desktop');
    await notice.getByRole('button', { name: 'Admit Kim' }).click();
    await again.room.waitJoined();
    await notice.waitFor({ state: 'detached', timeout: 5000 });
    await again.ctx.close();
    await kim.ctx.close();
  });
});
