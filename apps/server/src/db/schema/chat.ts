import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetingFiles } from './files.js';
import { meetings } from './meetings.js';

/** Chat messages of a meeting room: server-assigned id and timestamp, sender from the socket. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    senderId: text('sender_id').notNull(),
    senderName: text('sender_name').notNull(),
    content: text('content').notNull(),
    fileId: uuid('file_id').references(() => meetingFiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_meeting_created_idx').on(t.meetingId, t.createdAt)],
);
export type ChatMessageRow = typeof chatMessages.$inferSelect;
