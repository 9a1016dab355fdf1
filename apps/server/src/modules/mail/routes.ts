import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Development outbox at /dev/outbox (meetings issue). */
export const mailRoutes: FastifyPluginAsyncZod = async () => {};
