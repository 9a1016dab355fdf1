import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { forbidden } from '../../http/errors.js';
import { requireUser } from '../auth/guards.js';
import { createSubscriptionsRepository } from './repository.js';
import { grantsPro } from './status.js';

/**
 * The one place that decides "is Pro": a subscription the provider reports active (or trialing)
 * whose paid period has not ended (the rule is grantsPro). Every Pro-only action asks this.
 */
export async function isPro(db: Database, userId: string, now: Date = new Date()): Promise<boolean> {
  return grantsPro(await createSubscriptionsRepository(db).findByUser(userId), now);
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
