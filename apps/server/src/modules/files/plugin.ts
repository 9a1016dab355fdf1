import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createStorage } from '../../providers/storage/index.js';
import { createFilesRepository } from './repository.js';
import { createFilesService, type FilesService } from './service.js';

/** Files shared in meetings (`app.files`), stored by the storage provider. */
async function filesPlugin(app: FastifyInstance): Promise<void> {
  const files = createFilesService(createFilesRepository(app.db.db), createStorage(app.config), {
    log: app.log,
    quota: {
      meetingBytes: app.config.files.meetingQuotaBytes,
      hostBytes: app.config.files.hostQuotaBytes,
      instanceBytes: app.config.files.instanceQuotaBytes,
    },
    announce: (roomId, file) =>
      app.realtime.sockets.transport.publish(roomId, { kind: 'all' }, { type: 'file_shared', file }),
  });
  app.decorate('files', files);
}

export default fp(filesPlugin, { name: 'files', dependencies: ['realtime'] });

declare module 'fastify' {
  interface FastifyInstance {
    files: FilesService;
  }
}
