import type { Locator, Page } from 'playwright-core';

/** The landing page (/): name card, the three meeting cards and the marketing sections. */
export class LandingPage {
  constructor(readonly page: Page) {}

  get name(): Locator {
    return this.page.getByLabel('Your name');
  }
  get meetingId(): Locator {
    return this.page.getByPlaceholder('000-000-000');
  }
  get tryFree(): Locator {
    return this.page.getByRole('button', { name: 'Try Free' });
  }
  get startInstant(): Locator {
    return this.page.getByRole('button', { name: 'Start Instant Meeting' });
  }
  get join(): Locator {
    return this.page.getByRole('button', { name: 'Join Meeting', exact: true });
  }
  get heroVideo(): Locator {
    return this.page.getByTestId('hero-video');
  }
  /** Where Try Free leads: what is free and what Pro adds (issue 37 item 4). */
  get freeAndPro(): Locator {
    return this.page.getByTestId('free-and-pro');
  }
  get testimonials(): Locator {
    return this.page.getByTestId('testimonial');
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await this.name.waitFor();
  }
}

/** The toast on screen (one at a time), waited for by its title, with its description. */
export async function toastWith(page: Page, title: string): Promise<{ title: string; description: string }> {
  const toast = page.getByTestId('toast').filter({ hasText: title }).first();
  await toast.waitFor();
  const text = (await toast.innerText()).split('\n').map((s) => s.trim());
  return { title: text[0] ?? '', description: text.slice(1).join(' ').trim() };
}
