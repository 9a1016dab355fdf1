import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { mailFailures, mailOutbox } from '../../db/schema/index.js';

/** The outbox table: mail kept instead of sent when no SMTP_URL is set (SQL only here). */
export function createOutboxRepository(db: Database) {
  return {
    async insert(entry: { to: string; subject: string; raw: string }): Promise<void> {
      await db.insert(mailOutbox).values(entry);
    },

    async latest(limit: number) {
      return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
    },
  };
}

/** Mail the queue gave up on, kept for the host to see (SQL only here). */
export function createMailFailuresRepository(db: Database) {
  return {
    async record(entry: { meetingId: string | null; recipient: string; subject: string; error: string }) {
      await db.insert(mailFailures).values(entry);
    },

    async clear(meetingId: string, recipient: string) {
      await db
        .delete(mailFailures)
        .where(and(eq(mailFailures.meetingId, meetingId), eq(mailFailures.recipient, recipient)));
    },

    async forMeeting(meetingId: string) {
      return db
        .select({
          email: mailFailures.recipient,
          subject: mailFailures.subject,
          failedAt: mailFailures.failedAt,
        })
        .from(mailFailures)
        .where(eq(mailFailures.meetingId, meetingId))
        .orderBy(desc(mailFailures.failedAt));
    },
  };
}

export type MailFailuresRepository = ReturnType<typeof createMailFailuresRepository>;
