import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../http/errors.js';
import { requireUser } from '../auth/guards.js';
import type { SubscriptionService } from './service.js';

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
