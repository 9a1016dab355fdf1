import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { meetings } from './meetings.js';
import { users } from './users.js';

/**
 * Pictures a Pro user uploaded as their own backgrounds. The bytes (re-encoded by the server, never
 * the upload as it came) live in the storage provider under `storageKey`.
 */
export const customBackgrounds = pgTable(
  'custom_backgrounds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('custom_backgrounds_user_idx').on(t.userId)],
);
export type CustomBackgroundRow = typeof customBackgrounds.$inferSelect;

/** A signed-in user's saved background effect (spec §3), the initial state everywhere. */
export const backgroundPreferences = pgTable('background_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** none, blur, virtual or custom. */
  backgroundType: text('background_type').notNull().default('none'),
  blurIntensity: integer('blur_intensity').notNull().default(5),
  /** A catalogue id (kept when the type changes, so Virtual comes back to the last picture). */
  selectedBackgroundId: text('selected_background_id'),
  customBackgroundId: uuid('custom_background_id').references(() => customBackgrounds.id, {
    onDelete: 'set null',
  }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type BackgroundPreferencesRow = typeof backgroundPreferences.$inferSelect;

/**
 * The effect a participant applied inside a meeting (spec §3): the server's record, checked
 * against the catalogue and the participant's plan when it was applied. Goes with the meeting.
 */
export const meetingBackgrounds = pgTable(
  'meeting_backgrounds',
  {
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    /** The room participant id (participants are not users: guests apply effects too). */
    participantId: text('participant_id').notNull(),
    backgroundType: text('background_type').notNull(),
    backgroundId: text('background_id'),
    blurIntensity: integer('blur_intensity').notNull(),
    customBackgroundId: uuid('custom_background_id').references(() => customBackgrounds.id, {
      onDelete: 'set null',
    }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.participantId] })],
);
export type MeetingBackgroundRow = typeof meetingBackgrounds.$inferSelect;
