import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { signInAsProHost } from '../pages/RoomHost.js';
import {
  VIEWPORTS,
  horizontalOverflow,
  launchBrowser,
  newContext,
  screenshot,
  watchErrors,
} from '../support/browser.js';
import { eventually } from '../support/poll.js';

const baseURL = inject('baseURL');
const run = Date.now().toString(36);

/**
 * Mean absolute difference between neighbouring pixels' luminance: a sharp picture scores high,
 * a blurred one low. Read from whatever `selector` names (a canvas or a video), at 320x240.
 */
async function edgeEnergy(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel) as CanvasImageSource | null;
    if (!el) return -1;
    const c = document.createElement('canvas');
    c.width = 320;
    c.height = 240;
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(el, 0, 0, c.width, c.height);
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
  }, selector);
}

/** The median of several readings a little apart (the fake camera's picture moves). */
async function medianEnergy(page: Page, selector: string, samples = 7): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push(await edgeEnergy(page, selector));
    await page.waitForTimeout(150);
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

async function api(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: res.status,
        json: (await res.json().catch(() => null)) as Record<string, unknown> | null,
      };
    },
    { method, url, body },
  );
}

describe('background effects', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the demo page asks signed-out visitors to log in', async () => {
    const page = await (await newContext(browser, baseURL)).newPage();
    await page.goto('/background-demo');
    await page.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.context().close();
  });

  it('blur in the demo preview takes the detail out of the picture; None brings it back', async () => {
    const page = await (await newContext(browser, baseURL)).newPage();
    const errors = watchErrors(page);
    await signIn(page, { email: `demo-${run}@example.com`, firstName: 'Dana', lastName: 'Demo' });
    await page.goto('/background-demo');
    await page.getByRole('link', { name: 'Back to Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await page.getByTestId('processor-badge').filter({ hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop Camera' }).waitFor();
    await page.getByTestId('demo-effect-badge').filter({ hasText: 'none' }).waitFor();
    const canvas = '[data-testid="demo-canvas"]';
    await eventually(
      () => edgeEnergy(page, canvas),
      (v) => v > 0,
    );
    const sharp = await medianEnergy(page, canvas);
    await page.getByRole('button', { name: 'Blur' }).click();
    await page.getByTestId('demo-effect-badge').filter({ hasText: 'blur' }).waitFor();
    const blurred = await eventually(
      () => medianEnergy(page, canvas, 5),
      (v) => v < sharp * 0.75,
      20_000,
    );
    await page.getByRole('button', { name: 'None' }).click();
    const back = await eventually(
      () => medianEnergy(page, canvas, 5),
      (v) => v > blurred * 1.2,
      20_000,
    );
    console.log(
      `demo edge energy: none ${sharp.toFixed(2)}, blur ${blurred.toFixed(2)}, none again ${back.toFixed(2)}`,
    );
    await page.getByRole('button', { name: 'Stop Camera' }).click();
    await page.getByRole('button', { name: 'Start Camera' }).waitFor();
    expect(errors.filter((e) => !e.includes('GL Driver'))).toEqual([]);
    await page.context().close();
  });

  it('saved preferences survive a reload and are the demo page’s initial state', async () => {
    const page = await (await newContext(browser, baseURL)).newPage();
    await signIn(page, { email: `prefs-${run}@example.com`, firstName: 'Pat', lastName: 'Prefs' });
    await page.goto('/settings');
    const panel = page.getByTestId('background-panel');
    await panel.getByRole('button', { name: 'Blur' }).click();
    const slider = panel.getByRole('slider', { name: 'Blur intensity' });
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await panel.getByTestId('effect-badge').filter({ hasText: 'Blur 7' }).waitFor();
    await eventually(
      () => api(page, 'GET', '/api/backgrounds/preferences'),
      (r) => r.json?.backgroundType === 'blur' && r.json?.blurIntensity === 7,
    );
    await page.reload();
    await page
      .getByTestId('background-panel')
      .getByTestId('effect-badge')
      .filter({ hasText: 'Blur 7' })
      .waitFor();
    await page.goto('/background-demo');
    await page.getByTestId('demo-effect-badge').filter({ hasText: 'blur' }).waitFor();
    await page.context().close();
  });

  it('a free user sees premium marks, and the server refuses a premium background', async () => {
    const page = await (await newContext(browser, baseURL)).newPage();
    await signIn(page, { email: `free-${run}@example.com`, firstName: 'Fred', lastName: 'Free' });
    await page.goto('/settings');
    const panel = page.getByTestId('background-panel');
    await panel.getByRole('button', { name: 'Virtual' }).click();
    const dialog = page.getByRole('dialog', { name: 'Virtual Backgrounds' });
    await dialog.getByTestId('background-tile').first().waitFor();
    expect(await dialog.getByTestId('background-tile').count()).toBeGreaterThanOrEqual(12);
    expect(await dialog.getByTestId('premium-mark').count()).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Glass Meeting Room (Pro)' }).click();
    await toast(page, 'Failed to update preferences').waitFor();
    await panel.getByTestId('effect-badge').filter({ hasText: 'None' }).waitFor();
    const refused = await api(page, 'PUT', '/api/backgrounds/preferences', {
      backgroundType: 'virtual',
      backgroundId: 'meeting-room',
    });
    expect(refused.status).toBe(403);
    expect(refused.json?.requiresSubscription).toBe(true);
    // A free picture is fine.
    await panel.getByRole('button', { name: 'Virtual' }).click();
    await dialog.getByRole('button', { name: 'Mountain Lake', exact: true }).click();
    await panel.getByTestId('effect-badge').filter({ hasText: 'Virtual: Mountain Lake' }).waitFor();
    await page.context().close();
  });

  it('a Pro user’s upload that is not an image is refused with the server’s reason', async () => {
    const page = await (await newContext(browser, baseURL)).newPage();
    await signInAsProHost(page, { email: `pro-${run}@example.com`, firstName: 'Pia', lastName: 'Pro' });
    await page.goto('/settings');
    await page.getByTestId('background-panel').getByRole('button', { name: 'Virtual' }).click();
    const dialog = page.getByRole('dialog', { name: 'Virtual Backgrounds' });
    await dialog.getByRole('button', { name: 'Upload picture' }).waitFor();
    await dialog.getByTestId('custom-upload').setInputFiles({
      name: 'holiday.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is a text file, not a picture'),
    });
    await toast(page, 'Upload failed').filter({ hasText: 'not an image' }).waitFor();
    expect((await api(page, 'GET', '/api/backgrounds/custom')).json).toEqual([]);
    await page.context().close();
  });

  describe.each([
    ['desktop', VIEWPORTS.desktop],
    ['phone', VIEWPORTS.phone],
  ] as const)('on a %s', (label, viewport) => {
    it('the settings card, the dialog and the demo page fit the screen', async () => {
      const page = await (await newContext(browser, baseURL, viewport)).newPage();
      await signIn(page, { email: `shots-${label}-${run}@example.com`, firstName: 'Sam', lastName: 'Shot' });
      await page.goto('/settings');
      const panel = page.getByTestId('background-panel');
      await panel.getByRole('button', { name: 'Blur' }).click();
      await panel.scrollIntoViewIfNeeded();
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `backgrounds-settings-${label}`);
      await panel.getByRole('button', { name: 'Virtual' }).click();
      const dialog = page.getByRole('dialog', { name: 'Virtual Backgrounds' });
      await dialog.getByTestId('background-tile').first().waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, `backgrounds-dialog-${label}`);
      await page.keyboard.press('Escape');
      await page.goto('/background-demo');
      await page.getByRole('button', { name: 'Start Camera' }).click();
      await page.getByTestId('processor-badge').filter({ hasText: 'Ready' }).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1000);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `backgrounds-demo-${label}`);
      await page.context().close();
    });
  });
});
