import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import {
  chatMessages,
  meetingAttendance,
  meetingFiles,
  meetings,
  type MeetingAttendanceRow,
  type MeetingRow,
} from '../../db/schema/index.js';

/** Attendance rows (written as the room changes) and what the meeting report reads. */
export function createReportRepository(db: Database) {
  return {
    /**
     * A participant's entry on this instance: its row, open (no left_at). The participant's row
     * of this meeting is opened again when it has one (it came from another server instance);
     * else a new row. Answers the row's id.
     */
    async openAttendance(row: {
      meetingId: string;
      participantId: string;
      name: string;
      isHost: boolean;
      joinedAt: Date;
    }): Promise<string> {
      const [reopened] = await db
        .update(meetingAttendance)
        .set({ leftAt: null })
        .where(
          and(
            eq(meetingAttendance.meetingId, row.meetingId),
            eq(meetingAttendance.participantId, row.participantId),
          ),
        )
        .returning({ id: meetingAttendance.id });
      if (reopened) return reopened.id;
      const [inserted] = await db
        .insert(meetingAttendance)
        .values(row)
        .returning({ id: meetingAttendance.id });
      if (!inserted) throw new Error('insert into meeting_attendance returned nothing');
      return inserted.id;
    },

    /** The participant is back (a dropped socket resumed): its row is open again. */
    async reopenAttendance(id: string): Promise<void> {
      await db.update(meetingAttendance).set({ leftAt: null }).where(eq(meetingAttendance.id, id));
    },

    async closeAttendance(id: string, leftAt: Date): Promise<void> {
      await db.update(meetingAttendance).set({ leftAt }).where(eq(meetingAttendance.id, id));
    },

    /**
     * Closes the participant's row if it is still open: it left while its entry was held by a
     * server instance that is gone (crashed), so no entry here will close it.
     */
    async closeOpenAttendance(meetingId: string, participantId: string, leftAt: Date): Promise<void> {
      await db
        .update(meetingAttendance)
        .set({ leftAt })
        .where(
          and(
            eq(meetingAttendance.meetingId, meetingId),
            eq(meetingAttendance.participantId, participantId),
            isNull(meetingAttendance.leftAt),
          ),
        );
    },

    /** Adds a finished speaking stretch to the participant's talk time. */
    async addTalk(id: string, ms: number): Promise<void> {
      await db
        .update(meetingAttendance)
        .set({ talkMs: sql`${meetingAttendance.talkMs} + ${Math.round(ms)}` })
        .where(eq(meetingAttendance.id, id));
    },

    async findMeeting(publicId: string): Promise<MeetingRow | null> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, publicId)).limit(1);
      return row ?? null;
    },

    async attendance(meetingId: string): Promise<MeetingAttendanceRow[]> {
      return db
        .select()
        .from(meetingAttendance)
        .where(eq(meetingAttendance.meetingId, meetingId))
        .orderBy(asc(meetingAttendance.joinedAt), asc(meetingAttendance.name));
    },

    async counts(meetingId: string): Promise<{ chatMessages: number; files: number }> {
      const [chat] = await db
        .select({ n: count() })
        .from(chatMessages)
        .where(eq(chatMessages.meetingId, meetingId));
      const [files] = await db
        .select({ n: count() })
        .from(meetingFiles)
        .where(eq(meetingFiles.meetingId, meetingId));
      return { chatMessages: Number(chat?.n ?? 0), files: Number(files?.n ?? 0) };
    },
  };
}
export type ReportRepository = ReturnType<typeof createReportRepository>;
