import { z } from 'zod';
import { subscriptionStatusSchema } from './entities.js';
// The card checks live apart from the schemas (no zod there): the room's payment form uses them.
export * from './card.js';

/**
 * Payments API bodies (subscription issue) and the card checks the built-in sandbox shares with its
 * card form. The sandbox follows Stripe's own rules and messages for card input.
 */

/** Body of POST /api/subscription/create, /cancel and /reactivate. */
export const subscriptionEmailBodySchema = z.strictObject({
  email: z.email('email must be a valid email address').max(320),
});
export type SubscriptionEmailBody = z.infer<typeof subscriptionEmailBodySchema>;

/** Answer of POST /api/subscription/cancel and /reactivate: a message and the new status. */
export const subscriptionActionResponseSchema = z.object({
  message: z.string(),
  status: subscriptionStatusSchema,
});
export type SubscriptionActionResponse = z.infer<typeof subscriptionActionResponseSchema>;

/** GET /api/subscription/config: which payments provider the server runs. */
export const paymentsConfigSchema = z.object({
  provider: z.enum(['stripe', 'sandbox']),
  /** Stripe's publishable key when the provider is Stripe; null for the sandbox. */
  publishableKey: z.string().nullable(),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/** `pi_…_secret_…` (payment intent) or `seti_…_secret_…` (setup intent). */
export const clientSecretSchema = z
  .string()
  .max(200)
  .regex(/^(pi|seti)_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/, 'clientSecret is not a valid client secret');

/** POST /api/payment/sandbox/confirm: the sandbox card form's submission. */
export const sandboxConfirmBodySchema = z.strictObject({
  clientSecret: clientSecretSchema,
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(10),
});
export type SandboxConfirmBody = z.infer<typeof sandboxConfirmBodySchema>;

/** POST /api/payment/sandbox/authenticate: the sandbox's authentication (3D Secure) step. */
export const sandboxAuthenticateBodySchema = z.strictObject({
  clientSecret: clientSecretSchema,
  outcome: z.enum(['complete', 'fail']),
});
export type SandboxAuthenticateBody = z.infer<typeof sandboxAuthenticateBodySchema>;

/** What a sandbox confirmation answers when the card was accepted for processing. */
export const sandboxIntentResultSchema = z.object({
  id: z.string(),
  object: z.enum(['payment_intent', 'setup_intent']),
  status: z.enum(['succeeded', 'requires_action', 'processing']),
  /** Added: the card saved by a succeeded setup intent (POST /api/payment/save-method takes it). */
  paymentMethod: z.string().nullable().optional(),
});
export type SandboxIntentResult = z.infer<typeof sandboxIntentResultSchema>;
