import { asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { meetingFiles, meetings, type MeetingFileRow } from '../../db/schema/index.js';

export function createFilesRepository(db: Database) {
  return {
    async insert(row: typeof meetingFiles.$inferInsert): Promise<MeetingFileRow> {
      const [inserted] = await db.insert(meetingFiles).values(row).returning();
      if (!inserted) throw new Error('insert into meeting_files returned nothing');
      return inserted;
    },

    /**
     * Bytes stored for a meeting, how many files one participant of it has shared, the bytes of
     * every meeting `hostId` hosts, and the bytes of the whole instance.
     */
    async usage(
      meetingId: string,
      uploaderId: string,
      hostId: string | null,
    ): Promise<{ meetingBytes: number; memberFiles: number; hostBytes: number; instanceBytes: number }> {
      const [row] = await db
        .select({
          meetingBytes: sql<string>`coalesce(sum(${meetingFiles.size}), 0)`,
          memberFiles: count(sql`case when ${meetingFiles.uploaderId} = ${uploaderId} then 1 end`),
        })
        .from(meetingFiles)
        .where(eq(meetingFiles.meetingId, meetingId));
      const [host] = hostId
        ? await db
            .select({ bytes: sql<string>`coalesce(sum(${meetingFiles.size}), 0)` })
            .from(meetingFiles)
            .innerJoin(meetings, eq(meetings.id, meetingFiles.meetingId))
            .where(eq(meetings.hostId, hostId))
        : [{ bytes: '0' }];
      const [all] = await db
        .select({ bytes: sql<string>`coalesce(sum(${meetingFiles.size}), 0)` })
        .from(meetingFiles);
      return {
        meetingBytes: Number(row?.meetingBytes ?? 0),
        memberFiles: Number(row?.memberFiles ?? 0),
        hostBytes: Number(host?.bytes ?? 0),
        instanceBytes: Number(all?.bytes ?? 0),
      };
    },
    /** Deletes the rows of every file of a meeting; answers how many. */
    async deleteByMeeting(meetingId: string): Promise<number> {
      const rows = await db
        .delete(meetingFiles)
        .where(eq(meetingFiles.meetingId, meetingId))
        .returning({ id: meetingFiles.id });
      return rows.length;
    },

    /** Every file of a meeting, oldest first. */
    async listByMeeting(meetingId: string): Promise<MeetingFileRow[]> {
      return db
        .select()
        .from(meetingFiles)
        .where(eq(meetingFiles.meetingId, meetingId))
        .orderBy(asc(meetingFiles.createdAt), asc(meetingFiles.id));
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
