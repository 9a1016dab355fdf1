import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetingCollaboration, meetings, type MeetingRow } from '../../db/schema/index.js';

/** The meeting's collaboration snapshot: one row per meeting, replaced on each save. */
export function createCollaborationRepository(db: Database) {
  return {
    /** A meeting by its public ddd-ddd-ddd id. */
    async findMeeting(publicId: string): Promise<MeetingRow | null> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, publicId)).limit(1);
      return row ?? null;
    },

    async load(meetingId: string): Promise<{ state: Uint8Array; bytes: number; updatedAt: Date } | null> {
      const [row] = await db
        .select()
        .from(meetingCollaboration)
        .where(eq(meetingCollaboration.meetingId, meetingId))
        .limit(1);
      return row ? { state: row.state, bytes: row.bytes, updatedAt: row.updatedAt } : null;
    },

    /** Replaces the meeting's snapshot (compaction: the row holds the merged state, not a log). */
    async save(meetingId: string, state: Uint8Array): Promise<void> {
      const now = new Date();
      await db
        .insert(meetingCollaboration)
        .values({ meetingId, state, bytes: state.length, updatedAt: now })
        .onConflictDoUpdate({
          target: meetingCollaboration.meetingId,
          set: { state: sql`excluded.state`, bytes: sql`excluded.bytes`, updatedAt: now },
        });
    },

    /** Deletes the meeting's snapshot (retention); answers 1 when there was one. */
    async remove(meetingId: string): Promise<number> {
      const rows = await db
        .delete(meetingCollaboration)
        .where(eq(meetingCollaboration.meetingId, meetingId))
        .returning({ id: meetingCollaboration.meetingId });
      return rows.length;
    },
  };
}
export type CollaborationRepository = ReturnType<typeof createCollaborationRepository>;
