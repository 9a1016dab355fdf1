import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { MeetingSummary } from '@parley/protocol';
import { meetings } from './meetings.js';

/**
 * The whole transcript of a meeting, one row per utterance (the room shows only the last 20).
 * The speaker is the server's record of the socket that streamed the audio, never a client field.
 */
export const transcriptLines = pgTable(
  'transcript_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    participantId: text('participant_id').notNull(),
    speakerName: text('speaker_name').notNull(),
    text: text('text').notNull(),
    language: text('language').notNull(),
    /**
     * 'speech', or 'notice': a line the room wrote about the transcription itself ("Gus declined
     * to be transcribed"); summaries read speech only.
     */
    kind: text('kind', { enum: ['speech', 'notice'] })
      .notNull()
      .default('speech'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('transcript_lines_meeting_started_idx').on(t.meetingId, t.startedAt)],
);
export type TranscriptLineRow = typeof transcriptLines.$inferSelect;

/** The latest summary of a meeting (regenerating replaces it). */
export const meetingSummaries = pgTable('meeting_summaries', {
  meetingId: uuid('meeting_id')
    .primaryKey()
    .references(() => meetings.id, { onDelete: 'cascade' }),
  summary: jsonb('summary').$type<MeetingSummary>().notNull(),
  /** Which engine wrote it ('rules (wink-nlp)', 'openai-compatible'), shown with the summary. */
  engine: text('engine').notNull(),
  /** How many transcript lines and chat messages it read. */
  sourceLines: integer('source_lines').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type MeetingSummaryRow = typeof meetingSummaries.$inferSelect;
