import {
  joinRequestSchema,
  joinResponseSchema,
  participantRegistrationResponseSchema,
  participantRegistrationSchema,
  roomParticipantListSchema,
  safe,
} from '@parley/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ensureBrowserKey } from '../billing/browser-secret.js';
import { presentedJoinToken, roomCookieName } from './access.js';
import type { Caller } from './gate.js';
import type { JoinResult } from './service.js';

const params = z.object({ meetingId: safe(z.string().max(64)) });

/**
 * Room REST calls (spec §7): join, participant registration, participant list. The join token is
 * answered in the body (for the WebSocket and `Authorization: Bearer`) and also set as an
 * httpOnly cookie on /api, so image previews and downloads in the page work without headers.
 */
export const roomRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.publicUrl.startsWith('https://');
  const caller = (request: FastifyRequest): Caller => ({ auth: request.auth, clientKey: request.ip });
  /** A joining guest gets a browser secret if it has none: its clock and card are that browser's. */
  const joiner = (request: FastifyRequest, reply: FastifyReply): Caller => ({
    ...caller(request),
    browserKey: request.auth ? null : ensureBrowserKey(request, reply, secure),
  });
  const setRoomCookie = (reply: FastifyReply, meetingId: string, token: string) =>
    reply.setCookie(roomCookieName(meetingId), token, {
      path: '/api',
      httpOnly: true,
      sameSite: 'strict',
      secure,
    });

  /** JoinResponse.mediaMode: for an admitted participant, on a server with an SFU. */
  const mediaHint = async (joined: JoinResult): Promise<{ mediaMode?: 'p2p' | 'sfu' }> =>
    joined.admission === 'admitted' && app.media.hasSfu
      ? { mediaMode: await app.media.expectedMode(joined.roomId, joined.id) }
      : {};

  app.post(
    '/api/meetings/:meetingId/join',
    { schema: { params, body: joinRequestSchema, response: { 200: joinResponseSchema } } },
    async (request, reply) => {
      const { meetingId } = request.params;
      const joined = await app.rooms.join(meetingId, request.body, joiner(request, reply));
      setRoomCookie(reply, meetingId, joined.joinToken);
      return {
        id: joined.id,
        joinToken: joined.joinToken,
        isHost: joined.isHost,
        admission: joined.admission,
        ...(await mediaHint(joined)),
      };
    },
  );

  app.post(
    '/api/meetings/:meetingId/participants',
    {
      schema: {
        params,
        body: participantRegistrationSchema,
        response: { 201: participantRegistrationResponseSchema },
      },
    },
    async (request, reply) => {
      const { meetingId } = request.params;
      const joined = await app.rooms.join(
        meetingId,
        { ...request.body, isHost: false },
        joiner(request, reply),
      );
      setRoomCookie(reply, meetingId, joined.joinToken);
      return reply.status(201).send({
        id: joined.id,
        name: joined.name,
        joinToken: joined.joinToken,
        isHost: joined.isHost,
        admission: joined.admission,
        ...(await mediaHint(joined)),
      });
    },
  );

  app.get(
    '/api/meetings/:meetingId/participants',
    { schema: { params, response: { 200: roomParticipantListSchema } } },
    async (request) => {
      const { meetingId } = request.params;
      return app.rooms.list(meetingId, caller(request), presentedJoinToken(request, meetingId));
    },
  );
};
