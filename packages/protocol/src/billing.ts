import { z } from 'zod';
import { safe } from './safe-text.js';
export { BILLING_MESSAGES, formatCents } from './texts.js';

/**
 * The free tier in meetings (spec §1, §4, §7, §8, §9): the clock the server keeps for every
 * participant without Pro, its state as the participant's socket hears it (`free_time`), and the
 * pay-as-you-go calls (`/api/payment/setup-intent`, `/api/payment/save-method`,
 * `/api/billing/start`).
 */

/**
 * The participant's clock as the server reports it. `unlimited`: Pro, or a Pro host covers the
 * meeting; `free`: free time left; `grace`: free time is used up and a card must be saved before
 * the grace ends; `overage`: a card is saved, every started minute past the free time is charged.
 * Durations are milliseconds of this server's clock (tests run a minute as a second: `minuteMs`).
 */
export const freeTimeStateSchema = z.object({
  mode: z.enum(['unlimited', 'free', 'grace', 'overage']),
  /** Why the time is unlimited (null otherwise). */
  reason: z.enum(['pro', 'covered']).nullable(),
  /** Time used in this meeting so far (all of this person's sockets together). */
  elapsedMs: z.number(),
  /** The free time of a meeting (45 minutes). */
  freeMs: z.number(),
  /** Free time left (0 once it is used up). */
  remainingMs: z.number(),
  /** Grace left while `grace`; null otherwise. */
  graceRemainingMs: z.number().nullable(),
  /** The whole grace (30 s). */
  graceMs: z.number(),
  /** How long a minute lasts on this server (60,000 ms; tests shorten it). */
  minuteMs: z.number(),
  /** The payment prompt is due (40 minutes or more elapsed, free time left, no card saved). */
  prompt: z.boolean(),
  /** 5 minutes or less left: the warning style. */
  warning: z.boolean(),
  /** 10 minutes or less left: the upgrade hint. */
  upgradeHint: z.boolean(),
  /** Minutes charged past the free time, and their price in cents (overage). */
  overageMinutes: z.number().int(),
  overageCents: z.number().int(),
  /** Whether the clock runs now (this person is in the meeting). */
  running: z.boolean(),
});
export type FreeTimeState = z.infer<typeof freeTimeStateSchema>;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('email must be a valid email address'))
  .pipe(z.string().max(254));

/** POST /api/payment/setup-intent */
/**
 * `meetingId`: the meeting whose free time asks for the card; the caller must be its admitted
 * participant (join token as `Authorization: Bearer` or the room cookie): the billing session.
 */
export const setupIntentBodySchema = z.object({ email, meetingId: safe(z.string().min(1).max(64)) });
export const setupIntentResponseSchema = z.object({ clientSecret: z.string() });

/** POST /api/payment/save-method */
export const saveMethodBodySchema = z.object({
  email,
  paymentMethodId: safe(z.string().min(1).max(255)),
});
export const saveMethodResponseSchema = z.object({
  saved: z.literal(true),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
});

/** POST /api/billing/start */
export const billingStartBodySchema = z.object({
  meetingId: safe(z.string().min(1).max(64)),
  /** Kept for older pages; it names nobody (the caller's own card pays its own clock). */
  participantEmail: email.optional(),
});
export const billingStartResponseSchema = z.object({
  started: z.literal(true),
  freeTime: freeTimeStateSchema,
});

/** GET /api/billing/usage: what the caller's saved card was charged (the ledger). */
export const billingUsageSchema = z.object({
  hasPaymentMethod: z.boolean(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  email: z.string().nullable(),
  totalMinutes: z.number().int(),
  totalCents: z.number().int(),
  meetings: z.array(
    z.object({
      meetingId: z.string(),
      minutes: z.number().int(),
      amountCents: z.number().int(),
      lastChargedAt: z.string(),
    }),
  ),
});
export type BillingUsage = z.infer<typeof billingUsageSchema>;

/** PUT /api/meetings/{id}/free-time-cover (the meeting's Pro host): cover everyone's time. */
export const freeTimeCoverBodySchema = z.object({ coverEveryone: z.boolean() });
export const freeTimeCoverSchema = z.object({ coverEveryone: z.boolean() });
