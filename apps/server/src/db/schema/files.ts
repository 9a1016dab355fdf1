import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';

/**
 * Files shared in a meeting's chat. The bytes live in the storage provider under `storageKey`;
 * `mimeType` is the type detected from the bytes at upload, never the name or the client's claim.
 */
export const meetingFiles = pgTable(
  'meeting_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    /** The room participant id of the uploader (participants are not users: guests upload too). */
    uploaderId: text('uploader_id').notNull(),
    /** The uploader's name in the room when it shared the file (the files area shows it). */
    uploaderName: text('uploader_name'),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    mimeType: text('mime_type').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('meeting_files_meeting_idx').on(t.meetingId)],
);
export type MeetingFileRow = typeof meetingFiles.$inferSelect;
