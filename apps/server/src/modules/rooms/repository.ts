import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetings, type MeetingRow } from '../../db/schema/index.js';

export function createRoomsRepository(db: Database) {
  return {
    async findMeeting(publicId: string): Promise<MeetingRow | null> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, publicId)).limit(1);
      return row ?? null;
    },

    /**
     * The first participant came in: scheduled → live, and this instance's room holds the meeting
     * (`instance`, heartbeat now). An instant meeting is live from its creation; it is claimed the
     * same way. Ended and cancelled meetings are left alone.
     */
    async markLive(id: string, instance: string): Promise<void> {
      await db
        .update(meetings)
        .set({ status: 'live', liveInstance: instance, liveHeartbeatAt: new Date(), updatedAt: new Date() })
        .where(and(eq(meetings.id, id), inArray(meetings.status, ['scheduled', 'live'])));
    },

    /** live → `status` (the last participant left); no instance holds it any more. */
    async markFinished(id: string, status: 'ended' | 'scheduled'): Promise<void> {
      await db
        .update(meetings)
        .set({ status, liveInstance: null, liveHeartbeatAt: null, updatedAt: new Date() })
        .where(and(eq(meetings.id, id), eq(meetings.status, 'live')));
    },

    /** This instance still holds its live meetings (their rooms are in its memory). */
    async heartbeat(instance: string): Promise<void> {
      await db
        .update(meetings)
        .set({ liveHeartbeatAt: new Date() })
        .where(and(eq(meetings.liveInstance, instance), eq(meetings.status, 'live')));
    },

    /**
     * Several instances share the rooms (Redis): this instance, holding sockets in these rooms,
     * holds their live meetings now, so that they outlive the instance that first held them.
     */
    async holdLive(ids: string[], instance: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(meetings)
        .set({ liveInstance: instance, liveHeartbeatAt: new Date() })
        .where(and(inArray(meetings.id, ids), eq(meetings.status, 'live')));
    },

    /**
     * Live meetings whose room is gone finish as if their last participant had left (instant →
     * ended, scheduled → scheduled): those held by an instance whose heartbeat is older than
     * `staleBefore` (it crashed or was killed), or, with `instance`, those of that instance (it is
     * shutting down). A meeting another running instance holds is never touched; one no instance
     * ever held (an instant meeting nobody entered yet) has no room to lose and stays live.
     * Returns how many were changed.
     */
    async finishOrphaned(which: { staleBefore: Date } | { instance: string }): Promise<number> {
      const whose =
        'instance' in which
          ? eq(meetings.liveInstance, which.instance)
          : and(isNotNull(meetings.liveInstance), lt(meetings.liveHeartbeatAt, which.staleBefore));
      const rows = await db
        .update(meetings)
        .set({
          status: sql`case when ${meetings.meetingType} = 'instant' then 'ended' else 'scheduled' end`,
          liveInstance: null,
          liveHeartbeatAt: null,
          updatedAt: new Date(),
        })
        .where(and(eq(meetings.status, 'live'), whose))
        .returning({ id: meetings.id });
      return rows.length;
    },
  };
}
export type RoomsRepository = ReturnType<typeof createRoomsRepository>;
