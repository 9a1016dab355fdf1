import { healthResponseSchema, readyResponseSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DbHandle } from '../../db/index.js';
import { sfuStatus } from '../../providers/media/index.js';

export const healthRoutes: FastifyPluginAsyncZod<{ db: DbHandle }> = async (app, { db }) => {
  // Liveness (no database), and whether this server has its SFU (one line says why not at start-up).
  app.get('/api/health', { schema: { response: { 200: healthResponseSchema } } }, async () => ({
    status: 'ok' as const,
    sfu: sfuStatus(app.media.provider),
  }));

  app.get(
    '/api/ready',
    { schema: { response: { 200: readyResponseSchema, 503: readyResponseSchema } } },
    async (request, reply) => {
      try {
        await db.ping();
        return { status: 'ready' as const, database: db.kind };
      } catch (err) {
        request.log.warn({ err }, 'database did not answer');
        return reply.status(503).send({ status: 'unavailable' as const, database: db.kind });
      }
    },
  );
};
