import { boolean, customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | Buffer }>({
  dataType: () => 'bytea',
  fromDriver: (value) => new Uint8Array(value),
});

/**
 * The meeting's collaboration document (whiteboard and notes, one Yjs document): one compacted
 * snapshot per meeting (`Y.encodeStateAsUpdate`), replaced on each save, never an ever-growing
 * log of updates. `bytes` is the snapshot's size (capped by COLLABORATION_BOUNDS.maxDocumentBytes).
 */
export const meetingCollaboration = pgTable('meeting_collaboration', {
  meetingId: uuid('meeting_id')
    .primaryKey()
    .references(() => meetings.id, { onDelete: 'cascade' }),
  state: bytea('state').notNull(),
  bytes: integer('bytes').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type MeetingCollaborationRow = typeof meetingCollaboration.$inferSelect;

/**
 * Who was in a meeting and when (the meeting report): one row per room participant, from its
 * first entry to when it left (null while it is in), and how long it spoke, summed from the
 * room's `speaking` events on the server's clock.
 */
export const meetingAttendance = pgTable(
  'meeting_attendance',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    participantId: text('participant_id').notNull(),
    name: text('name').notNull(),
    isHost: boolean('is_host').notNull().default(false),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    leftAt: timestamp('left_at', { withTimezone: true }),
    talkMs: integer('talk_ms').notNull().default(0),
  },
  (t) => [index('meeting_attendance_meeting_idx').on(t.meetingId, t.participantId)],
);
export type MeetingAttendanceRow = typeof meetingAttendance.$inferSelect;
