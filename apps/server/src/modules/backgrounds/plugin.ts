import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createStorage } from '../../providers/storage/index.js';
import { assetsDirFor, createAssetStore } from './assets.js';
import { createBackgroundsRepository } from './repository.js';
import { createBackgroundsService, type BackgroundsService } from './service.js';

/** Background effects (`app.backgrounds`): catalogue, preferences, custom uploads, meeting effects. */
async function backgroundsPlugin(app: FastifyInstance): Promise<void> {
  app.decorate(
    'backgrounds',
    createBackgroundsService({
      repo: createBackgroundsRepository(app.db.db),
      storage: createStorage(app.config),
      assets: createAssetStore(assetsDirFor(app.config.migrationsDir)),
      isPro: (userId) => app.subscriptions.isPro(userId),
      log: app.log,
    }),
  );
}

export default fp(backgroundsPlugin, { name: 'backgrounds', dependencies: ['subscriptions'] });

declare module 'fastify' {
  interface FastifyInstance {
    backgrounds: BackgroundsService;
  }
}
