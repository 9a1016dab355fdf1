import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { recordingIdParamsSchema, recordingListSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { attachmentHeader } from '../files/service.js';

/**
 * Recordings for their meeting's host: the list (My Meetings) and the download, streamed from
 * disk as an attachment (404 unknown, 403 another host's meeting, 409 not ready yet).
 */
export const recordingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/recordings',
    { preValidation: signedInFirst, schema: { response: { 200: recordingListSchema } } },
    async (request) => app.recordings.listMine(requireUser(request)),
  );

  app.get(
    '/api/recordings/:id/download',
    { preValidation: signedInFirst, schema: { params: recordingIdParamsSchema } },
    async (request, reply) => {
      const { file, name } = await app.recordings.forDownload(requireUser(request), request.params.id);
      const size = await stat(file).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) throw notFound('The recording’s file is gone');
      return reply
        .header('content-type', 'video/mp4')
        .header('content-length', size)
        .header('content-disposition', attachmentHeader(name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(createReadStream(file));
    },
  );
};
