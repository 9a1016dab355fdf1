import { desc } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { mailOutbox } from '../../db/schema/index.js';

export function createOutboxRepository(db: Database) {
  return {
    async latest(limit: number) {
      return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
    },
  };
}
