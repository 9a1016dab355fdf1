import type { Database } from '../../../db/index.js';
import { signPayload, verifySignature } from '../signature.js';
import type { PaymentEvent } from '../types.js';
import { sandboxBilling } from './billing.js';
import { sandboxCardForm } from './card-form.js';
import { nowSeconds, randomId } from './objects.js';
import { createSandboxStore, type SandboxObject } from './repository.js';
import { sandboxSubscriptions } from './subscriptions.js';
import type { EventSink, SandboxContext, SandboxPayments } from './types.js';

export { SandboxCardError, oneMonthAhead } from './objects.js';
export type { EventSink, SandboxPayments } from './types.js';

/**
 * The built-in payments sandbox (the embedded default, no keys): Stripe's subscription flow with
 * Stripe-shaped objects kept in `sandbox_objects` — customer, subscription `incomplete` → `active`,
 * invoice, payment and setup intents with client secrets — and Stripe's test cards. Every state
 * change produces a Stripe-shaped event handed to the same handler as verified Stripe webhooks.
 */
export function createSandboxProvider(
  db: Database,
  options: { webhookSecret?: string } = {},
): SandboxPayments {
  const store = createSandboxStore(db);
  const webhookSecret = options.webhookSecret ?? randomId('whsec', 32);
  let sink: EventSink = async () => {};

  async function emit(type: string, object: SandboxObject, previous?: Record<string, unknown>) {
    const event: PaymentEvent = {
      id: randomId('evt'),
      object: 'event',
      type,
      created: nowSeconds(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
    };
    await store.insert(event as unknown as SandboxObject);
    await sink(event);
  }
  const context: SandboxContext = { store, emit };

  return {
    name: 'sandbox',
    publishableKey: null,

    setEventSink(next) {
      sink = next;
    },

    signWebhookPayload(payload, timestamp) {
      return signPayload(payload, webhookSecret, timestamp);
    },

    verifyWebhook(rawBody, signatureHeader) {
      verifySignature(rawBody, signatureHeader, webhookSecret);
      return JSON.parse(rawBody.toString('utf8')) as PaymentEvent;
    },

    ...sandboxSubscriptions(context),
    ...sandboxBilling(context),
    ...sandboxCardForm(context),
  };
}
