import type { Locator, Page } from 'playwright-core';

/** /settings (spec §2). */
export class SettingsPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/settings');
    await this.page.getByRole('heading', { level: 1 }).first().waitFor();
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get accessDenied(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Access Denied' });
  }
  get goHome(): Locator {
    return this.page.getByRole('link', { name: 'Go Home' });
  }
  get backToHome(): Locator {
    return this.page.getByRole('link', { name: 'Back to Home' });
  }
  get firstName(): Locator {
    return this.page.getByLabel('First name', { exact: true });
  }
  get lastName(): Locator {
    return this.page.getByLabel('Last name', { exact: true });
  }
  get email(): Locator {
    return this.page.getByLabel('Email', { exact: true });
  }
  get save(): Locator {
    return this.page.getByRole('button', { name: /^(Save Settings|Saving\.\.\.)$/ });
  }
  get darkMode(): Locator {
    return this.page.getByRole('switch', { name: 'Dark mode' });
  }
  get language(): Locator {
    return this.page.getByLabel('Default language');
  }
  card(title: string): Locator {
    return this.page.getByRole('heading', { level: 3, name: title });
  }
}
