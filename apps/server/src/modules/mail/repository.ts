import { desc } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { mailOutbox } from '../../db/schema/index.js';

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
