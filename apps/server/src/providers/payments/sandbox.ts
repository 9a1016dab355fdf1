import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PRO_PLAN, digitsOnly, validateCardInput, type CardError } from '@parley/protocol';
import type { Database } from '../../db/index.js';
import { createSandboxStore, type SandboxObject } from './sandbox-repository.js';
import { signPayload, verifySignature } from './signature.js';
import type { PaymentEvent, PaymentsProvider, ProviderSubscription } from './types.js';

/**
 * The built-in payments sandbox (the embedded default, no keys): Stripe's subscription flow with
 * Stripe-shaped objects kept in `sandbox_objects` — customer, subscription `incomplete` → `active`,
 * invoice, payment and setup intents with client secrets — and Stripe's test cards. Every state
 * change produces a Stripe-shaped event handed to the same handler as verified Stripe webhooks.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One calendar month after `from` (clamped to the month's last day), in seconds. */
export function oneMonthAhead(fromSeconds: number): number {
  const d = new Date(fromSeconds * 1000);
  const day = d.getUTCDate();
  const target = new Date(d);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

const PRICE = {
  id: 'price_sandbox_pro_monthly',
  object: 'price',
  unit_amount: Math.round(PRO_PLAN.priceUsd * 100),
  currency: PRO_PLAN.currency,
  recurring: { interval: PRO_PLAN.interval, interval_count: 1 },
  product: 'prod_sandbox_pro',
} as const;

type Outcome =
  | { kind: 'succeed' }
  | { kind: 'authenticate' }
  | { kind: 'decline'; code: string; declineCode?: string; message: string };

const DECLINED = 'Your card was declined.';
/** Stripe's test card numbers and what they do. */
const TEST_CARDS: Record<string, Outcome> = {
  '4242424242424242': { kind: 'succeed' },
  '4000056655665556': { kind: 'succeed' },
  '5555555555554444': { kind: 'succeed' },
  '2223003122003222': { kind: 'succeed' },
  '5200828282828210': { kind: 'succeed' },
  '378282246310005': { kind: 'succeed' },
  '6011111111111117': { kind: 'succeed' },
  '4000002500003155': { kind: 'authenticate' },
  '4000002760003184': { kind: 'authenticate' },
  '4000000000003220': { kind: 'authenticate' },
  '4000000000000002': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: DECLINED,
  },
  '4000000000009995': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { kind: 'decline', code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'stolen_card',
    message: DECLINED,
  },
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    kind: 'decline',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    kind: 'decline',
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};
const NON_TEST_CARD: Outcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message:
    'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};
const AUTH_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6/.test(number)) return 'discover';
  return 'unknown';
}

/** A card problem: 400 for bad input, 402 for a card the issuer refused (as Stripe answers). */
export class SandboxCardError extends Error {
  constructor(
    readonly statusCode: 400 | 402 | 404,
    readonly error: CardError,
  ) {
    super(error.message);
  }
}

interface Intent extends SandboxObject {
  object: 'payment_intent' | 'setup_intent';
  status: string;
  client_secret: string;
  customer: string;
  payment_method: string | null;
  metadata: { subscription?: string; invoice?: string };
  last_payment_error?: Record<string, unknown> | null;
  last_setup_error?: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
}

interface SubscriptionObject extends SandboxObject {
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  metadata: { userId?: string };
  latest_invoice: string | null;
  pending_setup_intent: string | null;
  default_payment_method: string | null;
  items: {
    object: 'list';
    data: Array<{
      id: string;
      object: 'subscription_item';
      price: typeof PRICE;
      quantity: number;
      current_period_start: number;
      current_period_end: number;
    }>;
  };
}

export type EventSink = (event: PaymentEvent) => Promise<void>;

export interface SandboxPayments extends PaymentsProvider {
  /** Where the sandbox's events go: the subscriptions module's event handler. */
  setEventSink(sink: EventSink): void;
  /** The card form's submission: confirms a payment or setup intent by its client secret. */
  confirmIntent(input: { clientSecret: string; cardNumber: string; expiry: string; cvc: string }): Promise<{
    id: string;
    object: Intent['object'];
    status: 'succeeded' | 'requires_action';
    paymentMethod: string | null;
  }>;
  /** The authentication step (3D Secure) of a card that asked for it. */
  authenticateIntent(input: {
    clientSecret: string;
    outcome: 'complete' | 'fail';
  }): Promise<{ id: string; object: Intent['object']; status: 'succeeded'; paymentMethod: string | null }>;
  /** Signs a payload as the sandbox's webhook endpoint secret would (for tools and tests). */
  signWebhookPayload(payload: string, timestamp?: number): string;
}

