import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { forbidden } from '../../http/errors.js';
import { requireUser } from '../auth/guards.js';
import { createSubscriptionsRepository } from './repository.js';
import type { SubscriptionService } from './service.js';
import { grantsPro } from './status.js';

/**
 * Whether a user has Pro, read straight from the database.
 *
 * @deprecated Ask `app.subscriptions.isPro(userId)`, the one Pro service. Only
 * modules/rooms/plugin.ts still calls this, until its rewrite lands; then this goes.
 */
export async function isPro(db: Database, userId: string, now: Date = new Date()): Promise<boolean> {
  return grantsPro(await createSubscriptionsRepository(db).findByUser(userId), now);
}

export const SUBSCRIPTION_REQUIRED_MESSAGE = 'An active Pro subscription is required';

/**
 * The signed-in Pro user, or 401 (not signed in) / 403 with requiresSubscription: true. Pro is
 * what `subscriptions.isPro` says (`app.subscriptions`).
 */
export async function requirePro(subscriptions: Pick<SubscriptionService, 'isPro'>, request: FastifyRequest) {
  const user = requireUser(request);
  if (!(await subscriptions.isPro(user.id))) {
    throw forbidden(SUBSCRIPTION_REQUIRED_MESSAGE, { requiresSubscription: true });
  }
  return user;
}
