import type { Locator, Page } from 'playwright-core';

export interface ScheduleInput {
  title?: string;
  description?: string;
  hostEmail?: string;
  /** datetime-local value, e.g. 2031-01-02T10:30 */
  when?: string;
  duration?: string;
  timezone?: string;
  recurring?: 'daily' | 'weekly' | 'monthly';
  maxParticipants?: string;
  password?: string;
  invitees?: { email: string; name: string }[];
}

/** Schedule a Meeting (/schedule, /schedule?edit={id}). */
export class SchedulePage {
  constructor(readonly page: Page) {}

  get title(): Locator {
    return this.page.getByLabel('Title', { exact: true });
  }
  get description(): Locator {
    return this.page.getByLabel('Description');
  }
  get hostEmail(): Locator {
    return this.page.getByLabel('Host email');
  }
  get when(): Locator {
    return this.page.getByLabel('Date and time');
  }
  get duration(): Locator {
    return this.page.getByLabel('Duration');
  }
  get timezone(): Locator {
    return this.page.getByLabel('Timezone');
  }
  get recurring(): Locator {
    return this.page.getByRole('switch', { name: 'Recurring meeting' });
  }
  get repeats(): Locator {
    return this.page.getByLabel('Repeats');
  }
  get maxParticipants(): Locator {
    return this.page.getByLabel('Maximum participants');
  }
  get passwordSwitch(): Locator {
    return this.page.getByRole('switch', { name: 'Require a password' });
  }
  get password(): Locator {
    return this.page.getByLabel('Password', { exact: true });
  }
  get inviteeRows(): Locator {
    return this.page.getByTestId('invitee-row');
  }
  get addInvitee(): Locator {
    return this.page.getByRole('button', { name: 'Add invitee' });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: /^(Schedule Meeting|Save Changes)$/ });
  }

  inviteeEmail(i: number): Locator {
    return this.page.getByLabel(`Invitee ${i + 1} email`);
  }
  inviteeName(i: number): Locator {
    return this.page.getByLabel(`Invitee ${i + 1} name`);
  }
  removeInvitee(i: number): Locator {
    return this.page.getByRole('button', { name: `Remove invitee ${i + 1}` });
  }

  async open(editId?: string): Promise<void> {
    await this.page.goto(editId ? `/schedule?edit=${editId}` : '/schedule');
    await this.page.getByRole('heading', { level: 1 }).first().waitFor();
  }

  async fill(input: ScheduleInput): Promise<void> {
    if (input.title !== undefined) await this.title.fill(input.title);
    if (input.description !== undefined) await this.description.fill(input.description);
    if (input.hostEmail !== undefined) await this.hostEmail.fill(input.hostEmail);
    if (input.timezone !== undefined) await this.timezone.selectOption(input.timezone);
    if (input.when !== undefined) await this.when.fill(input.when);
    if (input.duration !== undefined) await this.duration.selectOption(input.duration);
    if (input.recurring) {
      if ((await this.recurring.getAttribute('aria-checked')) !== 'true') await this.recurring.click();
      await this.repeats.selectOption(input.recurring);
    }
    if (input.maxParticipants !== undefined) await this.maxParticipants.fill(input.maxParticipants);
    if (input.password !== undefined) {
      if ((await this.passwordSwitch.getAttribute('aria-checked')) !== 'true')
        await this.passwordSwitch.click();
      await this.password.fill(input.password);
    }
    if (input.invitees) {
      for (const [i, who] of input.invitees.entries()) {
        if ((await this.inviteeRows.count()) <= i) await this.addInvitee.click();
        await this.inviteeEmail(i).fill(who.email);
        await this.inviteeName(i).fill(who.name);
      }
    }
  }
}
