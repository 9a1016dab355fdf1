import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';
import { users } from './users.js';

/**
 * The free tier in meetings (spec §1, §4, §9): each person's clock per meeting, the cards saved
 * for pay-as-you-go, and the usage ledger of overage minutes.
 */

/**
 * A Pro host's per-meeting choice to cover everyone's time. Default on (issue 37 item 3: the
 * host's licence covers the meeting, as in Zoom and Meet): no row, or a row the host never set,
 * covers; the host may turn it off. It holds only while the host has Pro (free-time.ts).
 */
export const meetingBilling = pgTable('meeting_billing', {
  meetingId: uuid('meeting_id')
    .primaryKey()
    .references(() => meetings.id, { onDelete: 'cascade' }),
  coverEveryone: boolean('cover_everyone').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One person's time in one meeting, kept so that leaving, rejoining, reloading or a server
 * restart does not reset it. `clockKey` is `user:{id}` (signed in) or `guest:{sha256 of the
 * browser secret}` (`browser:{id}` / `session:{key}` when cookies are refused); rows keyed
 * `email:{address}` are from before issue 34 and no longer used.
 */
export const freeTimeClocks = pgTable(
  'free_time_clocks',
  {
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    clockKey: text('clock_key').notNull(),
    usedMs: bigint('used_ms', { mode: 'number' }).notNull().default(0),
    /** The billing account whose card pays the overage, once billing started. */
    overageAccountId: uuid('overage_account_id'),
    /**
     * The address a guest's clock was opened from (null for signed-in clocks): where a guest's
     * free time ran out, a new guest clock starts with none (free-time.ts#open).
     */
    clientAddress: text('client_address'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.meetingId, t.clockKey] }),
    index('free_time_clocks_address_idx').on(t.meetingId, t.clientAddress),
  ],
);
export type FreeTimeClockRow = typeof freeTimeClocks.$inferSelect;

/**
 * Who pays overage: a signed-in user (`user:{id}`) or a guest's browser (`guest:{sha256 of the
 * billing cookie}`), with the provider customer, the setup intent and the card it saved.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerKey: text('owner_key').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    customerId: text('customer_id'),
    setupIntentId: text('setup_intent_id'),
    paymentMethodId: text('payment_method_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_accounts_owner_idx').on(t.ownerKey)],
);
export type BillingAccountRow = typeof billingAccounts.$inferSelect;

/**
 * The usage ledger: one row per charged minute. The unique (meeting, clock, minute) makes a
 * minute charged once, whatever reconnects, sockets or repeated ticks ask for it.
 */
export const usageLedger = pgTable(
  'usage_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** meetings.id; no foreign key: what was charged stays when the meeting is deleted. */
    meetingId: uuid('meeting_id').notNull(),
    publicMeetingId: text('public_meeting_id').notNull(),
    clockKey: text('clock_key').notNull(),
    /** 1 for the first minute past the free time. */
    minute: integer('minute').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => billingAccounts.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    /** The provider's invoice item, once reported. */
    providerItemId: text('provider_item_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_ledger_minute_idx').on(t.meetingId, t.clockKey, t.minute),
    index('usage_ledger_account_idx').on(t.accountId),
  ],
);
export type UsageLedgerRow = typeof usageLedger.$inferSelect;
