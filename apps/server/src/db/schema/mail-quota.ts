import { date, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * How many invitation e-mails (recipients) each user has had sent on one UTC day. Counted in the
 * database, not in memory, so a restart or a second instance does not hand out a fresh allowance.
 */
export const mailQuota = pgTable(
  'mail_quota',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The UTC day, e.g. 2026-11-23. */
    day: date('day', { mode: 'string' }).notNull(),
    recipients: integer('recipients').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
export type MailQuotaRow = typeof mailQuota.$inferSelect;
