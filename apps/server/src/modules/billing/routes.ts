import {
  billingStartBodySchema,
  billingStartResponseSchema,
  billingUsageSchema,
  freeTimeCoverBodySchema,
  freeTimeCoverSchema,
  saveMethodBodySchema,
  saveMethodResponseSchema,
  setupIntentBodySchema,
  setupIntentResponseSchema,
  safe,
} from '@parley/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { presentedJoinToken } from '../rooms/access.js';
import { browserKeyOf, ensureBrowserKey } from './browser-secret.js';
import type { BillingCaller } from './service.js';

export { BILLING_COOKIE } from './browser-secret.js';

const meetingParams = z.object({ meetingId: safe(z.string().min(1).max(64)) });

/**
 * The free tier's calls (spec §7): saving a card (setup intent, save method), starting overage
 * billing in a meeting, the caller's usage, and a Pro host's "cover everyone".
 */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.publicUrl.startsWith('https://');
  const callerOf = (request: FastifyRequest): BillingCaller => ({
    user: request.auth?.user ?? null,
    browserKey: browserKeyOf(request),
  });
  /** A guest without a browser secret gets one (the owner of the card it is about to save). */
  const ensureOwner = (request: FastifyRequest, reply: FastifyReply): BillingCaller => {
    const caller = callerOf(request);
    if (caller.user || caller.browserKey) return caller;
    return { user: null, browserKey: ensureBrowserKey(request, reply, secure) };
  };

  app.post(
    '/api/payment/setup-intent',
    { schema: { body: setupIntentBodySchema, response: { 200: setupIntentResponseSchema } } },
    async (request, reply) => {
      const { email, meetingId } = request.body;
      const joinToken = presentedJoinToken(request, meetingId);
      // No browser secret is handed out to a caller without a billing session.
      const caller = joinToken ? ensureOwner(request, reply) : callerOf(request);
      return app.billing.setupIntent(caller, email, meetingId, joinToken, request.ip);
    },
  );

  app.post(
    '/api/payment/save-method',
    { schema: { body: saveMethodBodySchema, response: { 200: saveMethodResponseSchema } } },
    async (request) =>
      app.billing.saveMethod(callerOf(request), request.body.email, request.body.paymentMethodId),
  );

  app.post(
    '/api/billing/start',
    { schema: { body: billingStartBodySchema, response: { 200: billingStartResponseSchema } } },
    async (request) => {
      const { meetingId } = request.body;
      return app.billing.start(callerOf(request), meetingId, presentedJoinToken(request, meetingId));
    },
  );

  app.get('/api/billing/usage', { schema: { response: { 200: billingUsageSchema } } }, async (request) =>
    app.billing.usage(callerOf(request)),
  );

  app.get(
    '/api/meetings/:meetingId/free-time-cover',
    {
      preValidation: signedInFirst,
      schema: { params: meetingParams, response: { 200: freeTimeCoverSchema } },
    },
    async (request) => app.billing.cover(requireUser(request), request.params.meetingId),
  );

  app.put(
    '/api/meetings/:meetingId/free-time-cover',
    {
      preValidation: signedInFirst,
      schema: {
        params: meetingParams,
        body: freeTimeCoverBodySchema,
        response: { 200: freeTimeCoverSchema },
      },
    },
    async (request) =>
      app.billing.cover(requireUser(request), request.params.meetingId, request.body.coverEveryone),
  );
};
