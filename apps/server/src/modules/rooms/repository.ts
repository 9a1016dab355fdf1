import { and, eq } from 'drizzle-orm';
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
  };
}
export type RoomsRepository = ReturnType<typeof createRoomsRepository>;
