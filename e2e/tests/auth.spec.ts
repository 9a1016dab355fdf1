import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DevSignInPage, headerUserName, signIn } from '../pages/DevSignIn.js';
import { SettingsPage } from '../pages/Settings.js';
import { VIEWPORTS, screenshot } from '../support/browser.js';
import { usePage } from '../support/fixture.js';

const baseURL = inject('baseURL');

async function openMenuIfCollapsed(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
}

describe.each([
  ['desktop', VIEWPORTS.desktop],
  ['phone', VIEWPORTS.phone],
] as const)('sign-in, profile and settings on %s', (label, viewport) => {
  let page: Page;
  let errors: string[];
  const who = { email: `ann.${label}@example.com`, firstName: 'Ann', lastName: 'Lee' };
  usePage(baseURL, viewport, (p, e) => {
    page = p;
    errors = e;
  });

  it('shows Access Denied on Settings when logged out, and Go Home leads home', async () => {
    const settings = new SettingsPage(page);
    await settings.goto();
    await settings.accessDenied.waitFor();
    await expect(page.getByText('Please log in to access settings.').isVisible()).resolves.toBe(true);
    await screenshot(page, `settings-denied-${label}`);
    await settings.goHome.click();
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('signs in through the development sign-in page and shows the first name in the header', async () => {
    const form = new DevSignInPage(page);
    await form.open();
    await expect(page.getByText('development sign-in', { exact: false }).first().isVisible()).resolves.toBe(
      true,
    );
    await expect(page.locator('input[type="password"]').count()).resolves.toBe(0);
    await form.fill(who);
    await screenshot(page, `dev-sign-in-${label}`);
    await form.submit.click();
    // Back on the landing page; login=success is consumed and removed from the address.
    await page.waitForURL((u) => u.pathname === '/' && !u.searchParams.has('login'));
    const name = await headerUserName(page);
    await name.filter({ hasText: 'Ann' }).waitFor();
    await expect(page.getByRole('link', { name: 'Settings' }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Logout' }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Go Premium' }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, `signed-in-header-${label}`);
  });

  it('shows every settings card and edits the profile, kept after a reload', async () => {
    const settings = new SettingsPage(page);
    await settings.goto();
    await settings.firstName.waitFor();
    for (const title of [
      'Profile Settings',
      'Subscription',
      'Notifications',
      'Appearance',
      'Camera & Background Effects',
      'Language & Region',
      'Privacy & Security',
    ]) {
      await expect(settings.card(title).count(), title).resolves.toBe(1);
    }
    await expect(settings.email.inputValue()).resolves.toBe(who.email);
    await expect(settings.email.isDisabled()).resolves.toBe(true);
    await expect(page.getByText('Email cannot be changed').isVisible()).resolves.toBe(true);
    await page.getByText('No Active Subscription').waitFor();
    await expect(page.getByRole('link', { name: 'Upgrade to Pro' }).getAttribute('href')).resolves.toBe(
      '/subscribe',
    );
    await expect(
      page.getByRole('link', { name: 'Open Camera Preview & Test Effects' }).getAttribute('href'),
    ).resolves.toBe('/background-demo');
    await expect(
      page
        .getByText('Recordings and transcripts are automatically deleted after 30 days unless saved.')
        .isVisible(),
    ).resolves.toBe(true);
    const languages = await settings.language
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(languages).toEqual(['en', 'es', 'fr', 'de', 'zh', 'ja']);
    await expect(settings.language.inputValue()).resolves.toBe('en');
    await expect(settings.backToHome.getAttribute('href')).resolves.toBe('/');
    await screenshot(page, `settings-${label}`);

    await settings.firstName.fill('  Annabel ');
    await settings.lastName.fill('');
    // Hold the request briefly so the saving state can be seen.
    await page.route('**/api/auth/user/update', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await settings.save.click();
    await page.getByRole('button', { name: 'Saving...' }).waitFor();
    const toastBox = page.getByTestId('toast');
    await toastBox.getByText('Settings Saved', { exact: true }).waitFor();
    await expect(toastBox.getByText('Your profile has been updated successfully.').isVisible()).resolves.toBe(
      true,
    );
    await page.unroute('**/api/auth/user/update');
    await expect(settings.firstName.inputValue()).resolves.toBe('Annabel');

    await page.reload();
    await settings.firstName.waitFor();
    await expect(settings.firstName.inputValue()).resolves.toBe('Annabel');
    await expect(settings.lastName.inputValue()).resolves.toBe('');
    const name = await headerUserName(page);
    await name.filter({ hasText: 'Annabel' }).waitFor();
    const close = page.getByRole('button', { name: 'Close menu' });
    if (await close.isVisible()) await close.click();
  });

  it('shows the server message when saving fails', async () => {
    const settings = new SettingsPage(page);
    await page.route('**/api/auth/user/update', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Name refused' }),
      }),
    );
    await settings.firstName.fill('Zed');
    await settings.save.click();
    await page.getByTestId('toast').getByText('Name refused').waitFor();
    await expect(page.getByTestId('toast').getByText('Error', { exact: true }).isVisible()).resolves.toBe(
      true,
    );
    await page.unroute('**/api/auth/user/update');
  });

  it('switches to dark mode at once and remembers it in this browser only', async () => {
    const settings = new SettingsPage(page);
    await settings.goto();
    await settings.darkMode.click();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );
    await screenshot(page, `settings-dark-${label}`);
    await page.reload();
    await settings.darkMode.waitFor();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      true,
    );
    await expect(settings.darkMode.getAttribute('aria-checked')).resolves.toBe('true');
    await settings.darkMode.click();
    await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(
      false,
    );
  });

  it('logs out and shows Login again; stored user data is cleared', async () => {
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('meeting-data', 'x');
      localStorage.setItem('chat-history', 'x');
      sessionStorage.setItem('anything', 'x');
    });
    await openMenuIfCollapsed(page);
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/' && !u.pathname.startsWith('/oidc'));
    await openMenuIfCollapsed(page);
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await expect(page.getByTestId('user-name').count()).resolves.toBe(0);
    await expect
      .poll(() =>
        page.evaluate(() => [
          localStorage.getItem('meeting-data'),
          localStorage.getItem('chat-history'),
          sessionStorage.length,
        ]),
      )
      .toEqual([null, null, 0]);
    const res = await page.request.get('/api/auth/user');
    expect(res.status()).toBe(401);
    await screenshot(page, `logged-out-${label}`);
  });

  it('signs in again, and as someone else, with the page object others use', async () => {
    await signIn(page, { ...who, firstName: 'Ann' });
    await signIn(page, { email: `zoe.${label}@example.com`, firstName: 'Zoe', lastName: 'Ng' });
    const settings = new SettingsPage(page);
    await settings.goto();
    await expect(settings.email.inputValue()).resolves.toBe(`zoe.${label}@example.com`);
  });

  it('had no script errors', () => {
    expect(errors).toEqual([]);
  });
});
