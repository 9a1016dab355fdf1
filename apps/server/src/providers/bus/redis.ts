import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { BusEnvelope, RoomBus } from './types.js';

export const REDIS_CHANNEL_PREFIX = 'parley:room:';

/**
 * Redis pub/sub: one channel per room (`parley:room:<meeting uuid>`), one pattern subscription
 * per instance. Messages are delivered in publish order per channel.
 */
export async function createRedisBus(url: string, log: FastifyBaseLogger): Promise<RoomBus> {
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  pub.on('error', (err) => log.warn({ err }, 'redis bus (publish) error'));
  sub.on('error', (err) => log.warn({ err }, 'redis bus (subscribe) error'));
  await Promise.all([pub.connect(), sub.connect()]);
  let handler: ((e: BusEnvelope) => void) | null = null;
  sub.on('pmessage', (_pattern: string, _channel: string, text: string) => {
    try {
      handler?.(JSON.parse(text) as BusEnvelope);
    } catch (err) {
      log.warn({ err }, 'redis bus: undeliverable message dropped');
    }
  });
  await sub.psubscribe(`${REDIS_CHANNEL_PREFIX}*`);
  return {
    kind: 'redis',
    publish(envelope) {
      pub
        .publish(`${REDIS_CHANNEL_PREFIX}${envelope.roomId}`, JSON.stringify(envelope))
        .catch((err: unknown) => {
          log.warn({ err }, 'redis bus: publish failed');
        });
    },
    subscribe(h) {
      handler = h;
    },
    async close() {
      handler = null;
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
