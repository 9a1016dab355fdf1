import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { createSandboxProvider, type SandboxPayments } from './sandbox/index.js';
import { createStripeProvider } from './stripe.js';
import type { PaymentsProvider } from './types.js';

export * from './types.js';
export { SandboxCardError, type SandboxPayments } from './sandbox/index.js';

/** The app's payments provider, and the sandbox's card API when the sandbox is the provider. */
export interface Payments {
  provider: PaymentsProvider;
  sandbox: SandboxPayments | null;
}

/**
 * Stripe when STRIPE_SECRET_KEY is set (config.ts has checked that the publishable key, webhook
 * secret and price id are set too); otherwise the built-in sandbox (refused in production unless
 * ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION, also by config.ts).
 */
export function createPaymentsProvider(stripe: Config['stripe'], db: Database): Payments {
  if (!stripe.secretKey) {
    const sandbox = createSandboxProvider(db, { webhookSecret: stripe.webhookSecret });
    return { provider: sandbox, sandbox };
  }
  const provider = createStripeProvider({
    secretKey: stripe.secretKey,
    publishableKey: stripe.publishableKey!,
    webhookSecret: stripe.webhookSecret!,
    priceId: stripe.priceId!,
    apiBase: stripe.apiBase,
  });
  return { provider, sandbox: null };
}
