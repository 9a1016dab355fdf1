import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetingAttendance, meetings, recordings, type RecordingRow } from '../../db/schema/index.js';

/** A recording with what the host's list and the download need of its meeting. */
export interface RecordingWithMeeting {
  recording: RecordingRow;
  meetingId: string;
  meetingTitle: string;
  hostId: string;
}

/** SQL of recordings. */
export function createRecordingsRepository(db: Database) {
  const withMeeting = () =>
    db
      .select({
        recording: recordings,
        meetingId: meetings.meetingId,
        meetingTitle: meetings.title,
        hostId: meetings.hostId,
      })
      .from(recordings)
      .innerJoin(meetings, eq(meetings.id, recordings.meetingId));

  return {
    /** Whether the meeting (meetings.id) allows recording; null when there is no such meeting. */
    async allowsRecording(meetingId: string): Promise<boolean | null> {
      const [row] = await db
        .select({ allow: meetings.allowRecording })
        .from(meetings)
        .where(eq(meetings.id, meetingId));
      return row ? row.allow : null;
    },

    async create(input: { meetingId: string; startedBy: string; startedAt: Date }): Promise<RecordingRow> {
      const [row] = await db
        .insert(recordings)
        .values({ ...input, status: 'recording' })
        .returning();
      return row!;
    },

    /** Recording → processing, with its end; null if it was not recording any more. */
    async finish(id: string, endedAt: Date): Promise<RecordingRow | null> {
      const [row] = await db
        .update(recordings)
        .set({ status: 'processing', endedAt })
        .where(and(eq(recordings.id, id), eq(recordings.status, 'recording')))
        .returning();
      return row ?? null;
    },

    async get(id: string): Promise<RecordingRow | null> {
      const [row] = await db.select().from(recordings).where(eq(recordings.id, id));
      return row ?? null;
    },

    async markReady(id: string, file: { filePath: string; size: number; durationMs: number }): Promise<void> {
      await db
        .update(recordings)
        .set({ ...file, status: 'ready', error: null })
        .where(eq(recordings.id, id));
    },

    async markFailed(id: string, error: string): Promise<void> {
      await db.update(recordings).set({ status: 'failed', error }).where(eq(recordings.id, id));
    },

    /**
     * Rows still `recording` whose meeting is no longer live: their server stopped while they ran
     * (a live meeting's recording belongs to the instance holding its room).
     */
    async orphaned(): Promise<RecordingRow[]> {
      const rows = await db
        .select({ recording: recordings })
        .from(recordings)
        .innerJoin(meetings, eq(meetings.id, recordings.meetingId))
        .where(and(eq(recordings.status, 'recording'), ne(meetings.status, 'live')));
      return rows.map((r) => r.recording);
    },

    /** The recordings of the user's own meetings, newest first. */
    async listForHost(userId: string): Promise<RecordingWithMeeting[]> {
      return withMeeting().where(eq(meetings.hostId, userId)).orderBy(desc(recordings.startedAt)).limit(500);
    },

    async findWithMeeting(id: string): Promise<RecordingWithMeeting | null> {
      const [row] = await withMeeting().where(eq(recordings.id, id));
      return row ?? null;
    },

    /** Bytes the finished recordings of the user's meetings take, together. */
    async usedBytesForHost(userId: string): Promise<number> {
      const [row] = await db
        .select({ bytes: sql<string | number | null>`coalesce(sum(${recordings.size}), 0)` })
        .from(recordings)
        .innerJoin(meetings, eq(meetings.id, recordings.meetingId))
        .where(eq(meetings.hostId, userId));
      return Number(row?.bytes ?? 0);
    },

    /** The user's meetings' recordings still recording or being processed (their raw files count). */
    async unfinishedForHost(userId: string): Promise<RecordingRow[]> {
      const rows = await db
        .select({ recording: recordings })
        .from(recordings)
        .innerJoin(meetings, eq(meetings.id, recordings.meetingId))
        .where(and(eq(meetings.hostId, userId), inArray(recordings.status, ['recording', 'processing'])));
      return rows.map((r) => r.recording);
    },

    /** The names people had in a meeting, by room participant id (the tiles' names). */
    async namesOf(meetingId: string): Promise<Map<string, string>> {
      const rows = await db
        .select({ participantId: meetingAttendance.participantId, name: meetingAttendance.name })
        .from(meetingAttendance)
        .where(eq(meetingAttendance.meetingId, meetingId))
        .orderBy(meetingAttendance.joinedAt);
      // The latest name a participant had (a rename) wins.
      return new Map(rows.map((r) => [r.participantId, r.name]));
    },

    /** Deletes one recording row; answers it (its file goes too). */
    async delete(id: string): Promise<RecordingRow | null> {
      const [row] = await db.delete(recordings).where(eq(recordings.id, id)).returning();
      return row ?? null;
    },

    /** Deletes a meeting's recording rows; answers them (their files go too). */
    async deleteByMeeting(meetingId: string): Promise<RecordingRow[]> {
      return db.delete(recordings).where(eq(recordings.meetingId, meetingId)).returning();
    },
  };
}
export type RecordingsRepository = ReturnType<typeof createRecordingsRepository>;
