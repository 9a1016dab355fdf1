import { eq, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { sessions, type SessionRow } from '../../db/schema/index.js';

export function createSessionRepository(db: Database) {
  return {
    async insert(row: { idHash: string; userId: string; idToken: string | null; expiresAt: Date }) {
      await db.insert(sessions).values(row);
    },
    async find(idHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1);
      return row;
    },
    async touch(idHash: string, at: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.idHash, idHash));
    },
    async delete(idHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.delete(sessions).where(eq(sessions.idHash, idHash)).returning();
      return row;
    },
    /** Removes sessions past their absolute end or idle for longer than `idleBefore`. */
    async deleteExpired(now: Date, idleBefore: Date): Promise<string[]> {
      const rows = await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleBefore)))
        .returning({ idHash: sessions.idHash });
      return rows.map((r) => r.idHash);
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
