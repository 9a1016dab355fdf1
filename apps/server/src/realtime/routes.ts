import websocket from '@fastify/websocket';
import { WS_LIMITS } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isCrossSite } from '../modules/auth/plugin.js';
import { handleConnection } from './connection.js';
import type { RealtimeServices } from './context.js';
import { iceServersFor } from './ice.js';

/**
 * The WebSocket at /ws (spec §7; docs/PROTOCOL.md). Frames over WS_LIMITS.maxMessageBytes close
 * the socket with 1009. A signed-in session sent with the upgrade is remembered (its end closes
 * the socket with 4010) only when the upgrade comes from this site.
 */
export const realtimeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(websocket, { options: { maxPayload: WS_LIMITS.maxMessageBytes } });
  const services: RealtimeServices = {
    hub: app.realtime.hub,
    chat: app.realtime.chat,
    iceServers: (participantId) => iceServersFor(app.config.ice, participantId),
    log: app.log,
  };
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
        app.realtime.settings,
      );
    },
  });
};
