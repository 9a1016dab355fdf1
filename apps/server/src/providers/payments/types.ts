/**
 * The payments provider behind one interface (DESIGN.md): Stripe, or the built-in sandbox that
 * follows Stripe's flow and object shapes. The subscriptions module only talks to this interface.
 */

export type PaymentsProviderName = 'stripe' | 'sandbox';

/** A subscription as the provider currently reports it, reduced to what the app stores. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Our user id, from the metadata we set when creating it (null if the object lacks it). */
  userId: string | null;
  /** Stripe's statuses: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused. */
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  amountCents: number;
  currency: string;
  /**
   * While the first payment is pending: the client secret that confirms it, `pi_…_secret_…` for a
   * payment intent or `seti_…_secret_…` for a setup intent (spec §3). Null otherwise.
   */
  clientSecret: string | null;
}

/** A setup intent, reduced to what saving a card needs. */
export interface ProviderSetupIntent {
  id: string;
  customerId: string | null;
  status: string;
  paymentMethodId: string | null;
  card: { brand: string; last4: string } | null;
}

/** A Stripe-shaped event (`evt_…`): what Stripe's webhooks send and what the sandbox produces. */
export interface PaymentEvent {
  id: string;
  object: 'event';
  type: string;
  /** Seconds since the epoch. */
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

export class WebhookSignatureError extends Error {}

export interface PaymentsProvider {
  readonly name: PaymentsProviderName;
  /** Stripe's publishable key for the web (null for the sandbox). */
  readonly publishableKey: string | null;

  /** The customer for this user, created once (idempotency key per user). */
  ensureCustomer(input: { userId: string; email: string; name: string | null }): Promise<string>;

  /**
   * Creates the Pro subscription with `payment_behavior: default_incomplete`: it starts
   * `incomplete` and carries the client secret of its first payment.
   */
  createSubscription(input: {
    customerId: string;
    userId: string;
    idempotencyKey: string;
  }): Promise<ProviderSubscription>;

  /** The provider's current object, or null when it does not exist. */
  retrieveSubscription(id: string): Promise<ProviderSubscription | null>;

  /** Cancel at period end (true) or undo that (false). */
  setCancelAtPeriodEnd(id: string, cancelAtPeriodEnd: boolean): Promise<ProviderSubscription>;

  /**
   * A setup intent to save a card for later off-session charges (the free tier's pay-as-you-go
   * overage, modules/billing).
   */
  createSetupIntent(input: {
    customerId: string;
    idempotencyKey: string;
  }): Promise<{ id: string; clientSecret: string }>;

  /** A setup intent as the provider reports it now (null when it does not exist). */
  retrieveSetupIntent(id: string): Promise<ProviderSetupIntent | null>;

  /**
   * Charges a customer's saved card for metered use (overage minutes): an invoice item on the
   * customer's next invoice. The idempotency key makes a repeated report charge once.
   */
  recordUsage(input: {
    customerId: string;
    amountCents: number;
    currency: string;
    description: string;
    idempotencyKey: string;
  }): Promise<{ id: string }>;

  /**
   * Checks a webhook's `Stripe-Signature` header over the raw body (Stripe's scheme, 300 s
   * tolerance) and returns the event. Throws WebhookSignatureError when it does not verify.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}

/** Seconds a webhook signature's timestamp may differ from now (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Statuses in which a subscription still grants Pro while its period lasts. */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);
