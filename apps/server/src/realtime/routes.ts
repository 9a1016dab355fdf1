import websocket from '@fastify/websocket';
import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isCrossSite } from '../modules/auth/plugin.js';
import { handleConnection } from './connection.js';
import type { RealtimeServices } from './context.js';

/**
 * The WebSocket at /ws (spec §7; docs/PROTOCOL.md). Frames over WS_LIMITS.maxMessageBytes close
 * the socket with 1009. A signed-in session sent with the upgrade is remembered (its end closes
 * the socket with 4010) only when the upgrade comes from this site.
 */
export const realtimeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(websocket, { options: { maxPayload: WS_LIMITS.maxMessageBytes } });
  const { sockets, settings } = app.realtime;
  const services: RealtimeServices = { rooms: app.rooms, chat: app.chat, sockets, log: app.log };

  // A signed-in session ended (logout, expiry): its sockets close (4010) and their participants leave.
  const stopListening = app.sessions.onSessionEnded((idHash) => {
    for (const conn of sockets.takeSession(idHash)) {
      const { roomId, participantId } = conn;
      if (!roomId || !participantId) {
        conn.close(WS_CLOSE.sessionEnded, 'Session ended');
        continue;
      }
      const farewell = { code: WS_CLOSE.sessionEnded, reason: 'Session ended' };
      app.rooms.leave({ roomId, participantId }, farewell).catch((err: unknown) => {
        app.log.warn({ err }, 'could not end the participant of an ended session');
        conn.close(farewell.code, farewell.reason);
      });
    }
  });
  app.addHook('preClose', async () => {
    stopListening();
  });

  app.route({
    method: 'GET',
    url: '/ws',
    // A plain HTTP request (no Upgrade header) gets a clear answer instead of an empty 404.
    handler: async (_request, reply) =>
      reply
        .status(426)
        .header('Upgrade', 'websocket')
        .send({ message: 'This endpoint speaks WebSocket: connect with an Upgrade: websocket request' }),
    wsHandler: (socket, request) => {
      const auth = request.auth && !isCrossSite(request) ? request.auth : null;
      handleConnection(
        socket,
        { query: request.query, idHash: auth?.idHash ?? null, userId: auth?.user.id ?? null },
        services,
        settings,
      );
    },
  });
};
