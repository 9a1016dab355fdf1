import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../providers/mail/index.js';
import { createOutboxRepository } from './repository.js';

/** The app's one mailer (`app.mailer`): SMTP when SMTP_URL is set, otherwise the outbox table. */
async function mailPlugin(app: FastifyInstance): Promise<void> {
  const outbox = createOutboxRepository(app.db.db);
  const mailer = createMailer(app.config.mail, (entry) => outbox.insert(entry));
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
}

export default fp(mailPlugin, { name: 'mail' });

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}
