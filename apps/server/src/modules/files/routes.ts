import multipart from '@fastify/multipart';
import { ROOM_FILE_LIMITS, roomFileSchema, sharedFileListSchema, safe } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { StorageNotFoundError } from '../../providers/storage/index.js';
import { presentedJoinToken } from '../rooms/access.js';
import { attachmentHeader } from './service.js';

/**
 * Files shared in a meeting: upload (multipart field `file`, a joined participant's join token as
 * `Authorization: Bearer`) and download (participants of that meeting only, always as an
 * attachment with the sniffed type and nosniff).
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: ROOM_FILE_LIMITS.maxBytes, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });

  app.post(
    '/api/meetings/:meetingId/files',
    {
      schema: {
        params: z.object({ meetingId: safe(z.string().max(64)) }),
        response: { 201: roomFileSchema },
      },
    },
    async (request, reply) => {
      const { meetingId } = request.params;
      const { files, rooms } = app;
      const token = presentedJoinToken(request, meetingId);
      const { room, member } = await rooms.participantOf(meetingId, token, 'share files');
      files.ensureSharing(room);
      if (!request.isMultipart()) {
        throw new HttpError(415, 'Send the file as multipart/form-data in the field "file"');
      }
      const part = await request.file();
      if (!part) throw badRequest('No file in the request');
      const file = await files.upload(room, member, {
        filename: part.filename,
        stream: part.file,
        declaredBytes: Number(request.headers['content-length'] ?? Number.NaN),
      });
      return reply.status(201).send(file);
    },
  );

  // The files area: everything shared in the meeting, for its admitted participants.
  app.get(
    '/api/meetings/:meetingId/files',
    {
      schema: {
        params: z.object({ meetingId: safe(z.string().max(64)) }),
        response: { 200: sharedFileListSchema },
      },
    },
    async (request) => {
      const { meetingId } = request.params;
      const token = presentedJoinToken(request, meetingId);
      const { room } = await app.rooms.participantOf(meetingId, token, 'see its files');
      return app.files.list(room);
    },
  );

  app.get(
    '/api/files/:id',
    { schema: { params: z.object({ id: safe(z.string().max(64)) }) } },
    async (request, reply) => {
      const { files, rooms } = app;
      const { file, publicMeetingId } = await files.findForDownload(request.params.id);
      const token = presentedJoinToken(request, publicMeetingId);
      await rooms.participantOf(publicMeetingId, token, 'download its files');
      let opened;
      try {
        opened = await files.open(file.storageKey);
      } catch (err) {
        if (err instanceof StorageNotFoundError) throw notFound('File not found');
        throw err;
      }
      return reply
        .header('content-type', file.mimeType)
        .header('content-length', opened.size)
        .header('content-disposition', attachmentHeader(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(opened.stream);
    },
  );
};
