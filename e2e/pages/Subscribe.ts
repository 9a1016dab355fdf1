import type { Locator, Page } from 'playwright-core';

/** The Subscribe page (/subscribe) with the built-in payments sandbox's card form. */
export class SubscribePage {
  constructor(readonly page: Page) {}

  get email(): Locator {
    return this.page.getByLabel('Email address');
  }
  get continueToPayment(): Locator {
    return this.page.getByRole('button', { name: 'Continue to Payment' });
  }
  get cardNumber(): Locator {
    return this.page.getByLabel('Card number');
  }
  get expiry(): Locator {
    return this.page.getByLabel('Expiration date');
  }
  get securityCode(): Locator {
    return this.page.getByLabel('Security code');
  }
  get pay(): Locator {
    return this.page.getByRole('button', { name: /^Pay \$/ });
  }
  get cardError(): Locator {
    return this.page.getByRole('form', { name: 'Card payment' }).getByRole('alert');
  }
  get authDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Authentication required' });
  }
  get activeView(): Locator {
    return this.page.getByTestId('active-subscription');
  }
  get cancelButton(): Locator {
    return this.page.getByRole('button', { name: 'Cancel Subscription' });
  }
  get reactivateButton(): Locator {
    return this.page.getByRole('button', { name: 'Reactivate Subscription' });
  }

  async open(): Promise<void> {
    await this.page.goto('/subscribe');
    await this.page.getByRole('heading', { level: 1 }).first().waitFor();
  }

  /** Email form → payment form (the email field is prefilled with the signed-in user's). */
  async startCheckout(email?: string): Promise<void> {
    if (email !== undefined) await this.email.fill(email);
    await this.continueToPayment.click();
    await this.cardNumber.waitFor();
  }

  async payWith(cardNumber: string, expiry = '12 / 34', cvc = '123'): Promise<void> {
    await this.cardNumber.fill(cardNumber);
    await this.expiry.fill(expiry);
    await this.securityCode.fill(cvc);
    await this.pay.click();
  }

  async waitForSuccessPage(): Promise<void> {
    await this.page.waitForURL((u) => u.pathname === '/subscription/confirmation/success');
    await this.page.getByTestId('subscription-success').waitFor();
  }
}

/**
 * Makes the signed-in user of `page` Pro through the sandbox: /subscribe → Continue to Payment →
 * test card 4242 4242 4242 4242 → waits for the success page.
 */
export async function becomePro(page: Page, email: string): Promise<void> {
  const subscribe = new SubscribePage(page);
  await subscribe.open();
  await subscribe.startCheckout(email);
  await subscribe.payWith('4242 4242 4242 4242');
  await subscribe.waitForSuccessPage();
}
