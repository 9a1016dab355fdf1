import {
  createMeetingBodySchema,
  invitationsBodySchema,
  invitationsResultSchema,
  meetingIdParamsSchema,
  meetingSchema,
  meetingWithInviteesSchema,
  scheduledMeetingBodySchema,
  updateMeetingBodySchema,
} from '@parley/protocol';
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, formatZodIssues, HttpError } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { requirePro } from '../subscriptions/access.js';

/**
 * Requests one signed-in user may make per minute to the routes that take a meeting id (read,
 * edit, delete, invite). Opening and saving the edit dialog takes two; 1,500 probes for a real
 * id take 13 minutes instead of 9 seconds, among a billion possible ids.
 */
export const MEETING_ID_ROUTE_LIMIT = { max: 100, timeWindowMs: 60_000 };

export const tooManyMeetingRequestsMessage = (retryAfterS: number) =>
  `Too many meeting requests. Please wait ${retryAfterS} seconds and try again.`;

export interface MeetingRoutesOptions {
  /** Tests may change the limit of the id-taking routes. */
  idRouteLimit?: { max: number; timeWindowMs: number };
}

/** Meetings: create, schedule, edit, delete, list, invitations (spec §7). */
export const meetingRoutes: FastifyPluginAsyncZod<MeetingRoutesOptions> = async (app, options) => {
  const { meetings } = app;

  // Who may call is decided before the body is read: 401/403 come before a 400.
  const signedIn = signedInFirst;
  const pro = async (request: FastifyRequest) => {
    await requirePro(app.subscriptions, request);
  };

  // One budget per signed-in user over every route that names a meeting id, so answers cannot
  // be used to search the id space. It runs after the sign-in check (anonymous callers get 401)
  // and after the input is validated; the budget is this process's (an in-memory counter).
  await app.register(rateLimit, { global: false });
  const limit = options.idRouteLimit ?? MEETING_ID_ROUTE_LIMIT;
  const idRouteBudget = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `user:${request.auth?.user.id ?? request.ip}`,
  });
  const limited = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await idRouteBudget(request);
    if (!result.isAllowed && result.isExceeded) {
      void reply.header('retry-after', result.ttlInSeconds);
      throw new HttpError(429, tooManyMeetingRequestsMessage(result.ttlInSeconds), {
        retryAfter: result.ttlInSeconds,
      });
    }
  };

  app.post(
    '/api/meetings',
    {
      preValidation: pro,
      schema: { body: createMeetingBodySchema, response: { 201: meetingSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      if (body.meetingType === 'instant') {
        return reply.status(201).send(await meetings.createInstant(user, body));
      }
      // The union accepted the fields; the cross-field rules (recurrence) are checked here.
      const parsed = scheduledMeetingBodySchema.safeParse(body);
      if (!parsed.success) throw badRequest(formatZodIssues(parsed.error.issues));
      return reply.status(201).send(await meetings.createScheduled(user, parsed.data));
    },
  );

  app.get(
    '/api/meetings/scheduled',
    { preValidation: signedIn, schema: { response: { 200: z.array(meetingSchema) } } },
    async (request) => meetings.listMine(requireUser(request)),
  );

  app.get(
    '/api/meetings/:meetingId',
    {
      preValidation: signedIn,
      preHandler: limited,
      schema: { params: meetingIdParamsSchema, response: { 200: meetingWithInviteesSchema } },
    },
    async (request) => meetings.getForHost(requireUser(request), request.params.meetingId),
  );

  app.put(
    '/api/meetings/:meetingId',
    {
      preValidation: pro,
      preHandler: limited,
      schema: {
        params: meetingIdParamsSchema,
        body: updateMeetingBodySchema,
        response: { 200: meetingSchema.extend({ invitations: invitationsResultSchema }) },
      },
    },
    async (request) => meetings.update(requireUser(request), request.params.meetingId, request.body),
  );

  app.delete(
    '/api/meetings/:meetingId',
    {
      preValidation: signedIn,
      preHandler: limited,
      schema: {
        params: meetingIdParamsSchema,
        response: { 200: z.object({ message: z.string(), invitations: invitationsResultSchema }) },
      },
    },
    async (request) => {
      const invitations = await meetings.remove(requireUser(request), request.params.meetingId);
      return { message: 'Meeting deleted', invitations };
    },
  );

  app.post(
    '/api/meetings/invitations',
    {
      preValidation: pro,
      preHandler: limited,
      schema: { body: invitationsBodySchema, response: { 200: invitationsResultSchema } },
    },
    async (request) => meetings.invite(requireUser(request), request.body.meetingId, request.body.invitees),
  );
};
