import type { Locator, Page } from 'playwright-core';

/** The free tier's billing overlay in the room: the clock, the payment prompt, the grace. */
export class FreeTimeOverlay {
  constructor(readonly page: Page) {}

  /** The clock's badge (found by test id: an open dialog hides it from the accessibility tree). */
  get badge(): Locator {
    return this.page.getByTestId('free-time-overlay').locator('[data-state]');
  }
  get timeLeft(): Locator {
    return this.page.getByTestId('free-time-left');
  }
  get prompt(): Locator {
    return this.page.getByRole('dialog', { name: 'Your free time is almost up' });
  }
  get graceDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Free Time Expired' });
  }
  get overage(): Locator {
    return this.page.getByTestId('free-time-overage');
  }
  /** The badge's style: free, hint, warning, grace or overage. */
  async state(): Promise<string | null> {
    return this.badge.getAttribute('data-state');
  }
  /** Free time left as the badge shows it, in seconds. */
  async secondsLeft(): Promise<number> {
    return toSeconds((await this.timeLeft.textContent()) ?? '');
  }
  /** The badge's style and its seconds left, read together in one task of the page. */
  async stateAndSecondsLeft(): Promise<{ state: string | null; left: number }> {
    const read = await this.page.evaluate(() => ({
      state:
        document
          .querySelector('[data-testid="free-time-overlay"] [data-state]')
          ?.getAttribute('data-state') ?? null,
      left: document.querySelector('[data-testid="free-time-left"]')?.textContent ?? '',
    }));
    return { state: read.state, left: toSeconds(read.left) };
  }

  /**
   * Starts watching, in the page, for the payment prompt to appear; the function it answers gives
   * the badge's seconds left at that moment, read in the same task as the prompt's render, so a
   * slow round trip from the test to a busy page does not count.
   */
  async watchPromptOpening(): Promise<() => Promise<number>> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __promptLeft?: string };
      const promptShown = () =>
        [...document.querySelectorAll('[role="dialog"]')].some((d) =>
          d.textContent?.includes('Your free time is almost up'),
        );
      const observer = new MutationObserver(() => {
        if (w.__promptLeft !== undefined || !promptShown()) return;
        w.__promptLeft = document.querySelector('[data-testid="free-time-left"]')?.textContent ?? '';
        observer.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    return async () => {
      const handle = await this.page.waitForFunction(
        () => (window as unknown as { __promptLeft?: string }).__promptLeft,
      );
      return toSeconds(String(await handle.jsonValue()));
    };
  }

  /** Saves a card in the payment setup card of `dialog`: the e-mail as filled in, then 4242. */
  async saveTestCard(dialog: Locator, cardNumber = '4242 4242 4242 4242'): Promise<void> {
    await dialog.getByRole('button', { name: 'Add a card' }).click();
    await dialog.getByLabel('Card number').fill(cardNumber);
    await dialog.getByLabel('Expiration date').fill('12 / 34');
    await dialog.getByLabel('Security code').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
  }
}

/** The badge's 'm:ss' as seconds. */
function toSeconds(text: string): number {
  const [m, s] = text.split(':').map(Number);
  return (m ?? 0) * 60 + (s ?? 0);
}
