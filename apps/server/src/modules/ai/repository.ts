import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { MeetingSummary } from '@parley/protocol';
import type { Database } from '../../db/index.js';
import {
  chatMessages,
  meetingSummaries,
  meetings,
  transcriptLines,
  type MeetingRow,
  type MeetingSummaryRow,
  type TranscriptLineRow,
} from '../../db/schema/index.js';

export type NewTranscriptLine = Omit<typeof transcriptLines.$inferInsert, 'id' | 'createdAt'>;

/** SQL of the AI slice: the persisted transcript, the latest summary, and what a summary reads. */
export function createAiRepository(db: Database) {
  return {
    async findMeeting(publicId: string): Promise<MeetingRow | undefined> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, publicId)).limit(1);
      return row;
    },

    async insertLine(line: NewTranscriptLine): Promise<TranscriptLineRow> {
      const [row] = await db.insert(transcriptLines).values(line).returning();
      if (!row) throw new Error('transcript line was not inserted');
      return row;
    },

    /** The meeting's whole transcript, in the order it was spoken. */
    async lines(meetingRowId: string): Promise<TranscriptLineRow[]> {
      return db
        .select()
        .from(transcriptLines)
        .where(eq(transcriptLines.meetingId, meetingRowId))
        .orderBy(asc(transcriptLines.startedAt), asc(transcriptLines.createdAt));
    },

    /** The meeting's last `limit` lines, oldest first (what a participant sees on entering). */
    async recentLines(meetingRowId: string, limit: number): Promise<TranscriptLineRow[]> {
      const rows = await db
        .select()
        .from(transcriptLines)
        .where(eq(transcriptLines.meetingId, meetingRowId))
        .orderBy(desc(transcriptLines.startedAt), desc(transcriptLines.createdAt))
        .limit(limit);
      return rows.reverse();
    },

    async lineCount(meetingRowId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(transcriptLines)
        .where(eq(transcriptLines.meetingId, meetingRowId));
      return row?.n ?? 0;
    },

    /** The meeting's chat (text messages only), oldest first: a summary reads it too. */
    async chat(meetingRowId: string) {
      return db
        .select({
          id: chatMessages.id,
          senderName: chatMessages.senderName,
          content: chatMessages.content,
          createdAt: chatMessages.createdAt,
        })
        .from(chatMessages)
        .where(eq(chatMessages.meetingId, meetingRowId))
        .orderBy(asc(chatMessages.createdAt));
    },

    async saveSummary(
      meetingRowId: string,
      summary: MeetingSummary,
      engine: string,
      sourceLines: number,
    ): Promise<MeetingSummaryRow> {
      const values = { meetingId: meetingRowId, summary, engine, sourceLines, createdAt: new Date() };
      const [row] = await db
        .insert(meetingSummaries)
        .values(values)
        .onConflictDoUpdate({ target: meetingSummaries.meetingId, set: values })
        .returning();
      if (!row) throw new Error('summary was not saved');
      return row;
    },

    async summary(meetingRowId: string): Promise<MeetingSummaryRow | undefined> {
      const [row] = await db
        .select()
        .from(meetingSummaries)
        .where(eq(meetingSummaries.meetingId, meetingRowId))
        .limit(1);
      return row;
    },

    /** Retention: the meeting's transcript lines go; answers how many. */
    async deleteTranscript(meetingRowId: string): Promise<number> {
      const gone = await db
        .delete(transcriptLines)
        .where(eq(transcriptLines.meetingId, meetingRowId))
        .returning({ id: transcriptLines.id });
      return gone.length;
    },

    /** Retention: the meeting's summary goes; answers how many (0 or 1). */
    async deleteSummary(meetingRowId: string): Promise<number> {
      const gone = await db
        .delete(meetingSummaries)
        .where(eq(meetingSummaries.meetingId, meetingRowId))
        .returning({ id: meetingSummaries.meetingId });
      return gone.length;
    },

    /** The host's Save: the meeting's content is kept past the retention period (or no longer). */
    async setKeepContent(meetingRowId: string, keep: boolean): Promise<void> {
      await db
        .update(meetings)
        .set({ keepContent: keep, updatedAt: new Date() })
        .where(and(eq(meetings.id, meetingRowId)));
    },
  };
}
export type AiRepository = ReturnType<typeof createAiRepository>;
