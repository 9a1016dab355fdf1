import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLiveCaptions, type LiveCaptions } from './live.js';
import { createAiRepository } from './repository.js';
import { createAiService, type AiService } from './service.js';

/**
 * The Pro plan's AI (`app.ai`): live captions for the room's sockets, and the service behind the
 * AI routes, over the engines of `app.aiEngines`.
 */
async function aiPlugin(app: FastifyInstance): Promise<void> {
  const repo = createAiRepository(app.db.db);
  const captions = createLiveCaptions({
    rooms: app.rooms,
    transport: app.realtime.sockets.transport,
    engines: app.aiEngines,
    repo,
    log: app.log,
  });
  const service = createAiService({ repo, engines: app.aiEngines, rooms: app.rooms, log: app.log });
  app.decorate('ai', { captions, service });
  // Before the engines close (onClose): the last words of open streams are still delivered.
  app.addHook('preClose', async () => captions.close());
}

export default fp(aiPlugin, { name: 'ai', dependencies: ['ai-engines', 'rooms', 'realtime'] });

declare module 'fastify' {
  interface FastifyInstance {
    ai: { captions: LiveCaptions; service: AiService };
  }
}
