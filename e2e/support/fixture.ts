import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext, watchErrors } from './browser.js';

/**
 * Gives a describe block one browser and one page at `viewport` (opened before its tests, closed
 * after), and hands the page and its error list to `ready`.
 */
export function usePage(
  baseURL: string,
  viewport: { width: number; height: number },
  ready: (page: Page, errors: string[]) => void,
): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const browser = await launchBrowser();
    close = () => browser.close();
    const page = await (await newContext(browser, baseURL, viewport)).newPage();
    ready(page, watchErrors(page));
  });
  afterAll(async () => {
    await close?.();
  });
}
