import { meetingIdParamsSchema, meetingNotesSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { createCollaborationRepository } from './repository.js';

/**
 * The meeting's shared notes after (or during) the meeting, for its owner (My Meetings). Anyone
 * else gets 404 as for a meeting that does not exist.
 */
export const collaborationRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = createCollaborationRepository(app.db.db);
  app.get(
    '/api/meetings/:meetingId/notes',
    {
      preValidation: signedInFirst,
      schema: { params: meetingIdParamsSchema, response: { 200: meetingNotesSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const meeting = await repo.findMeeting(request.params.meetingId);
      if (!meeting || meeting.hostId !== user.id) throw notFound('Meeting not found');
      return app.collaboration.notes(meeting.id);
    },
  );
};
