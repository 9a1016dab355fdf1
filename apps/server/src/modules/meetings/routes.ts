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
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, formatZodIssues } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { requirePro } from '../subscriptions/access.js';
import { createMeetingsRepository } from './repository.js';
import { createMeetingsService } from './service.js';

/** Meetings: create, schedule, edit, delete, list, invitations (spec §7). */
export const meetingRoutes: FastifyPluginAsyncZod = async (app) => {
  const meetings = createMeetingsService({
    repo: createMeetingsRepository(app.db.db),
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    log: app.log,
    // A deleted meeting's room ends now (sockets closed with 4005) and its stored files go.
    onDeleted: async (meetingId) => {
      await app.rooms.end(meetingId);
      await app.files.removeMeetingFiles(meetingId).catch((err: unknown) => {
        app.log.error({ err, meetingId }, 'could not remove the files of a deleted meeting');
      });
    },
  });

  // Who may call is decided before the body is read: 401/403 come before a 400.
  const signedIn = signedInFirst;
  const pro = async (request: FastifyRequest) => {
    await requirePro(app.db.db, request);
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
      schema: { params: meetingIdParamsSchema, response: { 200: meetingWithInviteesSchema } },
    },
    async (request) => meetings.getForHost(requireUser(request), request.params.meetingId),
  );

  app.put(
    '/api/meetings/:meetingId',
    {
      preValidation: pro,
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
      schema: { body: invitationsBodySchema, response: { 200: invitationsResultSchema } },
    },
    async (request) => meetings.invite(requireUser(request), request.body.meetingId, request.body.invitees),
  );
};
