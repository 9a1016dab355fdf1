import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The WebSocket at /ws (meeting-room issue). */
export const realtimeRoutes: FastifyPluginAsyncZod = async () => {};
