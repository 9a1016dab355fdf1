import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const meetings = pgTable(
  'meetings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public, typeable id: ddd-ddd-ddd. */
    meetingId: text('meeting_id').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    hostId: uuid('host_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hostEmail: text('host_email'),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    duration: integer('duration'),
    timezone: text('timezone').notNull().default('UTC'),
    isRecurring: boolean('is_recurring').notNull().default(false),
    recurrencePattern: text('recurrence_pattern'),
    meetingType: text('meeting_type').notNull(),
    maxParticipants: integer('max_participants').notNull().default(100),
    /** scrypt hash of the meeting password; never returned. */
    passwordHash: text('password_hash'),
    waitingRoom: boolean('waiting_room').notNull().default(false),
    allowRecording: boolean('allow_recording').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    status: text('status').notNull(),
    /** iCalendar SEQUENCE: raised on every edit that is mailed to invitees. */
    icsSequence: integer('ics_sequence').notNull().default(0),
    /**
     * The host chose to keep this meeting's content (files, chat and, later, recordings,
     * transcripts, summaries): the retention job leaves it alone.
     */
    keepContent: boolean('keep_content').notNull().default(false),
    /**
     * The server instance whose room holds this live meeting, and when it last said so (every
     * ROOM_HEARTBEAT.everyMs). At start-up, and from then on, an instance finishes only live
     * meetings whose heartbeat went stale: not the rooms another instance is still running.
     */
    liveInstance: text('live_instance'),
    liveHeartbeatAt: timestamp('live_heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('meetings_meeting_id_idx').on(t.meetingId), index('meetings_host_idx').on(t.hostId)],
);
export type MeetingRow = typeof meetings.$inferSelect;

export const meetingInvitees = pgTable(
  'meeting_invitees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('meeting_invitees_meeting_email_idx').on(t.meetingId, t.email)],
);
export type MeetingInviteeRow = typeof meetingInvitees.$inferSelect;
