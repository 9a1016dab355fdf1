import { and, eq, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { paymentEvents, subscriptions, type SubscriptionRow } from '../../db/schema/index.js';

export interface SubscriptionValues {
  customerId: string;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  amountCents: number;
  currency: string;
  /** When the provider object applied here was read (out-of-order guard). */
  providerUpdatedAt: Date;
}

/** Subscription rows and applied provider events (SQL only here). */
export function createSubscriptionsRepository(db: Database) {
  return {
    async findByUser(userId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
      return row;
    },

    async findByProviderSubscription(
      provider: string,
      subscriptionId: string,
    ): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.provider, provider), eq(subscriptions.subscriptionId, subscriptionId)))
        .limit(1);
      return row;
    },

    /**
     * Applies a provider read unless a read made later was applied already. The row is locked for
     * the change, so concurrent reads of the same subscription apply one after the other and each
     * learns the status it replaced (null: not applied).
     */
    async updateUnlessNewer(
      id: string,
      values: SubscriptionValues,
    ): Promise<{ previousStatus: string } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ status: subscriptions.status, providerUpdatedAt: subscriptions.providerUpdatedAt })
          .from(subscriptions)
          .where(eq(subscriptions.id, id))
          .for('update');
        if (!old || (old.providerUpdatedAt && old.providerUpdatedAt > values.providerUpdatedAt)) return null;
        await tx
          .update(subscriptions)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(subscriptions.id, id));
        return { previousStatus: old.status };
      });
    },

    /**
     * The user's one subscription row now points at this provider subscription, unless it points at
     * it already (then nothing is written and the answer is false: apply the read with
     * updateUnlessNewer, which knows the status it replaces).
     */
    async upsertForUser(
      userId: string,
      provider: string,
      subscriptionId: string,
      values: SubscriptionValues,
    ): Promise<boolean> {
      const upsert = () =>
        db
          .insert(subscriptions)
          .values({ userId, provider, subscriptionId, ...values })
          .onConflictDoUpdate({
            target: subscriptions.userId,
            set: { provider, subscriptionId, ...values, updatedAt: new Date() },
            setWhere: or(
              ne(subscriptions.provider, provider),
              ne(subscriptions.subscriptionId, subscriptionId),
            ),
          })
          .returning({ id: subscriptions.id });
      let rows;
      try {
        rows = await upsert();
      } catch (err) {
        // Two deliveries of a subscription nobody has a row for yet insert at once: PostgreSQL
        // arbitrates ON CONFLICT on the user's index only, so the loser can hit the provider
        // subscription's unique index instead (23505). Once the winner has committed, the same
        // upsert takes the user's conflict path.
        if (!isUniqueViolation(err)) throw err;
        rows = await upsert();
      }
      return rows.length > 0;
    },

    async hasEvent(id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: paymentEvents.id })
        .from(paymentEvents)
        .where(eq(paymentEvents.id, id))
        .limit(1);
      return !!row;
    },

    /** Records an applied event; false when it was recorded already. */
    async recordEvent(id: string, provider: string, type: string): Promise<boolean> {
      const rows = await db
        .insert(paymentEvents)
        .values({ id, provider, type })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      return rows.length > 0;
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

/** Whether a failed query was a unique-constraint violation (PostgreSQL 23505; Drizzle wraps it). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
}
