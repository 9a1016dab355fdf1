import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Debian's Chromium with fake camera and microphone (TESTING-MEDIA.md). `answerPrompts: false`
 * leaves out the flag that grants every camera and microphone request: the context's
 * `permissions` decide, and a device not granted there is refused as a person refusing it would.
 */
export async function launchBrowser({
  answerPrompts = true,
  fakeAudioFile,
}: {
  answerPrompts?: boolean;
  /** A WAV the fake microphone plays (looped) instead of Chromium's beep: known speech for the AI. */
  fakeAudioFile?: string;
} = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream=fps=30',
      ...(answerPrompts ? ['--use-fake-ui-for-media-stream'] : []),
      '--autoplay-policy=no-user-gesture-required',
      '--allow-loopback-in-peer-connection',
      ...(fakeAudioFile ? [`--use-file-for-fake-audio-capture=${fakeAudioFile}`] : []),
    ],
  });
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
  permissions: string[] = ['camera', 'microphone', 'clipboard-read', 'clipboard-write'],
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, permissions });
  // 30 s: on 2026-11-27 this machine's vCPUs were starved by its host (CPU pressure 40–70% with
  // nothing running) and pages took over 15 s to become clickable in two full runs; the tests
  // check behaviour, not how fast a page answers.
  context.setDefaultTimeout(30_000);
  return context;
}

/**
 * A context whose camera is asked for at a given size and frame rate before the app's own
 * constraints apply: 320x240 at 15 fps by default (TESTING-MEDIA: 2 cores carry 6 such pages
 * through Janus at full frame rate).
 */
export async function cameraContext(
  browser: Browser,
  baseURL: string,
  {
    width = 320,
    height = 240,
    frameRate = 15,
    viewport = VIEWPORTS.desktop as { width: number; height: number },
  } = {},
): Promise<BrowserContext> {
  const ctx = await newContext(browser, baseURL, viewport);
  await ctx.addInitScript(
    ({ width, height, frameRate }) => {
      const md = navigator.mediaDevices;
      const original = md.getUserMedia.bind(md);
      md.getUserMedia = (c?: MediaStreamConstraints) =>
        original(c?.video ? { ...c, video: { width, height, frameRate } } : c);
    },
    { width, height, frameRate },
  );
  return ctx;
}

/**
 * Collects page errors and console errors so tests can assert a clean page. The browser's own
 * "Failed to load resource" lines are left out: it logs every non-2xx answer (a 401 for "not
 * signed in", a 404 for an unknown meeting), which the app handles on purpose.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('Failed to load resource')) {
      errors.push(`console: ${m.text()}`);
    }
  });
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** How many CSS pixels the page is wider than the viewport (0 when nothing scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}
