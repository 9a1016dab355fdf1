import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { expectMediaFrom } from '../support/media-check.js';
import { eventually } from '../support/poll.js';

const baseURL = inject('baseURL');
const run = Date.now().toString(36);

/** Mean luminance difference of neighbouring pixels of the first remote tile's video (320x240). */
async function remoteEdgeEnergy(page: Page): Promise<number> {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-tile"] video');
    if (!video || video.readyState < 2) return -1;
    const c = document.createElement('canvas');
    c.width = 320;
    c.height = 240;
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(video, 0, 0, c.width, c.height);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const lum = (i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
    let sum = 0;
    let n = 0;
    for (let y = 0; y < c.height - 1; y++)
      for (let x = 0; x < c.width - 1; x++) {
        const i = (y * c.width + x) * 4;
        sum += Math.abs(lum(i) - lum(i + 4)) + Math.abs(lum(i) - lum(i + c.width * 4));
        n += 2;
      }
    return sum / n;
  });
}

async function medianRemoteEnergy(page: Page, samples = 7): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push(await remoteEdgeEnergy(page));
    await page.waitForTimeout(150);
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/** The host's one peer connection: its SDP session version and the video track it sends. */
async function sending(page: Page): Promise<{ version: string; trackId: string | null; offers: number }> {
  return page.evaluate(() => {
    const [link] = window.__parley?.peerConnections() ?? [];
    const pc = link?.pc;
    const sdp = pc?.localDescription?.sdp ?? '';
    const version = /^o=\S+ \S+ (\d+)/m.exec(sdp)?.[1] ?? '';
    const video = pc?.getSenders().find((s) => s.track?.kind === 'video' || s.track === null);
    return {
      version,
      trackId: pc?.getSenders().find((s) => s.track?.kind === 'video')?.track?.id ?? video?.track?.id ?? null,
      offers: Number((window as { __offers?: number }).__offers ?? 0),
    };
  });
}

interface Stats {
  framesDrawn: number;
  framesProcessed: number;
  pipeline: 'worker' | 'page';
}

