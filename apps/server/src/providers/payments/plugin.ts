import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPaymentsProvider, type Payments } from './index.js';

/**
 * The payments provider (`app.payments`), made once for the app: Stripe, or the built-in sandbox
 * (then also `sandbox`, its card API). Subscriptions (Pro) and billing (saved cards, overage
 * minutes) share it, as they would share one Stripe account: one sandbox, whose events all reach
 * the one payment event handler (set by the subscriptions module), and one webhook secret.
 */
async function paymentsPlugin(app: FastifyInstance): Promise<void> {
  app.decorate('payments', createPaymentsProvider(app.config.stripe, app.db.db));
}

export default fp(paymentsPlugin, { name: 'payments' });

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}
