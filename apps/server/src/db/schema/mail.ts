import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';

/** Mail "sent" in the embedded mode (no SMTP_URL): the whole RFC 822 message is kept. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  raw: text('raw').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A mail whose every attempt failed (the job queue gave up): shown to the meeting's host next to
 * the invitees. `meetingId` is null for mail that belongs to no meeting.
 */
export const mailFailures = pgTable(
  'mail_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id').references(() => meetings.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    error: text('error').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_failures_meeting_idx').on(t.meetingId)],
);
