import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ConnectionSettings } from './connection.js';
import { createSockets, type Sockets } from './sockets.js';

/** How long a socket closed for not reading gets to take its close frame before it is cut off. */
const SLOW_CONSUMER_CLOSE_WAIT_MS = 5000;

export interface Realtime {
  /** This instance's sockets, and the room transport (`sockets.transport`) over the bus. */
  sockets: Sockets;
  /** Socket timings and limits; tests may shorten them. */
  settings: ConnectionSettings;
}

/** The WebSocket transport (`app.realtime`): the sockets of this instance on the room bus. */
async function realtimePlugin(app: FastifyInstance): Promise<void> {
  const sockets = createSockets(app.bus, app.config.instanceId);
  app.decorate('realtime', {
    sockets,
    settings: {
      joinTimeoutMs: WS_LIMITS.joinTimeoutMs,
      messagesPerSecond: WS_LIMITS.messagesPerSecond,
      sendBufferSoftBytes: WS_LIMITS.sendBufferSoftBytes,
      sendBufferHardBytes: WS_LIMITS.sendBufferHardBytes,
      slowConsumerGraceMs: WS_LIMITS.slowConsumerGraceMs,
      slowConsumerCloseWaitMs: SLOW_CONSUMER_CLOSE_WAIT_MS,
      instanceId: app.config.instanceId,
    },
  } satisfies Realtime);
  // Draining (SIGTERM): Fastify already answers new requests (joins, socket upgrades) with 503;
  // every socket is told to reconnect (1001). Its participant stays in the room (no grace, no
  // news): the client resumes at once, through another instance when there are several.
  app.addHook('preClose', async () =>
    sockets.closeAll(WS_CLOSE.goingAway, 'Server is restarting: reconnect'),
  );
}

export default fp(realtimePlugin, { name: 'realtime', dependencies: ['bus'] });

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}
