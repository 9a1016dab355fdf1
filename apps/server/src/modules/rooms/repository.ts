import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetings, type MeetingRow } from '../../db/schema/index.js';

export function createRoomsRepository(db: Database) {
  return {
    async findMeeting(publicId: string): Promise<MeetingRow | null> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, publicId)).limit(1);
      return row ?? null;
    },

    /** scheduled → live (the first participant came in); other statuses are left alone. */
    async markLive(id: string): Promise<void> {
      await db
        .update(meetings)
        .set({ status: 'live', updatedAt: new Date() })
        .where(and(eq(meetings.id, id), eq(meetings.status, 'scheduled')));
    },

    /** live → `status` (the last participant left). */
    async markFinished(id: string, status: 'ended' | 'scheduled'): Promise<void> {
      await db
        .update(meetings)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(meetings.id, id), eq(meetings.status, 'live')));
    },

    /**
     * At start-up no room exists yet, so no meeting can be live: those left `live` by a restart
     * or crash finish as if their last participant had left (instant → ended, scheduled →
     * scheduled). Returns how many were changed.
     */
    async finishAllLive(): Promise<number> {
      const rows = await db
        .update(meetings)
        .set({
          status: sql`case when ${meetings.meetingType} = 'instant' then 'ended' else 'scheduled' end`,
          updatedAt: new Date(),
        })
        .where(eq(meetings.status, 'live'))
        .returning({ id: meetings.id });
      return rows.length;
    },
  };
}
export type RoomsRepository = ReturnType<typeof createRoomsRepository>;
