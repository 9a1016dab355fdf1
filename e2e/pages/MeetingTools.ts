import type { Locator, Page } from 'playwright-core';
import { RoomPage } from './RoomPage.js';

/** The room's Meeting Tools panel (spec §2): summarizer, live translation, transcription, transcripts. */
export class MeetingTools {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByRole('complementary', { name: 'Side panel' });
  }

  async open(): Promise<void> {
    if (await this.page.getByRole('heading', { name: 'Meeting Tools' }).isVisible()) return;
    // A button of the bar; below 1024 px an item of its More menu.
    await new RoomPage(this.page).useControl('AI Tools');
    await this.page.getByRole('heading', { name: 'Meeting Tools' }).waitFor();
  }

  get startTranscription(): Locator {
    return this.page.getByRole('button', { name: 'Start Transcription' });
  }
  get stopTranscription(): Locator {
    return this.page.getByRole('button', { name: 'Stop Transcription' });
  }
  get status(): Locator {
    return this.page.getByTestId('transcription-status');
  }
  get translationSwitch(): Locator {
    return this.page.getByRole('switch', { name: 'Live Translation' });
  }
  get languagePicker(): Locator {
    return this.page.getByLabel('Translate transcripts into');
  }
  get lines(): Locator {
    return this.page.getByTestId('transcript-line');
  }
  get originals(): Locator {
    return this.page.getByTestId('transcript-original');
  }
  get translations(): Locator {
    return this.page.getByTestId('transcript-translation');
  }
  get generateSummary(): Locator {
    return this.page.getByRole('button', { name: 'Generate Summary' });
  }
  get summary(): Locator {
    return this.page.getByTestId('summary-result');
  }
  get exportPdf(): Locator {
    return this.page.getByRole('link', { name: 'Export PDF' });
  }
  get downloadText(): Locator {
    return this.page.getByRole('button', { name: 'Download as text' });
  }

  /** Live Translation on, into `language` (a value of the picker, e.g. 'es'). */
  async translateInto(language: string): Promise<void> {
    await this.open();
    await this.languagePicker.selectOption(language);
    if ((await this.translationSwitch.getAttribute('aria-checked')) !== 'true')
      await this.translationSwitch.click();
  }

  /** Every caption's original text on screen, oldest first (the list's order). */
  async captionText(): Promise<string> {
    return (await this.originals.allTextContents()).join(' ');
  }

  /** The words being spoken now (interim, not final yet), in the transcript list. */
  get interim() {
    return this.page.getByTestId('transcript-interim');
  }
}
