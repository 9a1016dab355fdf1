import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { AppShell } from '../pages/AppShell.js';
import { NotFoundPage } from '../pages/NotFoundPage.js';
import { VIEWPORTS, screenshot } from '../support/browser.js';
import { usePage } from '../support/fixture.js';

const baseURL = inject('baseURL');

describe.each([
  ['desktop', VIEWPORTS.desktop],
  ['phone', VIEWPORTS.phone],
] as const)('app shell on %s', (label, viewport) => {
  let page: Page;
  let errors: string[];
  usePage(baseURL, viewport, (p, e) => {
    page = p;
    errors = e;
  });

  it('opens the landing page with the navigation and the logged-out auth area', async () => {
    const shell = new AppShell(page);
    await shell.goto('/');
    await expect(page.title()).resolves.toContain('Parley');
    if (label === 'phone') {
      await expect(shell.mainNav.isVisible()).resolves.toBe(false);
      await shell.menuButton.click();
    }
    const login = page.getByRole('link', { name: 'Login' });
    await login.waitFor();
    await expect(login.getAttribute('href')).resolves.toBe('/api/login');
    await expect(page.getByRole('link', { name: 'Go Premium' }).isVisible()).resolves.toBe(true);
    await screenshot(page, `landing-${label}`);
    if (label === 'phone') {
      // Escape closes the phone menu and puts focus back on its button.
      await page.keyboard.press('Escape');
      await login.waitFor({ state: 'detached' });
      await expect(shell.menuButton.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    }
  });

  it('follows each navigation link to its screen', async () => {
    const shell = new AppShell(page);
    await shell.goto('/');
    // Signed out: each screen shows its own heading (the meeting screens ask to log in first).
    const targets = [
      ['Schedule Meeting', '/schedule', 'Login Required', 'Please log in to schedule meetings.'],
      ['My Meetings', '/meetings', 'My Meetings', 'Please log in to see your meetings.'],
      ['Home', '/', 'Meetings that remember everything.', null],
    ] as const;
    for (const [name, path, heading, text] of targets) {
      await shell.follow(name);
      await page.waitForURL((u) => u.pathname === path);
      await shell.heading(heading).waitFor();
      await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
      if (text) await page.getByText(text).waitFor();
    }
    await shell.follow('My Meetings');
    await shell.heading('My Meetings').waitFor();
    await screenshot(page, `meetings-${label}`);
  });

  it('shows the 404 page for an unknown path, and Go Home leads home', async () => {
    const notFound = new NotFoundPage(page);
    await page.goto('/this/does/not/exist');
    await notFound.title.waitFor();
    await expect(notFound.text.isVisible()).resolves.toBe(true);
    await screenshot(page, `not-found-${label}`);
    await notFound.goHome.click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  });

  it('redirects the older room routes to the one room, keeping the query', async () => {
    await page.goto('/meeting-old/123-456-789?name=Ann');
    await page.waitForURL((u) => u.pathname === '/meeting/123-456-789');
    expect(new URL(page.url()).search).toBe('?name=Ann');
  });

  it('loaded every screen without script errors', () => {
    expect(errors).toEqual([]);
  });
});
