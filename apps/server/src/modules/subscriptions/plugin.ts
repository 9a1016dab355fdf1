import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createUsersRepository } from '../users/repository.js';
import { createPaymentEventHandler, type PaymentEventHandler } from './events.js';
import { confirmationEmail } from './mail.js';
import { createSubscriptionsRepository } from './repository.js';
import { createSubscriptionService, type SubscriptionService } from './service.js';

/**
 * The Pro subscription (`app.subscriptions`) on the app's payments provider, and the one handler
 * of its events (`app.paymentEvents`): verified webhooks and the sandbox's events alike. A
 * subscription that turns active gets the confirmation e-mail.
 */
async function subscriptionsPlugin(app: FastifyInstance): Promise<void> {
  const { provider, sandbox } = app.payments;
  const users = createUsersRepository(app.db.db);
  const events = createPaymentEventHandler(app.db.db, provider, app.log, async (userId, sub) => {
    const user = await users.findById(userId);
    if (user) await app.mailer.send(confirmationEmail(user, sub, app.config.publicUrl));
  });
  sandbox?.setEventSink(async (event) => {
    const result = await events.apply(event);
    app.log.debug({ event: event.id, type: event.type, result }, 'sandbox payment event');
  });
  app.decorate(
    'subscriptions',
    createSubscriptionService({
      repo: createSubscriptionsRepository(app.db.db),
      provider,
      events,
      log: app.log,
    }),
  );
  app.decorate('paymentEvents', events);
}

export default fp(subscriptionsPlugin, { name: 'subscriptions', dependencies: ['payments', 'mail'] });

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: SubscriptionService;
    paymentEvents: PaymentEventHandler;
  }
}
