import type { ServerMessage } from '@parley/protocol';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** Who in a room receives a message. */
export type Audience =
  | { kind: 'all'; except?: string }
  | { kind: 'hosts' }
  | { kind: 'one'; participantId: string; echoRequestId?: string };

/** One room message on its way to the sockets of that room, wherever they are connected. */
export interface BusEnvelope {
  roomId: string;
  to: Audience;
  message: ServerMessage;
}

/**
 * Fan-out of room messages. The hub publishes every message that leaves a room through the bus
 * and delivers what the bus hands it to the sockets it holds. In-process by default; Redis
 * pub/sub when REDIS_URL is set, so that messages published by one server instance (or another
 * process, e.g. an AI worker) reach sockets held by every instance.
 */
export interface RoomBus {
  readonly kind: 'in-process' | 'redis';
  publish(envelope: BusEnvelope): void;
  /** The one consumer (the hub); called for every envelope, including this instance's own. */
  subscribe(handler: (envelope: BusEnvelope) => void): void;
  close(): Promise<void>;
}

export function createInProcessBus(): RoomBus {
  let handler: ((e: BusEnvelope) => void) | null = null;
  return {
    kind: 'in-process',
    publish(envelope) {
      handler?.(envelope);
    },
    subscribe(h) {
      handler = h;
    },
    async close() {
      handler = null;
    },
  };
}

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
