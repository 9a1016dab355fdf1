import { and, eq, exists, lt, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/index.js';
import { chatMessages, meetingAttendance, meetings } from '../../db/schema/index.js';

/** A content table's column that references meetings.id (e.g. chat_messages.meeting_id). */
export type MeetingIdColumn = AnyPgColumn;

/** SQL of the retention job. */
export function createRetentionRepository(db: Database) {
  return {
    /**
     * Meetings (meetings.id) whose content in `table` is due: they are not live, the host did not
     * keep their content, and they last changed before `cutoff`. A room that empties sets the
     * meeting's updated_at (live → ended or scheduled), so that is when its last session ended;
     * an edit afterwards moves it later, which only keeps the content longer.
     */
    async dueMeetingsWith(meetingIdColumn: MeetingIdColumn, cutoff: Date, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: meetings.id })
        .from(meetings)
        .where(
          and(
            ne(meetings.status, 'live'),
            eq(meetings.keepContent, false),
            lt(meetings.updatedAt, cutoff),
            exists(
              db
                .select({ one: sql`1` })
                .from(meetingIdColumn.table)
                .where(eq(meetingIdColumn, meetings.id)),
            ),
          ),
        )
        .limit(limit);
      return rows.map((r) => r.id);
    },

    async deleteChat(meetingId: string): Promise<number> {
      const rows = await db
        .delete(chatMessages)
        .where(eq(chatMessages.meetingId, meetingId))
        .returning({ id: chatMessages.id });
      return rows.length;
    },

    /** Who was in the meeting and how long they spoke (the meeting report's attendance). */
    async deleteAttendance(meetingId: string): Promise<number> {
      const rows = await db
        .delete(meetingAttendance)
        .where(eq(meetingAttendance.meetingId, meetingId))
        .returning({ id: meetingAttendance.id });
      return rows.length;
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
