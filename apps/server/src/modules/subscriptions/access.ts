import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { subscriptions } from '../../db/schema/index.js';
import { forbidden } from '../../http/errors.js';
import { requireUser } from '../auth/guards.js';

const PRO_STATUSES = new Set(['active', 'trialing']);

/**
 * The one place that decides "is Pro": a subscription the provider reports active (or trialing)
 * whose paid period has not ended. Every Pro-only action asks this.
 */
export async function isPro(db: Database, userId: string, now: Date = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ status: subscriptions.status, currentPeriodEnd: subscriptions.currentPeriodEnd })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  return grantsPro(row, now);
}

/** The rule itself, for a subscription row already read (the status API reports it as isActive). */
export function grantsPro(
  row: { status: string; currentPeriodEnd: Date | null } | undefined,
  now: Date = new Date(),
): boolean {
  if (!row || !PRO_STATUSES.has(row.status)) return false;
  return !row.currentPeriodEnd || row.currentPeriodEnd > now;
}

export const SUBSCRIPTION_REQUIRED_MESSAGE = 'An active Pro subscription is required';

/** The signed-in Pro user, or 401 (not signed in) / 403 with requiresSubscription: true. */
export async function requirePro(db: Database, request: FastifyRequest) {
  const user = requireUser(request);
  if (!(await isPro(db, user.id))) {
    throw forbidden(SUBSCRIPTION_REQUIRED_MESSAGE, { requiresSubscription: true });
  }
  return user;
}
