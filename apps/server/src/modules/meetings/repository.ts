import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import {
  mailQuota,
  meetingInvitees,
  meetings,
  type MeetingInviteeRow,
  type MeetingRow,
} from '../../db/schema/index.js';

export type NewMeeting = typeof meetings.$inferInsert;
export type MeetingChanges = Partial<
  Omit<NewMeeting, 'id' | 'meetingId' | 'hostId' | 'createdAt' | 'icsSequence' | 'meetingType'>
>;

/** SQL of the meetings slice: meetings and their invitees. */
export function createMeetingsRepository(db: Database) {
  return {
    /** Inserts unless the public meeting id is taken; then answers undefined (the caller retries). */
    async insertIfIdFree(values: NewMeeting): Promise<MeetingRow | undefined> {
      const [row] = await db
        .insert(meetings)
        .values(values)
        .onConflictDoNothing({ target: meetings.meetingId })
        .returning();
      return row;
    },

    async findByMeetingId(meetingId: string): Promise<MeetingRow | undefined> {
      const [row] = await db.select().from(meetings).where(eq(meetings.meetingId, meetingId)).limit(1);
      return row;
    },

    async listByHost(hostId: string): Promise<MeetingRow[]> {
      return db
        .select()
        .from(meetings)
        .where(eq(meetings.hostId, hostId))
        .orderBy(asc(meetings.scheduledFor), desc(meetings.createdAt));
    },

    /** Applies the changes and raises the iCalendar SEQUENCE by one. */
    async update(id: string, changes: MeetingChanges): Promise<MeetingRow | undefined> {
      const [row] = await db
        .update(meetings)
        .set({ ...changes, icsSequence: sql`${meetings.icsSequence} + 1`, updatedAt: new Date() })
        .where(eq(meetings.id, id))
        .returning();
      return row;
    },

    /**
     * Saves an edit (raising the SEQUENCE) and, when `invitees` is given, makes them the meeting's
     * invitee list, all in one transaction: a failure leaves the meeting and its list as they were.
     * Answers undefined when the meeting is gone.
     */
    async updateWithInvitees(
      id: string,
      changes: MeetingChanges,
      invitees?: { email: string; name: string }[],
    ): Promise<
      | {
          row: MeetingRow;
          before: MeetingInviteeRow[];
          removed: MeetingInviteeRow[];
          current: MeetingInviteeRow[];
        }
      | undefined
    > {
      return db.transaction(async (tx) => {
        const inTx = createMeetingsRepository(tx);
        const before = await inTx.listInvitees(id);
        const row = await inTx.update(id, changes);
        if (!row) return undefined;
        let removed: MeetingInviteeRow[] = [];
        if (invitees) {
          removed = await inTx.removeInviteesExcept(
            id,
            invitees.map((i) => i.email),
          );
          await inTx.upsertInvitees(id, invitees);
        }
        return { row, before, removed, current: invitees ? await inTx.listInvitees(id) : before };
      });
    },

    async delete(id: string): Promise<void> {
      await db.delete(meetings).where(eq(meetings.id, id));
    },

    async listInvitees(meetingRowId: string): Promise<MeetingInviteeRow[]> {
      return db
        .select()
        .from(meetingInvitees)
        .where(eq(meetingInvitees.meetingId, meetingRowId))
        .orderBy(asc(meetingInvitees.createdAt), asc(meetingInvitees.email));
    },

    /** Adds invitees, or refreshes the name of one already invited. */
    async upsertInvitees(meetingRowId: string, invitees: { email: string; name: string }[]): Promise<void> {
      if (invitees.length === 0) return;
      await db
        .insert(meetingInvitees)
        .values(invitees.map((i) => ({ meetingId: meetingRowId, email: i.email, name: i.name })))
        .onConflictDoUpdate({
          target: [meetingInvitees.meetingId, meetingInvitees.email],
          set: { name: sql`excluded.name` },
        });
    },

    /** Removes every invitee whose email is not in `keep`; answers the removed rows. */
    async removeInviteesExcept(meetingRowId: string, keep: string[]): Promise<MeetingInviteeRow[]> {
      const where =
        keep.length > 0
          ? and(eq(meetingInvitees.meetingId, meetingRowId), notInArray(meetingInvitees.email, keep))
          : eq(meetingInvitees.meetingId, meetingRowId);
      return db.delete(meetingInvitees).where(where).returning();
    },

    /**
     * Counts `recipients` more invitation e-mails against the user's allowance of `day`, in one
     * statement (concurrent requests cannot both pass the limit). Answers false, counting
     * nothing, when they would take the day's total over `limit`.
     */
    async reserveRecipients(
      userId: string,
      day: string,
      recipients: number,
      limit: number,
    ): Promise<boolean> {
      if (recipients > limit) return false;
      const rows = await db
        .insert(mailQuota)
        .values({ userId, day, recipients })
        .onConflictDoUpdate({
          target: [mailQuota.userId, mailQuota.day],
          set: { recipients: sql`${mailQuota.recipients} + excluded.recipients` },
          setWhere: sql`${mailQuota.recipients} + excluded.recipients <= ${limit}`,
        })
        .returning({ recipients: mailQuota.recipients });
      return rows.length > 0;
    },
  };
}

export type MeetingsRepository = ReturnType<typeof createMeetingsRepository>;
