import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';

/**
 * A meeting's recordings (issue 17 item 5): one row per Record … Stop. Janus writes the raw
 * streams while `recording`; the post-processing job makes one playable file of them
 * (`processing` → `ready`, or `failed` with `error`). `filePath` is relative to the server's
 * recordings folder (`${DATA_DIR}/recordings`).
 */
export const recordings = pgTable(
  'recordings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    /** The room participant id of the host who started it. */
    startedBy: text('started_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Of the finished file, as ffprobe measures it. */
    durationMs: integer('duration_ms'),
    filePath: text('file_path'),
    size: bigint('size', { mode: 'number' }),
    status: text('status', { enum: ['recording', 'processing', 'ready', 'failed'] })
      .notNull()
      .default('recording'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recordings_meeting_idx').on(t.meetingId)],
);
export type RecordingRow = typeof recordings.$inferSelect;
