import type { Locator, Page } from 'playwright-core';

export class NotFoundPage {
  constructor(readonly page: Page) {}

  get title(): Locator {
    return this.page.getByRole('heading', { name: 'Page Not Found' });
  }

  get text(): Locator {
    return this.page.getByText("The page you're looking for doesn't exist or has been moved.");
  }

  get goHome(): Locator {
    return this.page.getByRole('link', { name: 'Go Home' });
  }
}
