import websocket from '@fastify/websocket';
import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { isCrossSite } from '../modules/auth/plugin.js';
import { handleConnection } from './connection.js';
import type { RealtimeServices } from './context.js';

/**
 * An error on an open socket. What the client did (a frame over the size limit, invalid UTF-8, a
 * bad opcode or an unmasked frame: `ws`'s WS_ERR_* codes) is not a server error: it is logged at
 * info without a stack, and `ws` itself closes the socket with the matching code (1009, 1007,
 * 1002). Anything else (a fault of ours) is logged as an error and the socket is cut off.
 * (A TCP reset does not come here: `ws` closes the socket without an error event.)
 */
function onSocketError(this: unknown, error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code?.startsWith('WS_ERR_')) {
    request.log.info({ code, reason: error.message }, 'websocket closed: the client sent an invalid frame');
    return;
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT') {
    request.log.debug({ code }, 'websocket connection lost');
    socket.terminate();
    return;
  }
  request.log.error({ err: error }, 'websocket failed');
  socket.terminate();
}

/**
 * The WebSocket at /ws (spec §7; docs/protocol.md). Frames over WS_LIMITS.maxMessageBytes close
 * the socket with 1009. A signed-in session sent with the upgrade is remembered (its end closes
 * the socket with 4010) only when the upgrade comes from this site.
 */
export const realtimeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(websocket, {
    options: { maxPayload: WS_LIMITS.maxMessageBytes },
    errorHandler: onSocketError,
  });
  const { sockets, settings } = app.realtime;
  const services: RealtimeServices = {
    rooms: app.rooms,
    chat: app.chat,
    media: app.media,
    collaboration: app.collaboration,
    attendance: app.attendance,
    captions: app.ai.captions,
    recordings: app.recordings,
    sockets,
    log: app.log,
  };

  // A signed-in session ended (logout, expiry): its sockets close (4010) and their participants
  // leave, on every instance.
  const endSession = (idHash: string) => {
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
  };
  sockets.onSessionEndElsewhere(endSession);
  const stopListening = app.sessions.onSessionEnded((idHash) => {
    endSession(idHash);
    sockets.announceSessionEnd(idHash);
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
