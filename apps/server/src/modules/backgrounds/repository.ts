import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import {
  backgroundPreferences,
  customBackgrounds,
  meetingBackgrounds,
  type BackgroundPreferencesRow,
  type CustomBackgroundRow,
  type MeetingBackgroundRow,
} from '../../db/schema/index.js';

export type PreferencesChange = Partial<
  Pick<
    BackgroundPreferencesRow,
    'backgroundType' | 'blurIntensity' | 'selectedBackgroundId' | 'customBackgroundId'
  >
>;

export function createBackgroundsRepository(db: Database) {
  return {
    async preferences(userId: string): Promise<BackgroundPreferencesRow | null> {
      const [row] = await db
        .select()
        .from(backgroundPreferences)
        .where(eq(backgroundPreferences.userId, userId));
      return row ?? null;
    },

    /** Writes the given fields (the others keep their saved value, or the defaults). */
    async savePreferences(userId: string, change: PreferencesChange): Promise<BackgroundPreferencesRow> {
      const now = new Date();
      const [row] = await db
        .insert(backgroundPreferences)
        .values({ userId, ...change, updatedAt: now })
        .onConflictDoUpdate({ target: backgroundPreferences.userId, set: { ...change, updatedAt: now } })
        .returning();
      if (!row) throw new Error('upsert into background_preferences returned nothing');
      return row;
    },

    async insertCustom(row: typeof customBackgrounds.$inferInsert): Promise<CustomBackgroundRow> {
      const [inserted] = await db.insert(customBackgrounds).values(row).returning();
      if (!inserted) throw new Error('insert into custom_backgrounds returned nothing');
      return inserted;
    },

    async countCustom(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(customBackgrounds)
        .where(eq(customBackgrounds.userId, userId));
      return Number(row?.n ?? 0);
    },

    listCustom(userId: string): Promise<CustomBackgroundRow[]> {
      return db
        .select()
        .from(customBackgrounds)
        .where(eq(customBackgrounds.userId, userId))
        .orderBy(asc(customBackgrounds.createdAt));
    },

    /** One of this user's uploads; another user's is as absent as an unknown one. */
    async findCustom(userId: string, id: string): Promise<CustomBackgroundRow | null> {
      const [row] = await db
        .select()
        .from(customBackgrounds)
        .where(and(eq(customBackgrounds.id, id), eq(customBackgrounds.userId, userId)));
      return row ?? null;
    },

    async deleteCustom(userId: string, id: string): Promise<CustomBackgroundRow | null> {
      const [row] = await db
        .delete(customBackgrounds)
        .where(and(eq(customBackgrounds.id, id), eq(customBackgrounds.userId, userId)))
        .returning();
      return row ?? null;
    },

    async saveMeetingBackground(
      row: Omit<typeof meetingBackgrounds.$inferInsert, 'updatedAt'>,
    ): Promise<MeetingBackgroundRow> {
      const now = new Date();
      const { meetingId: _m, participantId: _p, ...change } = row;
      const [saved] = await db
        .insert(meetingBackgrounds)
        .values({ ...row, updatedAt: now })
        .onConflictDoUpdate({
          target: [meetingBackgrounds.meetingId, meetingBackgrounds.participantId],
          set: { ...change, updatedAt: now },
        })
        .returning();
      if (!saved) throw new Error('upsert into meeting_backgrounds returned nothing');
      return saved;
    },
  };
}
export type BackgroundsRepository = ReturnType<typeof createBackgroundsRepository>;
