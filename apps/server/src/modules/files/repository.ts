import { eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetingFiles, meetings, type MeetingFileRow } from '../../db/schema/index.js';

export function createFilesRepository(db: Database) {
  return {
    async insert(row: typeof meetingFiles.$inferInsert): Promise<MeetingFileRow> {
      const [inserted] = await db.insert(meetingFiles).values(row).returning();
      if (!inserted) throw new Error('insert into meeting_files returned nothing');
      return inserted;
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
