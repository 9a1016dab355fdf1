import multipart from '@fastify/multipart';
import {
  BACKGROUND_MESSAGES,
  CUSTOM_BACKGROUND_LIMITS,
  backgroundCatalogueSchema,
  backgroundPreferencesSchema,
  backgroundPreferencesUpdateSchema,
  customBackgroundListSchema,
  customBackgroundSchema,
  participantBackgroundResponseSchema,
  participantBackgroundSchema,
  safe,
} from '@parley/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, badRequest } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { presentedJoinToken } from '../rooms/access.js';
import { requirePro } from '../subscriptions/access.js';
import type { Variant } from './assets.js';

const pictureParams = z.object({ backgroundId: safe(z.string().max(64)) });
const customParams = z.object({ id: safe(z.string().max(64)) });
const meetingParams = z.object({
  meetingId: safe(z.string().max(64)),
  participantId: safe(z.string().max(64)),
});

/**
 * What a failed multipart read answers: @fastify/multipart's own errors carry a 4xx (413 for a
 * file past the limit); a malformed body (busboy: "Unexpected end of form") is the client's 400.
 */
function uploadError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 413) return new HttpError(413, BACKGROUND_MESSAGES.tooLarge);
  if (status && status >= 400 && status < 500) return new HttpError(status, (err as Error).message);
  return badRequest('The upload could not be read as multipart/form-data');
}

/** Catalogue pictures never change within a release; a day of caching is plenty. */
const PICTURE_CACHE = 'public, max-age=86400';

/**
 * Background effects (spec §7): the catalogue and its pictures, a signed-in user's preferences,
 * Pro users' own uploads, and the effect a participant applies inside a meeting.
 */
export const backgroundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/backgrounds', { schema: { response: { 200: backgroundCatalogueSchema } } }, async () =>
    app.backgrounds.catalogue(),
  );

  const sendPicture = (variant: Variant) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { backgroundId } = request.params as { backgroundId: string };
    const bytes = await app.backgrounds.picture(backgroundId, variant, request.auth?.user.id ?? null);
    // A premium picture is fetched with the user's session: no shared cache may keep it.
    const cache = variant === 'image' ? 'private, max-age=86400' : PICTURE_CACHE;
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', cache)
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  };
  app.get(
    '/api/backgrounds/:backgroundId/image',
    { schema: { params: pictureParams } },
    sendPicture('image'),
  );
  app.get(
    '/api/backgrounds/:backgroundId/thumbnail',
    { schema: { params: pictureParams } },
    sendPicture('thumbnail'),
  );

  app.get(
    '/api/backgrounds/preferences',
    { preValidation: signedInFirst, schema: { response: { 200: backgroundPreferencesSchema } } },
    async (request) => app.backgrounds.preferences(requireUser(request).id),
  );

  app.put(
    '/api/backgrounds/preferences',
    {
      preValidation: signedInFirst,
      schema: { body: backgroundPreferencesUpdateSchema, response: { 200: backgroundPreferencesSchema } },
    },
    async (request) => app.backgrounds.savePreferences(requireUser(request).id, request.body),
  );

  app.get(
    '/api/backgrounds/custom',
    { preValidation: signedInFirst, schema: { response: { 200: customBackgroundListSchema } } },
    async (request) => app.backgrounds.listCustom(requireUser(request).id),
  );

  app.get(
    '/api/backgrounds/custom/:id',
    { preValidation: signedInFirst, schema: { params: customParams } },
    async (request, reply) => {
      const opened = await app.backgrounds.openCustom(requireUser(request).id, request.params.id);
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', opened.size)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(opened.stream);
    },
  );

  app.delete(
    '/api/backgrounds/custom/:id',
    { preValidation: signedInFirst, schema: { params: customParams } },
    async (request, reply) => {
      await app.backgrounds.deleteCustom(requireUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  // Uploads in a context of their own: only this route parses multipart bodies.
  await app.register(async (upload) => {
    await upload.register(multipart, {
      limits: { fileSize: CUSTOM_BACKGROUND_LIMITS.maxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    upload.post(
      '/api/backgrounds/custom',
      { preValidation: signedInFirst, schema: { response: { 201: customBackgroundSchema } } },
      async (request, reply) => {
        const user = await requirePro(app.subscriptions, request);
        if (!request.isMultipart()) {
          throw new HttpError(415, 'Send the image as multipart/form-data in the field "file"');
        }
        let bytes: Buffer;
        let truncated: boolean;
        try {
          const part = await request.file();
          if (!part) throw badRequest('No file in the request');
          bytes = await part.toBuffer();
          truncated = part.file.truncated;
        } catch (err) {
          throw uploadError(err);
        }
        if (truncated) throw new HttpError(413, BACKGROUND_MESSAGES.tooLarge);
        return reply.status(201).send(await app.backgrounds.uploadCustom(user.id, bytes));
      },
    );
  });

  app.post(
    '/api/meetings/:meetingId/participants/:participantId/background',
    {
      schema: {
        params: meetingParams,
        body: participantBackgroundSchema,
        response: { 200: participantBackgroundResponseSchema },
      },
      // Spec §5: both ids are needed before anything else is looked at.
      preValidation: async (request) => {
        const { meetingId = '', participantId = '' } = request.params as Record<string, string | undefined>;
        if (!meetingId.trim() || !participantId.trim()) throw badRequest(BACKGROUND_MESSAGES.idsRequired);
      },
    },
    async (request) => {
      const { meetingId, participantId } = request.params;
      const token = presentedJoinToken(request, meetingId);
      const { room, member } = await app.rooms.participantOf(meetingId, token, 'change your background');
      return app.backgrounds.applyInMeeting(room, member, participantId, request.body);
    },
  );
};
