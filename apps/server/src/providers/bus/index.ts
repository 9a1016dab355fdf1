import type { FastifyBaseLogger } from 'fastify';
import { createInProcessBus } from './in-process.js';
import { createRedisBus } from './redis.js';
import type { RoomBus } from './types.js';

export * from './types.js';
export { createInProcessBus } from './in-process.js';
export { createRedisBus, REDIS_CHANNEL_PREFIX } from './redis.js';
export { createRedisSharedState, LockTimeoutError } from './redis-state.js';

/** The configured room bus: Redis pub/sub when REDIS_URL is set, else in-process. */
export function createRoomBus(redisUrl: string | undefined, log: FastifyBaseLogger): Promise<RoomBus> {
  return redisUrl ? createRedisBus(redisUrl, log) : Promise.resolve(createInProcessBus());
}
