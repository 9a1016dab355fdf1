import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import {
  chatMessages,
  meetingFiles,
  type ChatMessageRow,
  type MeetingFileRow,
} from '../../db/schema/index.js';

export interface ChatRowWithFile {
  message: ChatMessageRow;
  file: MeetingFileRow | null;
}

export function createChatRepository(db: Database) {
  return {
    async insert(row: typeof chatMessages.$inferInsert): Promise<ChatMessageRow> {
      const [inserted] = await db.insert(chatMessages).values(row).returning();
      if (!inserted) throw new Error('insert into chat_messages returned nothing');
      return inserted;
    },

    /** The last `limit` messages of a meeting, oldest first, with their attached files. */
    async history(meetingId: string, limit: number): Promise<ChatRowWithFile[]> {
      const rows = await db
        .select({ message: chatMessages, file: meetingFiles })
        .from(chatMessages)
        .leftJoin(meetingFiles, eq(meetingFiles.id, chatMessages.fileId))
        .where(eq(chatMessages.meetingId, meetingId))
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(limit);
      return rows.reverse();
    },
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;
