import { WS_LIMITS } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRoomEvents } from './events.js';
import { createJoinGate } from './gate.js';
import { KNOCK_TIMEOUT_MS } from './presence.js';
import { createRoomsRepository } from './repository.js';
import { createRoomService, type RoomService } from './service.js';
import { startClusterPresence } from './cluster.js';
import { createRedisRoomStore } from './redis-store.js';
import { createMemoryRoomStore } from './store.js';

/**
 * How this instance tells instances sharing the database that its live meetings still have
 * rooms: a heartbeat on their rows every `everyMs`; a meeting whose heartbeat is older than
 * `staleMs` (three missed beats and some) lost its room (its instance crashed) and is finished.
 */
export const ROOM_HEARTBEAT = { everyMs: 30_000, staleMs: 120_000 };

/**
 * The meeting rooms (`app.rooms`): the RoomService over the in-memory room store, speaking to
 * the sockets through the realtime transport, with the chat history for `joined`. Features follow
 * the room through its events (`app.rooms.events`, events.ts), registered from their own plugins
 * after this one; the events come back from the bus to this instance's followers. Meeting status
 * follows the room: the first participant in makes a scheduled meeting live (held by this
 * instance); when the last one has left (after the grace period) an instant meeting ends and a
 * scheduled one is scheduled again. Rooms live in one instance's memory: live meetings whose
 * instance stopped beating are finished at start-up and on each heartbeat, this instance's own
 * when it shuts down; another running instance's meetings are left alone.
 */
async function roomsPlugin(app: FastifyInstance): Promise<void> {
  const repo = createRoomsRepository(app.db.db);
  const instance = app.config.instanceId;
  // With REDIS_URL the rooms live in Redis, shared by every instance; else in this one's memory.
  const shared = app.sharedState;
  const store = shared ? createRedisRoomStore(shared) : createMemoryRoomStore();
  const sweep = async () => {
    const finished = await repo.finishOrphaned({
      staleBefore: new Date(Date.now() - ROOM_HEARTBEAT.staleMs),
    });
    if (finished > 0) app.log.info({ finished }, 'live meetings whose server stopped were finished');
  };
  await sweep();
  const { sockets } = app.realtime;
  const events = createRoomEvents(app.log);
  sockets.onRoomEvent((event, local) => events.dispatch(event, local));
  const rooms = createRoomService({
    store,
    transport: sockets.transport,
    events,
    gate: createJoinGate(repo, {
      testRoom: app.config.env !== 'production',
      // Without an SFU, a full mesh: at most a few people (modules/media).
      meshCap: () => app.media.meshCap,
    }),
    repo,
    instance,
    chatHistory: (room) => app.chat.history(room),
    iceServers: (participantId) => app.media.iceServers(participantId),
    isPro: (userId) => app.subscriptions.isPro(userId),
    canTranscribe: () => app.aiEngines.stt !== null,
    log: app.log,
    timings: {
      resumeGraceMs: WS_LIMITS.resumeGraceMs,
      closedGraceMs: WS_LIMITS.closedGraceMs,
      joinTimeoutMs: WS_LIMITS.joinTimeoutMs,
      knockTimeoutMs: KNOCK_TIMEOUT_MS,
    },
    closeStaleSocket: shared
      ? (roomId, participantId, socketId) => app.realtime.sockets.closeStale(roomId, participantId, socketId)
      : undefined,
  });
  const cluster = shared
    ? startClusterPresence({
        shared,
        store,
        rooms,
        instance,
        ttlMs: app.config.presence.ttlMs,
        localRooms: () => app.realtime.sockets.rooms(),
        holds: (participantId, socketId) => app.realtime.sockets.holds(participantId, socketId),
        log: app.log,
      })
    : null;
  await cluster?.start();
  const beat = setInterval(() => {
    repo
      .heartbeat(instance)
      .then(() => (shared ? repo.holdLive(app.realtime.sockets.rooms(), instance) : undefined))
      .then(sweep)
      .catch((err: unknown) => app.log.error({ err }, 'room heartbeat failed'));
  }, ROOM_HEARTBEAT.everyMs);
  beat.unref();
  app.decorate('rooms', rooms);
  app.decorate('roomPresence', cluster);
  app.addHook('preClose', async () => {
    clearInterval(beat);
    cluster?.stop();
    await rooms.shutdown();
    // Shared rooms go on on the other instances (they hold the meetings from their next beat).
    if (shared) return;
    // This instance's rooms are gone: their meetings finish now, not after the heartbeat is stale.
    await repo
      .finishOrphaned({ instance })
      .catch((err: unknown) => app.log.error({ err }, 'could not finish this instance’s meetings'));
  });
}

export default fp(roomsPlugin, {
  name: 'rooms',
  dependencies: ['realtime', 'media', 'chat', 'ai-engines', 'subscriptions'],
});

declare module 'fastify' {
  interface FastifyInstance {
    rooms: RoomService;
    /** Presence across instances (REDIS_URL), else null. */
    roomPresence: ReturnType<typeof startClusterPresence> | null;
  }
}
