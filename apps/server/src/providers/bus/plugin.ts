import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRedisSharedState, createRoomBus, type RoomBus, type SharedState } from './index.js';

/**
 * The app's room bus (`app.bus`): Redis pub/sub when REDIS_URL is set, else in-process; and with
 * Redis the state the instances share (`app.sharedState`, null without REDIS_URL).
 */
async function busPlugin(app: FastifyInstance): Promise<void> {
  const bus = await createRoomBus(app.config.redisUrl, app.log);
  const shared = app.config.redisUrl ? await createRedisSharedState(app.config.redisUrl, app.log) : null;
  app.decorate('bus', bus);
  app.decorate('sharedState', shared);
  app.addHook('onClose', async () => {
    await Promise.allSettled([bus.close(), shared?.close()]);
  });
}

export default fp(busPlugin, { name: 'bus' });

declare module 'fastify' {
  interface FastifyInstance {
    bus: RoomBus;
    sharedState: SharedState | null;
  }
}