/** Compares two secrets in constant time (over their digests, so lengths may differ). */
function sameSecret(expected: string, presented: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

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

  async function toProviderSubscription(sub: SubscriptionObject): Promise<ProviderSubscription> {
    let clientSecret: string | null = null;
    if (sub.status === 'incomplete') {
      if (sub.latest_invoice) {
        const invoice = await store.get<
          SandboxObject & { confirmation_secret: { client_secret: string } | null }
        >(sub.latest_invoice);
        clientSecret = invoice?.confirmation_secret?.client_secret ?? null;
      }
      if (!clientSecret && sub.pending_setup_intent) {
        clientSecret = (await store.get<Intent>(sub.pending_setup_intent))?.client_secret ?? null;
      }
    }
    const item = sub.items.data[0];
    return {
      id: sub.id,
      customerId: sub.customer,
      userId: sub.metadata.userId ?? null,
      status: sub.status,
      currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      amountCents: item?.price.unit_amount ?? 0,
      currency: item?.price.currency ?? PRICE.currency,
      clientSecret,
    };
  }

  async function findIntent(clientSecret: string): Promise<Intent> {
    const at = clientSecret.indexOf('_secret_');
    const intent = at > 0 ? await store.get<Intent>(clientSecret.slice(0, at)) : undefined;
    if (!intent || !sameSecret(intent.client_secret, clientSecret)) {
      throw new SandboxCardError(404, {
        type: 'validation_error',
        code: 'resource_missing',
        message: 'No such payment intent: the client secret does not match any payment.',
      });
    }
    return intent;
  }

  /** The intent moves from the status it was read with to `next`; 400 if another request moved it first. */
  async function transition(intent: Intent, next: Intent): Promise<void> {
    if (!(await store.putIfStatus(next, [intent.status]))) {
      throw new SandboxCardError(400, {
        type: 'validation_error',
        code: `${intent.object}_unexpected_state`,
        message: 'This payment was changed by another request. Reload the page and try again.',
      });
    }
  }

  /** The intent went through: mark it, pay the invoice, activate the subscription. */
  async function succeed(intent: Intent, paymentMethodId: string): Promise<void> {
    const done: Intent = {
      ...intent,
      status: 'succeeded',
      payment_method: paymentMethodId,
      next_action: null,
    };
    await transition(intent, done);
    await emit(`${intent.object}.succeeded`, done);

    const customer = await store.get<
      SandboxObject & { invoice_settings: { default_payment_method: string | null } }
    >(intent.customer);
    if (customer) {
      const updated = { ...customer, invoice_settings: { default_payment_method: paymentMethodId } };
      await store.put(updated);
      await emit('customer.updated', updated, { invoice_settings: customer.invoice_settings });
    }

    if (intent.metadata.invoice) {
      const invoice = await store.get<SandboxObject & { status: string }>(intent.metadata.invoice);
      if (invoice && invoice.status !== 'paid') {
        const paid = {
          ...invoice,
          status: 'paid',
          amount_paid: invoice.amount_due,
          status_transitions: { paid_at: nowSeconds() },
        };
        if (await store.putIfStatus(paid, [invoice.status])) {
          await emit('invoice.paid', paid, { status: invoice.status });
        }
      }
    }
    if (intent.metadata.subscription) {
      const sub = await store.get<SubscriptionObject>(intent.metadata.subscription);
      if (sub && sub.status === 'incomplete') {
        const start = nowSeconds();
        const active: SubscriptionObject = {
          ...sub,
          status: 'active',
          default_payment_method: paymentMethodId,
          pending_setup_intent: null,
          items: {
            ...sub.items,
            data: sub.items.data.map((i) => ({
              ...i,
              current_period_start: start,
              current_period_end: oneMonthAhead(start),
            })),
          },
        };
        if (await store.putIfStatus(active, [sub.status])) {
          await emit('customer.subscription.updated', active, { status: sub.status });
        }
      }
    }
  }

  async function fail(intent: Intent, error: CardError, paymentMethodId: string | null): Promise<never> {
    const lastError = {
      type: error.type,
      code: error.code,
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      message: error.message,
      payment_method: paymentMethodId,
    };
    const failed: Intent = {
      ...intent,
      status: 'requires_payment_method',
      next_action: null,
      payment_method: null,
      ...(intent.object === 'payment_intent'
        ? { last_payment_error: lastError }
        : { last_setup_error: lastError }),
    };
    await transition(intent, failed);
    await emit(
      intent.object === 'payment_intent' ? 'payment_intent.payment_failed' : 'setup_intent.setup_failed',
      failed,
    );
    if (intent.metadata.invoice) {
      const invoice = await store.get<SandboxObject>(intent.metadata.invoice);
      if (invoice) await emit('invoice.payment_failed', invoice);
    }
    throw new SandboxCardError(402, error);
  }

  return {
    name: 'sandbox',
    publishableKey: null,

    setEventSink(next) {
      sink = next;
    },

    signWebhookPayload(payload, timestamp) {
      return signPayload(payload, webhookSecret, timestamp);
    },

    async ensureCustomer({ userId, email, name }) {
      const id = await store.claimIdempotencyKey(`customer-${userId}`, randomId('cus', 14));
      if (await store.get(id)) return id;
      const customer = {
        id,
        object: 'customer',
        email,
        name,
        created: nowSeconds(),
        metadata: { userId },
        invoice_settings: { default_payment_method: null },
      };
      await store.insert(customer);
      await emit('customer.created', customer);
      return id;
    },

    async createSubscription({ customerId, userId, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('sub', 24));
      const existing = await store.get<SubscriptionObject>(id);
      if (existing) return toProviderSubscription(existing);
      if (!(await store.get(customerId))) throw new Error(`No such customer: '${customerId}'`);

      const created = nowSeconds();
      const invoiceId = randomId('in');
      const intentId = randomId('pi');
      const clientSecret = `${intentId}_secret_${randomId('x', 24).slice(2)}`;
      const sub: SubscriptionObject = {
        id,
        object: 'subscription',
        customer: customerId,
        status: 'incomplete',
        cancel_at_period_end: false,
        canceled_at: null,
        created,
        currency: PRICE.currency,
        collection_method: 'charge_automatically',
        metadata: { userId },
        latest_invoice: invoiceId,
        pending_setup_intent: null,
        default_payment_method: null,
        payment_settings: { save_default_payment_method: 'on_subscription' },
        items: {
          object: 'list',
          data: [
            {
              id: randomId('si', 14),
              object: 'subscription_item',
              price: PRICE,
              quantity: 1,
              current_period_start: created,
              current_period_end: oneMonthAhead(created),
            },
          ],
        },
      };
      const invoice = {
        id: invoiceId,
        object: 'invoice',
        customer: customerId,
        status: 'open',
        amount_due: PRICE.unit_amount,
        amount_paid: 0,
        currency: PRICE.currency,
        billing_reason: 'subscription_create',
        created,
        parent: { type: 'subscription_details', subscription_details: { subscription: id } },
        confirmation_secret: { type: 'payment_intent', client_secret: clientSecret },
      };
      const intent: Intent = {
        id: intentId,
        object: 'payment_intent',
        amount: PRICE.unit_amount,
        currency: PRICE.currency,
        customer: customerId,
        status: 'requires_payment_method',
        client_secret: clientSecret,
        payment_method: null,
        setup_future_usage: 'off_session',
        next_action: null,
        last_payment_error: null,
        created,
        metadata: { subscription: id, invoice: invoiceId },
      };
      await store.insert(intent);
      await store.insert(invoice);
      await store.insert(sub);
      await emit('customer.subscription.created', sub);
      await emit('invoice.finalized', invoice);
      return toProviderSubscription(sub);
    },

    async retrieveSubscription(id) {
      const sub = await store.get<SubscriptionObject>(id);
      return sub && sub.object === 'subscription' ? toProviderSubscription(sub) : null;
    },

    async setCancelAtPeriodEnd(id, cancelAtPeriodEnd) {
      const sub = await store.get<SubscriptionObject>(id);
      if (!sub || sub.object !== 'subscription') throw new Error(`No such subscription: '${id}'`);
      if (sub.status === 'canceled') throw new Error('A canceled subscription can only update its metadata.');
      if (sub.cancel_at_period_end !== cancelAtPeriodEnd) {
        const updated: SubscriptionObject = {
          ...sub,
          cancel_at_period_end: cancelAtPeriodEnd,
          canceled_at: cancelAtPeriodEnd ? nowSeconds() : null,
        };
        await store.put(updated);
        await emit('customer.subscription.updated', updated, {
          cancel_at_period_end: sub.cancel_at_period_end,
          canceled_at: sub.canceled_at,
        });
        return toProviderSubscription(updated);
      }
      return toProviderSubscription(sub);
    },

    async createSetupIntent({ customerId, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('seti'));
      const existing = await store.get<Intent>(id);
      if (existing) return { id, clientSecret: existing.client_secret };
      if (!(await store.get(customerId))) throw new Error(`No such customer: '${customerId}'`);
      const intent: Intent = {
        id,
        object: 'setup_intent',
        customer: customerId,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomId('x', 24).slice(2)}`,
        usage: 'off_session',
        payment_method: null,
        next_action: null,
        last_setup_error: null,
        created: nowSeconds(),
        metadata: {},
      };
      await store.insert(intent);
      await emit('setup_intent.created', intent);
      return { id, clientSecret: intent.client_secret };
    },

    async retrieveSetupIntent(id) {
      const intent = await store.get<Intent>(id);
      if (!intent || intent.object !== 'setup_intent') return null;
      const method = intent.payment_method
        ? await store.get<SandboxObject & { card?: { brand: string; last4: string } }>(intent.payment_method)
        : undefined;
      return {
        id: intent.id,
        customerId: intent.customer,
        status: intent.status,
        paymentMethodId: intent.payment_method,
        card: method?.card ? { brand: method.card.brand, last4: method.card.last4 } : null,
      };
    },

    async recordUsage({ customerId, amountCents, currency, description, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('ii'));
      if (await store.get(id)) return { id };
      const item = {
        id,
        object: 'invoiceitem',
        customer: customerId,
        amount: amountCents,
        currency,
        description,
        date: nowSeconds(),
      };
      await store.insert(item);
      await emit('invoiceitem.created', item);
      return { id };
    },

    async confirmIntent(input) {
      const intent = await findIntent(input.clientSecret);
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        const noun = intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
        throw new SandboxCardError(400, {
          type: 'validation_error',
          code: `${intent.object}_unexpected_state`,
          message: `You cannot confirm this ${noun} because it has a status of ${intent.status}.`,
        });
      }
      const invalid = validateCardInput(input);
      if (invalid) throw new SandboxCardError(400, invalid);

      const number = digitsOnly(input.cardNumber);
      const [month, year] = input.expiry.split('/').map((s) => Number(s.trim()));
      const paymentMethod = {
        id: randomId('pm'),
        object: 'payment_method',
        type: 'card',
        customer: intent.customer,
        created: nowSeconds(),
        card: {
          brand: brandOf(number),
          last4: number.slice(-4),
          exp_month: month,
          exp_year: year! < 100 ? 2000 + year! : year,
        },
      };
      await store.insert(paymentMethod);
      const outcome = TEST_CARDS[number] ?? NON_TEST_CARD;

      if (outcome.kind === 'decline') {
        return fail(
          intent,
          {
            type: 'card_error',
            code: outcome.code,
            message: outcome.message,
            ...(outcome.declineCode ? { declineCode: outcome.declineCode } : {}),
          },
          paymentMethod.id,
        );
      }
      if (outcome.kind === 'authenticate') {
        const waiting: Intent = {
          ...intent,
          status: 'requires_action',
          payment_method: paymentMethod.id,
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
        };
        await transition(intent, waiting);
        await emit(`${intent.object}.requires_action`, waiting);
        return { id: intent.id, object: intent.object, status: 'requires_action', paymentMethod: null };
      }
      await succeed(intent, paymentMethod.id);
      return { id: intent.id, object: intent.object, status: 'succeeded', paymentMethod: paymentMethod.id };
    },

    async authenticateIntent({ clientSecret, outcome }) {
      const intent = await findIntent(clientSecret);
      if (intent.status !== 'requires_action' || !intent.payment_method) {
        throw new SandboxCardError(400, {
          type: 'validation_error',
          code: `${intent.object}_unexpected_state`,
          message: 'This payment does not need authentication.',
        });
      }
      if (outcome === 'fail') {
        return fail(
          intent,
          {
            type: 'card_error',
            code: `${intent.object}_authentication_failure`,
            message: AUTH_FAILED_MESSAGE,
          },
          intent.payment_method,
        );
      }
      await succeed(intent, intent.payment_method);
      return {
        id: intent.id,
        object: intent.object,
        status: 'succeeded',
        paymentMethod: intent.payment_method,
      };
    },

    verifyWebhook(rawBody, signatureHeader) {
      verifySignature(rawBody, signatureHeader, webhookSecret);
      return JSON.parse(rawBody.toString('utf8')) as PaymentEvent;
    },
  };
}
