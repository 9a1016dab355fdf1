import type { Locator, Page } from 'playwright-core';

/** The top navigation around every screen but the meeting room. */
export class AppShell {
  constructor(readonly page: Page) {}

  get mainNav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  get menuButton(): Locator {
    return this.page.getByRole('button', { name: 'Open menu' });
  }

  get mobileNav(): Locator {
    return this.page.getByRole('navigation', { name: 'Mobile' });
  }

  async goto(path = '/'): Promise<void> {
    await this.page.goto(path);
    await this.page.locator('#main').waitFor();
  }

  /** Follows a navigation link by its visible name, on desktop or through the phone menu. */
  async follow(linkName: string): Promise<void> {
    if (await this.mainNav.isVisible()) {
      await this.mainNav.getByRole('link', { name: linkName, exact: true }).click();
    } else {
      await this.menuButton.click();
      await this.mobileNav.getByRole('link', { name: linkName, exact: true }).click();
    }
  }

  heading(name: string): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }
}
