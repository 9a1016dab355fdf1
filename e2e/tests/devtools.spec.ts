import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { recordMediaTracks, recordedTracks, waitMediaReleased } from '../support/media-tracks.js';
import { startServer } from '../support/server.js';

const baseURL = inject('baseURL');

async function videoHasFrames(page: Page, label: string): Promise<void> {
  await page.waitForFunction((l) => {
    const v = document.querySelector<HTMLVideoElement>(`video[aria-label="${l}"]`);
    return !!v && v.readyState >= 2 && v.videoWidth > 0;
  }, label);
}

describe('developer test pages', () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, baseURL);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('/video-test starts and stops the camera and shows the track', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await recordMediaTracks(page);
    await page.goto('/video-test');
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await videoHasFrames(page, 'Camera');
    const details = page.getByTestId('track-details');
    await details.getByText('live').waitFor();
    await expect(details.textContent()).resolves.toMatch(/\d+x\d+/);
    await screenshot(page, 'video-test-desktop');
    await page.getByRole('button', { name: 'Stop Camera' }).click();
    await page.getByText('Camera is off').waitFor();
    await expect(waitMediaReleased(page)).resolves.toEqual({ total: 1, live: [] });

    // Leaving the page with the camera on turns it off.
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await videoHasFrames(page, 'Camera');
    await expect(recordedTracks(page)).resolves.toEqual({ total: 2, live: ['getUserMedia:video'] });
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(waitMediaReleased(page)).resolves.toEqual({ total: 2, live: [] });

    // Leaving while the browser is still answering: the late camera is stopped, not left on.
    await page.goto('/video-test');
    await page.getByRole('button', { name: 'Start Camera' }).waitFor();
    await page.evaluate(() => {
      document.querySelector<HTMLButtonElement>('main button')!.click();
      document.querySelector<HTMLAnchorElement>('main a[href="/"]')!.click();
    });
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(async () => (await recordedTracks(page)).total).toBe(1);
    await expect(waitMediaReleased(page)).resolves.toEqual({ total: 1, live: [] });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('/camera-test shows permission, cameras and a 640x480 track', async () => {
    const page = await context.newPage();
    await recordMediaTracks(page);
    await page.goto('/camera-test');
    await videoHasFrames(page, 'Camera');
    await expect(page.getByTestId('camera-permission').textContent()).resolves.toBe('granted');
    await page.getByText('Available cameras: 1').waitFor();
    await page.getByTestId('track-details').getByText('640x480').waitFor();
    await page.getByRole('button', { name: 'Retry' }).click();
    await videoHasFrames(page, 'Camera');
    await screenshot(page, 'camera-test-desktop');
    // Retry replaced the first camera (stopped); leaving the page stops the second.
    await expect(recordedTracks(page)).resolves.toEqual({ total: 2, live: ['getUserMedia:video'] });
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(waitMediaReleased(page)).resolves.toEqual({ total: 2, live: [] });
    await page.close();
  });

  it('/camera-test explains a refused camera in a red box, and Retry tries again', async () => {
    const ctx = await newContext(browser, baseURL, VIEWPORTS.phone);
    // The browser answers as it does when the person blocks the camera.
    await ctx.addInitScript(() => {
      const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      let refuse = true;
      (window as unknown as { allowCamera: () => void }).allowCamera = () => {
        refuse = false;
      };
      navigator.mediaDevices.getUserMedia = (c) =>
        refuse ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : real(c);
    });
    const page = await ctx.newPage();
    await page.goto('/camera-test');
    const alert = page.getByRole('alert');
    await alert.getByText('Make sure to allow camera access when prompted by your browser.').waitFor();
    await expect(alert.textContent()).resolves.toContain('permission denied');
    await screenshot(page, 'camera-test-error-phone');
    await page.evaluate(() => (window as unknown as { allowCamera: () => void }).allowCamera());
    await page.getByRole('button', { name: 'Retry' }).click();
    await videoHasFrames(page, 'Camera');
    await expect(alert.count()).resolves.toBe(0);
    await ctx.close();
  });

  it('/webrtc-test: two people in separate browsers call each other through the server test room', async () => {
    // Two browser contexts share nothing (no BroadcastChannel, storage or cookies): two people.
    const first = await newContext(browser, baseURL);
    const second = await newContext(browser, baseURL, VIEWPORTS.phone);
    const a = await first.newPage();
    const b = await second.newPage();
    const errors = [watchErrors(a), watchErrors(b)];
    await a.goto('/webrtc-test');
    await videoHasFrames(a, 'Local video');
    await b.goto('/webrtc-test');
    for (const page of [a, b]) {
      await page
        .getByTestId('status-connection')
        .getByText('connected', { exact: true })
        .waitFor({ timeout: 20_000 });
      await videoHasFrames(page, 'Remote video');
      await expect(page.getByTestId('status-signaling').textContent()).resolves.toBe(
        'Signaling: joined (server)',
      );
    }
    await screenshot(a, 'webrtc-test-desktop');
    await screenshot(b, 'webrtc-test-phone');
    // The second person leaves: the first is told by the server and waits again.
    await second.close();
    await a
      .getByTestId('status-connection')
      .getByText('waiting for the other tab')
      .waitFor({ timeout: 20_000 });
    expect(errors.flat()).toEqual([]);
    await first.close();
  });

  it('/webrtc-test on a production server says the test room is not there', async () => {
    const server = await startServer({
      NODE_ENV: 'production',
      ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
      ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
    });
    try {
      const ctx = await newContext(browser, server.url);
      const page = await ctx.newPage();
      await page.goto('/webrtc-test');
      await page
        .getByRole('alert')
        .getByText(
          'Could not join test-room: Meeting not found. The test room is available on development servers only.',
        )
        .waitFor();
      await expect(page.getByTestId('status-signaling').textContent()).resolves.toBe('Signaling: failed');
      await expect(page.getByTestId('status-connection').textContent()).resolves.toBe(
        'Peer connection: not started',
      );
      await screenshot(page, 'webrtc-test-production');
      await ctx.close();
    } finally {
      await server.stop();
    }
  });
});
