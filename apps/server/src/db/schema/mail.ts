import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Mail "sent" in the embedded mode (no SMTP_URL): the whole RFC 822 message is kept. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  raw: text('raw').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
