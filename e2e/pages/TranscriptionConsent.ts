import type { Locator, Page } from 'playwright-core';

/** The room's consent to transcription: the notice, the header badge and its popover. */
export class TranscriptionConsent {
  constructor(readonly page: Page) {}

  get notice(): Locator {
    return this.page.getByTestId('transcription-notice');
  }
  get badge(): Locator {
    return this.page.getByTestId('transcription-badge');
  }
  get continueButton(): Locator {
    return this.notice.getByRole('button', { name: 'Continue' });
  }
  get declineButton(): Locator {
    return this.notice.getByRole('button', { name: 'Decline' });
  }
  get popover(): Locator {
    return this.page.getByRole('dialog', { name: 'Live transcription' });
  }

  /** Allows again from the badge's popover (after a decline). */
  async allowAgain(): Promise<void> {
    await this.badge.click();
    await this.popover.getByRole('button', { name: 'Allow transcription' }).click();
  }

  /** The consent tag of a participant in the People panel (empty when none). */
  tagOf(name: string): Locator {
    return this.page.getByTestId('person').filter({ hasText: name }).getByTestId('consent-tag');
  }
}

/**
 * Counts the binary frames (microphone PCM) the page sends on its meeting socket, as the browser's
 * network layer sees them: independent of the app's own bookkeeping. Call before the page opens.
 */
export function countAudioFrames(page: Page): { frames: () => number } {
  let frames = 0;
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/ws')) return;
    ws.on('framesent', (f) => {
      if (typeof f.payload !== 'string') frames += 1;
    });
  });
  return { frames: () => frames };
}
