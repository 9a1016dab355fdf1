import type { PaymentEvent, PaymentsProvider } from '../types.js';
import type { PRICE } from './objects.js';
import type { SandboxObject, SandboxStore } from './repository.js';

export interface Intent extends SandboxObject {
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

export interface SubscriptionObject extends SandboxObject {
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

/** What each part of the sandbox works on: the stored objects, and the events of their changes. */
export interface SandboxContext {
  store: SandboxStore;
  /** Stores a Stripe-shaped event of the change and hands it to the event sink. */
  emit(type: string, object: SandboxObject, previous?: Record<string, unknown>): Promise<void>;
}
