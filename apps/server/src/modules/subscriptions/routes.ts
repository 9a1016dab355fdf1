import {
  apiErrorSchema,
  confirmationResultSchema,
  paymentsConfigSchema,
  sandboxAuthenticateBodySchema,
  sandboxConfirmBodySchema,
  sandboxIntentResultSchema,
  subscriptionActionResponseSchema,
  subscriptionCreateResponseSchema,
  subscriptionEmailBodySchema,
  subscriptionStatusSchema,
  safe,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors.js';
import {
  SandboxCardError,
  WebhookSignatureError,
  type SandboxPayments,
} from '../../providers/payments/index.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import type { PaymentEventHandler } from './events.js';
import type { SubscriptionService } from './service.js';

const emailParams = z.object({ email: safe(z.string().min(1).max(320)) });
const sessionParams = z.object({ sessionId: safe(z.string().min(1).max(200)) });
const cardErrorSchema = z.object({
  message: z.string(),
  type: z.string().optional(),
  code: z.string().optional(),
  param: z.string().optional(),
  declineCode: z.string().optional(),
});

/** Pro subscription API (spec §7), the payment webhook and the sandbox's card API. */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { provider, sandbox } = app.payments;
  const service = app.subscriptions;
  const events = app.paymentEvents;

  app.get('/api/subscription/config', { schema: { response: { 200: paymentsConfigSchema } } }, async () => ({
    provider: provider.name,
    publishableKey: provider.publishableKey,
  }));

  app.get(
    '/api/subscription/status',
    { schema: { response: { 200: subscriptionStatusSchema } } },
    async (request) => service.status(requireUser(request)),
  );

  app.get(
    '/api/subscription/status/:email',
    {
      preValidation: signedInFirst,
      schema: { params: emailParams, response: { 200: subscriptionStatusSchema } },
    },
    async (request) => service.statusForEmail(requireUser(request), request.params.email),
  );

  app.post(
    '/api/subscription/create',
    {
      preValidation: signedInFirst,
      schema: { body: subscriptionEmailBodySchema, response: { 200: subscriptionCreateResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return service.create(user, request.body.email);
    },
  );

  // Cancel at period end, and undo it: the same action with the setting turned off or on.
  for (const [url, autoRenew] of [
    ['/api/subscription/cancel', false],
    ['/api/subscription/reactivate', true],
  ] as const) {
    app.post(
      url,
      {
        preValidation: signedInFirst,
        schema: { body: subscriptionEmailBodySchema, response: { 200: subscriptionActionResponseSchema } },
      },
      async (request) => service.setAutoRenew(requireUser(request), request.body.email, autoRenew),
    );
  }

  await app.register(confirmRoute, { service });
  await app.register(webhookRoute, { provider: { verify: provider.verifyWebhook.bind(provider) }, events });
  if (sandbox) await app.register(sandboxRoutes, { sandbox });
};

/**
 * POST /api/subscription/confirm/{sessionId}: the spec's client sends no body with a JSON content
 * type, so this route alone accepts an empty JSON body.
 */
const confirmRoute: FastifyPluginAsyncZod<{ service: SubscriptionService }> = async (app, { service }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body.trim() : '';
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('Malformed JSON in request body'), undefined);
    }
  });
  app.post(
    '/api/subscription/confirm/:sessionId',
    {
      preValidation: signedInFirst,
      schema: { params: sessionParams, response: { 200: confirmationResultSchema } },
    },
    async (request) => service.confirm(requireUser(request), request.params.sessionId),
  );
};

/** Stripe webhooks: the signature is checked over the raw body, so this route keeps the bytes. */
const webhookRoute: FastifyPluginAsyncZod<{
  provider: {
    verify: (raw: Buffer, header: string | undefined) => ReturnType<SandboxPayments['verifyWebhook']>;
  };
  events: PaymentEventHandler;
}> = async (app, { provider, events }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post(
    '/api/webhooks/stripe',
    {
      schema: {
        response: { 200: z.object({ received: z.literal(true), result: z.string() }), 400: apiErrorSchema },
      },
    },
    async (request) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw badRequest('Webhook body is empty');
      const header = request.headers['stripe-signature'];
      let event;
      try {
        event = provider.verify(raw, Array.isArray(header) ? header[0] : header);
      } catch (err) {
        if (err instanceof WebhookSignatureError || err instanceof SyntaxError) {
          request.log.warn({ err: err.message }, 'webhook refused');
          throw badRequest(`Webhook signature verification failed: ${err.message}`);
        }
        throw err;
      }
      if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw badRequest('Webhook payload is not an event');
      }
      const result = await events.apply(event);
      request.log.info({ event: event.id, type: event.type, result }, 'payment webhook');
      return { received: true as const, result };
    },
  );
};

/** The sandbox's card API, which its card form calls (only while the sandbox is the provider). */
async function sandboxRoutes(app: FastifyInstance, { sandbox }: { sandbox: SandboxPayments }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const replyCardError = (err: unknown) => {
    if (err instanceof SandboxCardError) {
      if (err.statusCode === 404) throw notFound(err.error.message);
      return err;
    }
    throw err;
  };

  typed.post(
    '/api/payment/sandbox/confirm',
    {
      schema: {
        body: sandboxConfirmBodySchema,
        response: { 200: sandboxIntentResultSchema, 400: cardErrorSchema, 402: cardErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        return await sandbox.confirmIntent(request.body);
      } catch (err) {
        const cardError = replyCardError(err);
        return reply.status(cardError.statusCode as 400 | 402).send({ ...cardError.error });
      }
    },
  );

  typed.post(
    '/api/payment/sandbox/authenticate',
    {
      schema: {
        body: sandboxAuthenticateBodySchema,
        response: { 200: sandboxIntentResultSchema, 400: cardErrorSchema, 402: cardErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        return await sandbox.authenticateIntent(request.body);
      } catch (err) {
        const cardError = replyCardError(err);
        return reply.status(cardError.statusCode as 400 | 402).send({ ...cardError.error });
      }
    },
  );
}
