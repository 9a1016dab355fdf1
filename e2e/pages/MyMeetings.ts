import type { Locator, Page } from 'playwright-core';

/** My Meetings (/meetings): tabs, meeting cards and the delete confirmation. */
export class MyMeetingsPage {
  constructor(readonly page: Page) {}

  tab(name: 'Upcoming' | 'Live Now' | 'Past'): Locator {
    return this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  }
  get cards(): Locator {
    return this.page.getByTestId('meeting-card').locator('visible=true');
  }
  card(title: string): Locator {
    return this.cards.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) });
  }
  get confirmDialog(): Locator {
    return this.page.getByRole('alertdialog');
  }

  async open(): Promise<void> {
    await this.page.goto('/meetings');
    await this.page.getByRole('heading', { level: 1, name: 'My Meetings' }).waitFor();
    await this.page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
  }

  async deleteMeeting(title: string): Promise<void> {
    await this.card(title).getByRole('button', { name: 'Delete' }).click();
    await this.confirmDialog.getByRole('button', { name: 'Delete' }).click();
  }
}
