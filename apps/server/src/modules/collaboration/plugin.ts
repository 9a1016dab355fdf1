import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCollaborationRepository } from './repository.js';
import { createCollaborationService, type CollaborationService } from './service.js';

/**
 * The meetings' collaboration documents (`app.collaboration`): whiteboard and notes, one Yjs
 * document per meeting, kept while its room is open and saved as a compacted snapshot.
 */
async function collaborationPlugin(app: FastifyInstance): Promise<void> {
  const collaboration = createCollaborationService({
    repo: createCollaborationRepository(app.db.db),
    publish: (roomId, to, message) => app.realtime.sockets.transport.publish(roomId, to, message),
    roomOpen: async (roomId) => (await app.rooms.room(roomId)) != null,
    log: app.log,
    // Several instances: each keeps a copy of an open document, kept the same over the bus.
    cluster:
      app.bus.kind === 'redis'
        ? {
            instance: app.config.instanceId,
            tell: (roomId, note) => app.realtime.sockets.tellInstances(roomId, note),
          }
        : undefined,
  });
  if (app.bus.kind === 'redis') app.realtime.sockets.observe((envelope) => collaboration.heard(envelope));
  app.decorate('collaboration', collaboration);
  // After the sockets are closed (realtime's preClose), before the database goes (onClose).
  app.addHook('preClose', async () => collaboration.close());
}

export default fp(collaborationPlugin, { name: 'collaboration', dependencies: ['realtime', 'rooms'] });

declare module 'fastify' {
  interface FastifyInstance {
    collaboration: CollaborationService;
  }
}