async function processorStats(page: Page): Promise<Stats | null> {
  return page.evaluate(
    () => (window as { __parleyBackground?: { stats: () => Stats } }).__parleyBackground?.stats() ?? null,
  );
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

async function openBackgroundTab(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Background' }).click();
  await page.getByTestId('background-panel').waitFor();
}

describe('background effects in a meeting', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('blur on the host changes what the guest receives, without renegotiation, and stops with the camera', async () => {
    const hostPage = await (await newContext(browser, baseURL)).newPage();
    const errors = watchErrors(hostPage);
    await signInAsProHost(hostPage, {
      email: `bg-host-${run}@example.com`,
      firstName: 'Hana',
      lastName: 'Host',
    });
    const id = await createMeeting(hostPage);
    const host = new RoomPage(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const guestPage = await (await newContext(browser, baseURL)).newPage();
    const guest = new RoomPage(guestPage);
    await guest.open(id, { name: 'Gus' });
    await guest.waitJoined();
    await expectMediaFrom(guest, [{ name: 'Hana' }]);

    const sharp = await medianRemoteEnergy(guestPage);
    const before = await sending(hostPage);
    await openBackgroundTab(hostPage);
    const panel = hostPage.getByTestId('background-panel');
    await panel.getByRole('button', { name: 'Blur' }).click();
    await toast(hostPage, 'Background updated').waitFor();
    // The strongest blur (radius 20), so the difference is plain whatever the codec smooths.
    await panel.getByRole('slider', { name: 'Blur intensity' }).focus();
    await hostPage.keyboard.press('End');
    await panel.getByTestId('effect-badge').filter({ hasText: 'Blur 10' }).waitFor();
    const blurred = await eventually(
      () => medianRemoteEnergy(guestPage, 5),
      (v) => v > 0 && v < sharp * 0.75,
      30_000,
    );
    const after = await sending(hostPage);
    // Chromium runs the effect in a worker, off the page's main thread.
    expect((await processorStats(hostPage))?.pipeline).toBe('worker');
    console.log(`received edge energy: none ${sharp.toFixed(2)}, blur ${blurred.toFixed(2)}`);
    // replaceTrack: another track on the same sender, and no new offer (same SDP version).
    expect(after.trackId).not.toBe(before.trackId);
    expect(after.version).toBe(before.version);
    // The guest still receives frames through the same connection.
    await expectMediaFrom(guest, [{ name: 'Hana' }]);
    await screenshot(hostPage, 'backgrounds-meeting-panel-desktop');
    // The dialog's own close button: Escape would close the "Background updated" toast first.
    await hostPage.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();

    // Camera off: nothing is processed; on again: processing resumes.
    await host.control('Turn off camera').click();
    // The effect runs in a worker whose counts reach the page by message: one sent just before
    // the camera went off may still be on its way.
    await hostPage.waitForTimeout(500);
    const off1 = await processorStats(hostPage);
    await hostPage.waitForTimeout(1500);
    const off2 = await processorStats(hostPage);
    expect(off2?.framesDrawn).toBe(off1?.framesDrawn);
    await host.control('Turn on camera').click();
    await eventually(
      () => processorStats(hostPage),
      (s) => (s?.framesDrawn ?? 0) > (off2?.framesDrawn ?? 0) + 5,
    );

    // None: the camera itself again, no processor left.
    await openBackgroundTab(hostPage);
    await hostPage.getByTestId('background-panel').getByRole('button', { name: 'None' }).click();
    await eventually(
      () => processorStats(hostPage),
      (s) => s === null,
    );
    await eventually(
      () => medianRemoteEnergy(guestPage, 5),
      (v) => v > blurred * 1.2,
      30_000,
    );
    expect((await sending(hostPage)).version).toBe(before.version);
    expect(errors.filter((e) => !e.includes('GL Driver'))).toEqual([]);
    await hostPage.context().close();
    await guestPage.context().close();
  });

  it('a guest cannot apply a premium background: the server refuses and nothing changes', async () => {
    const hostPage = await (await newContext(browser, baseURL)).newPage();
    await signInAsProHost(hostPage, {
      email: `bg-host2-${run}@example.com`,
      firstName: 'Hal',
      lastName: 'Host',
    });
    const id = await createMeeting(hostPage);
    const guestPage = await (await newContext(browser, baseURL, VIEWPORTS.phone)).newPage();
    const guest = new RoomPage(guestPage);
    await guest.open(id, { name: 'Gwen' });
    await guest.waitJoined();
    await openBackgroundTab(guestPage);
    await guestPage.waitForTimeout(300);
    await screenshot(guestPage, 'backgrounds-meeting-panel-phone');
    const panel = guestPage.getByTestId('background-panel');
    await panel.getByRole('button', { name: 'Virtual' }).click();
    const dialog = guestPage.getByRole('dialog', { name: 'Virtual Backgrounds' });
    await dialog.getByRole('button', { name: 'Beach Sunset (Pro)' }).click();
    await toast(guestPage, 'Error').waitFor();
    await panel.getByTestId('effect-badge').filter({ hasText: 'None' }).waitFor();
    expect(await processorStats(guestPage)).toBeNull();
    // A free picture works for a guest.
    await panel.getByRole('button', { name: 'Virtual' }).click();
    await dialog.getByRole('button', { name: 'Ocean Waves', exact: true }).click();
    await toast(guestPage, 'Background updated').waitFor();
    await panel.getByTestId('effect-badge').filter({ hasText: 'Virtual: Ocean Waves' }).waitFor();
    await eventually(
      () => processorStats(guestPage),
      (s) => (s?.framesDrawn ?? 0) > 0,
      30_000,
    );
    await hostPage.context().close();
    await guestPage.context().close();
  });
});
