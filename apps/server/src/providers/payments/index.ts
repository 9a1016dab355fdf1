import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { createSandboxProvider, type SandboxPayments } from './sandbox.js';
import { createStripeProvider } from './stripe.js';
import type { PaymentsProvider } from './types.js';

export * from './types.js';
export { SandboxCardError, type SandboxPayments } from './sandbox.js';

export class PaymentsConfigError extends Error {}

/**
 * Stripe when STRIPE_SECRET_KEY is set (then the publishable key, webhook secret and price id are
 * required too); otherwise the built-in sandbox.
 */
export function createPaymentsProvider(
  stripe: Config['stripe'],
  db: Database,
): { provider: PaymentsProvider; sandbox: SandboxPayments | null } {
  if (!stripe.secretKey) {
    const sandbox = createSandboxProvider(db, { webhookSecret: stripe.webhookSecret });
    return { provider: sandbox, sandbox };
  }
  const missing = (
    [
      ['STRIPE_PUBLISHABLE_KEY', stripe.publishableKey],
      ['STRIPE_WEBHOOK_SECRET', stripe.webhookSecret],
      ['STRIPE_PRICE_ID', stripe.priceId],
    ] as const
  )
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0) {
    throw new PaymentsConfigError(`STRIPE_SECRET_KEY is set, so Stripe also needs: ${missing.join(', ')}`);
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
