import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRoomBus, type RoomBus } from './index.js';

/** The app's room bus (`app.bus`): Redis pub/sub when REDIS_URL is set, else in-process. */
async function busPlugin(app: FastifyInstance): Promise<void> {
  const bus = await createRoomBus(app.config.redisUrl, app.log);
  app.decorate('bus', bus);
  app.addHook('onClose', async () => bus.close());
}

export default fp(busPlugin, { name: 'bus' });

declare module 'fastify' {
  interface FastifyInstance {
    bus: RoomBus;
  }
}
