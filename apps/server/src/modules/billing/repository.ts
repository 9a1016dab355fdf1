import { and, count, desc, eq, gte, isNull, max, not, like, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import {
  billingAccounts,
  freeTimeClocks,
  meetingBilling,
  meetings,
  usageLedger,
  type BillingAccountRow,
} from '../../db/schema/index.js';

/** The free tier's tables (SQL only here): clocks, billing accounts, the usage ledger, covers. */
export function createBillingRepository(db: Database) {
  return {
    /** The clock of one person in one meeting (null: this person has not used any time yet). */
    async findClock(meetingId: string, clockKey: string) {
      const [row] = await db
        .select()
        .from(freeTimeClocks)
        .where(and(eq(freeTimeClocks.meetingId, meetingId), eq(freeTimeClocks.clockKey, clockKey)))
        .limit(1);
      return row ?? null;
    },

    /**
     * Writes the time used so far (a clock never runs backwards: the larger value wins). The
     * address is recorded when the row is first written (a guest clock's; null when signed in).
     */
    async saveClock(
      meetingId: string,
      clockKey: string,
      usedMs: number,
      clientAddress: string | null = null,
    ): Promise<void> {
      await db
        .insert(freeTimeClocks)
        .values({ meetingId, clockKey, usedMs: Math.round(usedMs), clientAddress })
        .onConflictDoUpdate({
          target: [freeTimeClocks.meetingId, freeTimeClocks.clockKey],
          set: {
            usedMs: sql`greatest(${freeTimeClocks.usedMs}, excluded.used_ms)`,
            updatedAt: new Date(),
          },
        });
    },

    /**
     * True when a guest clock opened from this address in this meeting used up its free time and
     * no card paid for more: the address's free time in the meeting has run out.
     */
    async addressRanOut(meetingId: string, clientAddress: string, freeMs: number): Promise<boolean> {
      const [row] = await db
        .select({ key: freeTimeClocks.clockKey })
        .from(freeTimeClocks)
        .where(
          and(
            eq(freeTimeClocks.meetingId, meetingId),
            eq(freeTimeClocks.clientAddress, clientAddress),
            not(like(freeTimeClocks.clockKey, 'user:%')),
            gte(freeTimeClocks.usedMs, freeMs),
            isNull(freeTimeClocks.overageAccountId),
          ),
        )
        .limit(1);
      return !!row;
    },

    async setOverageAccount(meetingId: string, clockKey: string, accountId: string): Promise<void> {
      await db
        .insert(freeTimeClocks)
        .values({ meetingId, clockKey, overageAccountId: accountId })
        .onConflictDoUpdate({
          target: [freeTimeClocks.meetingId, freeTimeClocks.clockKey],
          set: { overageAccountId: accountId, updatedAt: new Date() },
        });
    },

    /** Minutes already charged for this clock (the ledger's rows). */
    async chargedMinutes(meetingId: string, clockKey: string): Promise<number> {
      const [row] = await db
        .select({ n: max(usageLedger.minute) })
        .from(usageLedger)
        .where(and(eq(usageLedger.meetingId, meetingId), eq(usageLedger.clockKey, clockKey)));
      return row?.n ?? 0;
    },

    /**
     * Charges one minute in the ledger, once: answers the new row's id, or null when that minute
     * of that clock was charged already (by another tick, socket or server instance).
     */
    async chargeMinute(entry: {
      meetingId: string;
      publicMeetingId: string;
      clockKey: string;
      minute: number;
      accountId: string;
      amountCents: number;
    }): Promise<string | null> {
      const rows = await db
        .insert(usageLedger)
        .values(entry)
        .onConflictDoNothing()
        .returning({ id: usageLedger.id });
      return rows[0]?.id ?? null;
    },

    async markReported(ledgerId: string, providerItemId: string): Promise<void> {
      await db.update(usageLedger).set({ providerItemId }).where(eq(usageLedger.id, ledgerId));
    },

    /** A meeting's id and owner by its public id. */
    async findMeeting(publicId: string): Promise<{ id: string; hostId: string } | null> {
      const [row] = await db
        .select({ id: meetings.id, hostId: meetings.hostId })
        .from(meetings)
        .where(eq(meetings.meetingId, publicId))
        .limit(1);
      return row ?? null;
    },

    async coverEveryone(meetingId: string): Promise<boolean> {
      const [row] = await db
        .select({ cover: meetingBilling.coverEveryone })
        .from(meetingBilling)
        .where(eq(meetingBilling.meetingId, meetingId))
        .limit(1);
      // No row: the host never chose, and a Pro host's meeting covers its guests by default.
      return row?.cover ?? true;
    },

    async setCoverEveryone(meetingId: string, cover: boolean): Promise<void> {
      await db
        .insert(meetingBilling)
        .values({ meetingId, coverEveryone: cover })
        .onConflictDoUpdate({
          target: meetingBilling.meetingId,
          set: { coverEveryone: cover, updatedAt: new Date() },
        });
    },

    async accountByOwner(ownerKey: string): Promise<BillingAccountRow | null> {
      const [row] = await db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.ownerKey, ownerKey))
        .limit(1);
      return row ?? null;
    },

    async accountById(id: string): Promise<BillingAccountRow | null> {
      const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.id, id)).limit(1);
      return row ?? null;
    },

    /** The owner's account, created on first use; the e-mail is updated to the latest given. */
    async upsertAccount(input: { ownerKey: string; userId: string | null; email: string }) {
      const [row] = await db
        .insert(billingAccounts)
        .values(input)
        .onConflictDoUpdate({
          target: billingAccounts.ownerKey,
          set: { email: input.email, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },

    async updateAccount(
      id: string,
      values: Partial<
        Pick<
          BillingAccountRow,
          'customerId' | 'setupIntentId' | 'paymentMethodId' | 'cardBrand' | 'cardLast4'
        >
      >,
    ): Promise<void> {
      await db
        .update(billingAccounts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(billingAccounts.id, id));
    },

    /** What an account was charged, per meeting, newest first. */
    async usage(accountId: string) {
      return db
        .select({
          meetingId: usageLedger.publicMeetingId,
          minutes: count(usageLedger.id),
          amountCents: sum(usageLedger.amountCents).mapWith(Number),
          lastChargedAt: max(usageLedger.createdAt),
        })
        .from(usageLedger)
        .where(eq(usageLedger.accountId, accountId))
        .groupBy(usageLedger.publicMeetingId)
        .orderBy(desc(max(usageLedger.createdAt)));
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
