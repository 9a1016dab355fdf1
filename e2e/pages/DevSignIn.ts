import type { Locator, Page } from 'playwright-core';

export interface DevIdentity {
  email: string;
  firstName: string;
  lastName: string;
}

/** The built-in development issuer's sign-in page (served under /oidc when OIDC_ISSUER is unset). */
export class DevSignInPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get email(): Locator {
    return this.page.getByLabel('Email', { exact: true });
  }
  get firstName(): Locator {
    return this.page.getByLabel('First name', { exact: true });
  }
  get lastName(): Locator {
    return this.page.getByLabel('Last name', { exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: 'Sign in', exact: true });
  }

  /** Starts the sign-in at /api/login and waits for the development issuer's form. */
  async open(): Promise<void> {
    await this.page.goto('/api/login');
    await this.email.waitFor();
  }

  async fill(who: DevIdentity): Promise<void> {
    await this.email.fill(who.email);
    await this.firstName.fill(who.firstName);
    await this.lastName.fill(who.lastName);
  }
}

/**
 * Shows the header's signed-in name (opening the phone menu when the header is collapsed) and
 * returns its locator. Closes nothing: callers on phones may close the menu themselves.
 */
export async function headerUserName(page: Page): Promise<Locator> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
  return page.getByTestId('user-name').locator('visible=true');
}

/**
 * Signs in through the development issuer: /api/login → the dev sign-in form → back on `/`
 * with the user's first name in the header (the phone menu is closed again afterwards).
 */
export async function signIn(page: Page, who: DevIdentity): Promise<void> {
  // Still signed in at the development issuer (single sign-on)? Sign out first, so the form
  // appears and the requested identity is the one used.
  const cookies = await page.context().cookies();
  if (cookies.some((c) => c.name === '_session' || c.name === 'parley_sid')) {
    await page.goto('/api/logout');
    await page.waitForURL((u) => u.pathname === '/');
  }
  const form = new DevSignInPage(page);
  await form.open();
  await form.fill(who);
  await form.submit.click();
  await page.waitForURL((u) => u.pathname === '/' && !u.searchParams.has('login'));
  const name = await headerUserName(page);
  await name.filter({ hasText: who.firstName || who.email }).waitFor();
  const close = page.getByRole('button', { name: 'Close menu' });
  if (await close.isVisible()) await close.click();
}
