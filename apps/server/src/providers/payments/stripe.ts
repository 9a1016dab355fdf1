import Stripe from 'stripe';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentsProvider,
  type ProviderSubscription,
} from './types.js';

/** The only file that imports the Stripe SDK (DESIGN.md). */

export interface StripeAdapterOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  priceId: string;
  /** Another API origin (a local stand-in for api.stripe.com in tests); Stripe's own when absent. */
  apiBase?: string;
}

/** What every subscription read asks Stripe to expand: the first payment's client secret. */
const EXPAND = ['latest_invoice.confirmation_secret', 'pending_setup_intent'];

function clientConfig(apiBase: string | undefined): Stripe.StripeConfig {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Parley' } };
  if (apiBase) {
    const url = new URL(apiBase);
    config.host = url.hostname;
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
  }
  return config;
}

function toProviderSubscription(sub: Stripe.Subscription): ProviderSubscription {
  const item = sub.items.data[0];
  const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
  const setupIntent = typeof sub.pending_setup_intent === 'object' ? sub.pending_setup_intent : null;
  const pending = sub.status === 'incomplete';
  return {
    id: sub.id,
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    userId: sub.metadata?.userId ?? null,
    status: sub.status,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    amountCents: item?.price.unit_amount ?? 0,
    currency: item?.price.currency ?? sub.currency,
    clientSecret: pending
      ? (invoice?.confirmation_secret?.client_secret ?? setupIntent?.client_secret ?? null)
      : null,
  };
}

export function createStripeProvider(options: StripeAdapterOptions): PaymentsProvider {
  const stripe = new Stripe(options.secretKey, clientConfig(options.apiBase));

  return {
    name: 'stripe',
    publishableKey: options.publishableKey,

    async ensureCustomer({ userId, email, name }) {
      const customer = await stripe.customers.create(
        { email, ...(name ? { name } : {}), metadata: { userId } },
        { idempotencyKey: `parley-customer-${userId}` },
      );
      return customer.id;
    },

    async createSubscription({ customerId, userId, idempotencyKey }) {
      const sub = await stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: options.priceId }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata: { userId },
          expand: EXPAND,
        },
        { idempotencyKey },
      );
      return toProviderSubscription(sub);
    },

    async retrieveSubscription(id) {
      try {
        return toProviderSubscription(await stripe.subscriptions.retrieve(id, { expand: EXPAND }));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },

    async setCancelAtPeriodEnd(id, cancelAtPeriodEnd) {
      const sub = await stripe.subscriptions.update(id, {
        cancel_at_period_end: cancelAtPeriodEnd,
        expand: EXPAND,
      });
      return toProviderSubscription(sub);
    },

    async createSetupIntent({ customerId, idempotencyKey }) {
      const intent = await stripe.setupIntents.create(
        { customer: customerId, usage: 'off_session', automatic_payment_methods: { enabled: true } },
        { idempotencyKey },
      );
      if (!intent.client_secret) throw new Error('Stripe returned a setup intent without a client secret');
      return { id: intent.id, clientSecret: intent.client_secret };
    },

    async retrieveSetupIntent(id) {
      try {
        const intent = await stripe.setupIntents.retrieve(id, { expand: ['payment_method'] });
        const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
        return {
          id: intent.id,
          customerId: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
          status: intent.status,
          paymentMethodId:
            typeof intent.payment_method === 'string' ? intent.payment_method : (method?.id ?? null),
          card: method?.card ? { brand: method.card.brand, last4: method.card.last4 } : null,
        };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },

    async recordUsage({ customerId, amountCents, currency, description, idempotencyKey }) {
      const item = await stripe.invoiceItems.create(
        { customer: customerId, amount: amountCents, currency, description },
        { idempotencyKey },
      );
      return { id: item.id };
    },

    verifyWebhook(rawBody, signatureHeader) {
      if (!signatureHeader) throw new WebhookSignatureError('Missing Stripe-Signature header');
      try {
        const event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
        return event as unknown as PaymentEvent;
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new WebhookSignatureError(err.message);
        }
        throw err;
      }
    },
  };
}
