import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { barButtonTops, roomChrome } from '../pages/RoomChrome.js';
import { createMeeting, setCoverEveryone, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import {
  horizontalOverflow,
  launchBrowser,
  newContext,
  screenshot,
  watchErrors,
} from '../support/browser.js';

const baseURL = inject('baseURL');
// Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not
// govern, so the page is tested as served; addScriptTag would be an inline script it refuses.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The widths of issue 37 item 8, each with a height such a screen has. */
const SCREENS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1024', width: 1024, height: 768 },
  { name: '768', width: 768, height: 1024 },
  { name: '390', width: 390, height: 844 },
] as const;

/** The side panel's states worth measuring: closed, and open on each tab but the whiteboard. */
const PANELS = [null, 'People', 'Chat & Files', 'AI'] as const;

/**
 * A calm room on every screen (issue 37 item 8): nothing of the room's chrome over anything else
 * at 1440, 1024, 768 and 390 px, for a host and for a guest on the free clock; the bar one row;
 * the less-used controls in More, by keyboard; one door to the AI; the host's Leave offering End
 * meeting for everyone; no serious or critical axe violations.
 */
describe('a calm room on every screen', () => {
  let browser: Browser;
  let hostPage: Page;
  let guestPage: Page;
  let host: RoomPage;
  let guest: RoomPage;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    hostPage = await (await newContext(browser, baseURL)).newPage();
    guestPage = await (await newContext(browser, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    errors.guest = watchErrors(guestPage);
    host = new RoomPage(hostPage);
    guest = new RoomPage(guestPage);
    await signInAsProHost(hostPage, { email: 'calm-host@example.com', firstName: 'Hana', lastName: 'Host' });
    const id = await createMeeting(hostPage);
    // Guests of a Pro host are covered by default (issue 37 item 3): off here, so the guest has
    // the free-time pill whose place this spec checks.
    await setCoverEveryone(hostPage, id, false);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    await guest.open(id);
    await guest.joinFromDialog('Gus', { micOn: false });
    await host.remoteTiles.first().waitFor();
    // The guest is on the free clock: the pill that used to cover the panel's tabs is there.
    await guestPage.getByTestId('free-time-left').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the side panel on `tab` (or closes it) the way a person would at this width. */
  async function showPanel(page: Page, tab: (typeof PANELS)[number]): Promise<void> {
    const aside = page.getByRole('complementary', { name: 'Side panel' });
    if (tab === null) {
      if (await aside.isVisible()) await aside.getByRole('button', { name: 'Close panel' }).click();
      await aside.waitFor({ state: 'detached' });
      return;
    }
    if (!(await aside.isVisible())) await new RoomPage(page).control('People').click();
    const t = aside.getByRole('tab', { name: tab, exact: true });
    if ((await t.getAttribute('aria-selected')) !== 'true') await t.click();
    await expect.poll(() => t.getAttribute('aria-selected')).toBe('true');
  }

  it('nothing of the chrome overlaps at 1440, 1024, 768 and 390 px, and the bar is one row', async () => {
    const found: string[] = [];
    for (const screen of SCREENS) {
      for (const [who, page] of [
        ['host', hostPage],
        ['guest', guestPage],
      ] as const) {
        await page.setViewportSize({ width: screen.width, height: screen.height });
        for (const tab of PANELS) {
          await showPanel(page, tab);
          // Let the layout settle (fonts, the lazy tools panel).
          await page.waitForTimeout(200);
          const report = await roomChrome(page);
          const where = `${who} at ${screen.name} px, ${tab ?? 'no'} panel`;
          for (const o of report.overlaps) found.push(`${where}: ${o}`);
          expect(report.boxes.length, `${where}: chrome measured`).toBeGreaterThan(3);
          if (!report.sheet) {
            const tops = await barButtonTops(page);
            expect(tops.length, `${where}: bar buttons`).toBeGreaterThanOrEqual(5);
            expect(
              Math.max(...tops) - Math.min(...tops),
              `${where}: one row (${tops.join(', ')})`,
            ).toBeLessThanOrEqual(3);
          }
          expect(await horizontalOverflow(page), `${where}: nothing wider than the screen`).toBe(0);
          if (tab === null || tab === 'AI') {
            await screenshot(page, `room-calm-${who}-${screen.name}-${tab === null ? 'closed' : 'ai'}`);
          }
        }
        // A side panel that covers the phone's screen: its own chrome was measured; the room's is
        // under it, so measure the phone's bar with the panel closed again.
        await showPanel(page, null);
      }
    }
    expect(found).toEqual([]);

    // The measure is not blind: the pill floated as it used to (fixed under the header, centred
    // over the room) is reported on the panel's tabs at 768 px.
    await guestPage.setViewportSize({ width: 768, height: 1024 });
    await showPanel(guestPage, 'AI');
    await guestPage
      .getByTestId('free-time-overlay')
      .evaluate((el) => el.setAttribute('style', 'position:fixed;top:56px;left:0;right:0;z-index:30'));
    const floating = await roomChrome(guestPage);
    await guestPage.getByTestId('free-time-overlay').evaluate((el) => el.removeAttribute('style'));
    expect(floating.overlaps.join('\n')).toMatch(/free-time-left|Free time left/);
    await showPanel(guestPage, null);
  }, 240_000);

  it('one door to the AI: the AI tab is Meeting Tools, and AI Tools opens that tab', async () => {
    await hostPage.setViewportSize({ width: 1440, height: 900 });
    await host.control('AI Tools').click();
    const aside = hostPage.getByRole('complementary', { name: 'Side panel' });
    await aside.getByRole('heading', { name: 'Meeting Tools' }).waitFor();
    expect(await aside.getByRole('tab').allTextContents()).toEqual([
      'People',
      'Chat & Files',
      'AI',
      'Collaborate',
    ]);
    await expect(
      aside.getByRole('tab', { name: 'AI', exact: true }).getAttribute('aria-selected'),
    ).resolves.toBe('true');
    expect(await aside.getByRole('button', { name: 'Open Tools' }).count()).toBe(0);
    await showPanel(hostPage, null);
  });

  it('More holds the less-used controls, by keyboard: arrows, Enter, Escape', async () => {
    await hostPage.setViewportSize({ width: 390, height: 844 });
    const more = host.control('More');
    await more.focus();
    await hostPage.keyboard.press('Enter');
    const menu = hostPage.getByRole('menu');
    await menu.waitFor();
    // The first item has the focus; the host's less-used controls are all here.
    const items = menu.getByRole('menuitem').or(menu.getByRole('menuitemcheckbox'));
    const names = (await items.allTextContents()).map((t) => t.trim());
    expect(names).toEqual(expect.arrayContaining(['AI Tools', 'Collaborate', 'Start AI', 'Mute All']));
    await expect
      .poll(() => hostPage.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe('AI Tools');
    await screenshot(hostPage, 'room-calm-host-390-more-open');
    // Escape closes it and gives the focus back to More.
    await hostPage.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect
      .poll(() => hostPage.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('More');

    // Down to Mute All, Enter: the room's Mute All is on (the server's answer turns it to Unmute All).
    await hostPage.keyboard.press('Enter');
    await menu.waitFor();
    for (let i = 0; i < 10; i++) {
      const focused = await hostPage.evaluate(() => document.activeElement?.textContent?.trim());
      if (focused === 'Mute All') break;
      await hostPage.keyboard.press('ArrowDown');
    }
    await hostPage.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await more.focus();
    await hostPage.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'Unmute All' }).waitFor({ timeout: 10_000 });
    await hostPage.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect
      .poll(() => hostPage.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('More');

    // The first item, AI Tools, opens the AI tab.
    await hostPage.keyboard.press('Enter');
    await menu.waitFor();
    await hostPage.keyboard.press('Enter');
    await hostPage.getByRole('heading', { name: 'Meeting Tools' }).waitFor();
    await showPanel(hostPage, null);
  });

  it('has no serious or critical axe violations in the room, at 1440 and 390 px', async () => {
    const found: string[] = [];
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      for (const [who, page] of [
        ['host', hostPage],
        ['guest', guestPage],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const tab of [null, 'People'] as const) {
          await showPanel(page, tab);
          if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
          const violations = await page.evaluate(async () => {
            const axe = (window as unknown as { axe: { run: (el: Element) => Promise<AxeResults> } }).axe;
            type AxeResults = {
              violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
            };
            const result = await axe.run(document.body);
            return result.violations
              .filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          });
          for (const v of violations) found.push(`${who} at ${width} px, ${tab ?? 'no'} panel: ${v}`);
        }
        await showPanel(page, null);
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  it("the host's Leave offers End meeting for everyone; the guest sees the meeting end", async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await hostPage.setViewportSize({ width, height });
      await host.control('Leave meeting').click();
      const dialog = hostPage.getByRole('dialog', { name: 'Leave the meeting?' });
      await dialog.waitFor();
      // Its three buttons lie wholly inside it (a narrower dialog cut Cancel off at 1440 px).
      const box = (await dialog.boundingBox())!;
      for (const b of await dialog.getByRole('button').all()) {
        const r = (await b.boundingBox())!;
        const inside =
          r.x >= box.x &&
          r.y >= box.y &&
          r.x + r.width <= box.x + box.width &&
          r.y + r.height <= box.y + box.height;
        expect(inside, `${await b.textContent()} inside the dialog at ${width} px`).toBe(true);
      }
      await screenshot(hostPage, `room-calm-host-${width}-leave-dialog`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    // Cancel kept everyone in.
    await expect(host.participantCount.textContent()).resolves.toBe('2 participants');

    await host.control('Leave meeting').click();
    await hostPage
      .getByRole('dialog', { name: 'Leave the meeting?' })
      .getByRole('button', { name: 'End meeting for everyone' })
      .click();
    await guestPage.getByRole('heading', { name: 'This meeting has ended' }).waitFor({ timeout: 10_000 });
    await hostPage.getByRole('heading', { name: 'This meeting has ended' }).waitFor({ timeout: 10_000 });
    await screenshot(guestPage, 'room-calm-guest-meeting-ended');
    expect(errors.host).toEqual([]);
    expect(errors.guest).toEqual([]);
  });
});
