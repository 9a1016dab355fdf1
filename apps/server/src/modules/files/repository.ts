import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetingFiles, meetings, type MeetingFileRow } from '../../db/schema/index.js';

export function createFilesRepository(db: Database) {
  return {
    async insert(row: typeof meetingFiles.$inferInsert): Promise<MeetingFileRow> {
      const [inserted] = await db.insert(meetingFiles).values(row).returning();
      if (!inserted) throw new Error('insert into meeting_files returned nothing');
      return inserted;
    },

    /** Bytes stored for a meeting, and how many files one participant of it has shared. */
    async usage(
      meetingId: string,
      uploaderId: string,
    ): Promise<{ meetingBytes: number; memberFiles: number }> {
      const [row] = await db
        .select({
          meetingBytes: sql<string>`coalesce(sum(${meetingFiles.size}), 0)`,
          memberFiles: count(sql`case when ${meetingFiles.uploaderId} = ${uploaderId} then 1 end`),
        })
        .from(meetingFiles)
        .where(eq(meetingFiles.meetingId, meetingId));
      return { meetingBytes: Number(row?.meetingBytes ?? 0), memberFiles: Number(row?.memberFiles ?? 0) };
    },
    async find(id: string): Promise<MeetingFileRow | null> {
      const [row] = await db.select().from(meetingFiles).where(eq(meetingFiles.id, id)).limit(1);
      return row ?? null;
    },

    /** The file with its meeting's public id (for the room cookie name). */
    async findWithMeeting(id: string): Promise<{ file: MeetingFileRow; publicMeetingId: string } | null> {
      const [row] = await db
        .select({ file: meetingFiles, publicMeetingId: meetings.meetingId })
        .from(meetingFiles)
        .innerJoin(meetings, eq(meetings.id, meetingFiles.meetingId))
        .where(eq(meetingFiles.id, id))
        .limit(1);
      return row ?? null;
    },
  };
}
export type FilesRepository = ReturnType<typeof createFilesRepository>;
