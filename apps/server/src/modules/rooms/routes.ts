import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Room REST calls: join, participants (meeting-room issue). */
export const roomRoutes: FastifyPluginAsyncZod = async () => {};
