import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type MailMessage, type Mailer } from '../../providers/mail/index.js';
import {
  createMailFailuresRepository,
  createOutboxRepository,
  type MailFailuresRepository,
} from './repository.js';

/**
 * The queue that sends mail; a send is retried with back-off (MAIL_RETRIES times, by default 4:
 * after about 10 s, 20 s, 40 s and 80 s), then recorded as failed.
 */
export const MAIL_QUEUE = 'mail';

/**
 * The app's mail. `app.mailer` puts each message on the job queue and answers at once; the queue's
 * worker hands it to `app.mailTransport` (SMTP when SMTP_URL is set, otherwise the outbox table).
 * A message whose every attempt failed is recorded (`app.mailFailures`) for its meeting's host.
 */
async function mailPlugin(app: FastifyInstance): Promise<void> {
  const outbox = createOutboxRepository(app.db.db);
  const failures = createMailFailuresRepository(app.db.db);
  app.decorate(
    'mailTransport',
    createMailer(app.config.mail, (entry) => outbox.insert(entry)),
  );
  app.decorate('mailFailures', failures);

  app.jobs.define<MailMessage>(
    MAIL_QUEUE,
    {
      retryLimit: app.config.jobs.mailRetries,
      retryDelay: app.config.jobs.retryDelaySeconds,
      concurrency: 10,
    },
    async (message, { lastAttempt }) => {
      try {
        await app.mailTransport.send(message);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        if (lastAttempt) {
          app.log.error({ err, meetingId: message.meetingId }, 'mail not sent after every retry');
          await failures.record({
            meetingId: message.meetingId ?? null,
            recipient: message.to.email,
            subject: message.subject,
            error: error.slice(0, 500),
          });
        } else {
          app.log.warn({ err, meetingId: message.meetingId }, 'mail not sent; it will be retried');
        }
        throw err;
      }
      // A later invitation that went out replaces an earlier failure to the same person. Outside
      // the send's try: a database error here must not fail the job and send the mail again.
      if (message.meetingId) {
        await failures
          .clear(message.meetingId, message.to.email)
          .catch((err: unknown) => app.log.warn({ err }, 'could not clear an earlier mail failure'));
      }
    },
  );

  const mailer: Mailer = {
    kind: 'queue',
    send: (message) => app.jobs.enqueue(MAIL_QUEUE, [message]),
    sendMany: (messages) => app.jobs.enqueue(MAIL_QUEUE, messages),
    close: () => app.mailTransport.close(),
  };
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
}

export default fp(mailPlugin, { name: 'mail', dependencies: ['jobs'] });

declare module 'fastify' {
  interface FastifyInstance {
    /** Puts mail on the job queue. */
    mailer: Mailer;
    /** Sends one message now (the queue's worker uses it; tests replace it before ready). */
    mailTransport: Mailer;
    mailFailures: MailFailuresRepository;
  }
}
