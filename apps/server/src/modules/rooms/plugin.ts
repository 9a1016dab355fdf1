import { randomUUID } from 'node:crypto';
import { WS_LIMITS } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { iceServersFor } from '../../realtime/ice.js';
import { observeRoomForFreeTime } from '../billing/room-observer.js';
import { observeRoomForAttendance } from '../report/room-observer.js';
import { isPro } from '../subscriptions/access.js';
import { createJoinGate } from './gate.js';
import { KNOCK_TIMEOUT_MS } from './presence.js';
import { createRoomsRepository } from './repository.js';
import { createRoomService, type RoomService } from './service.js';
import { createMemoryRoomStore } from './store.js';

/**
 * How this instance tells instances sharing the database that its live meetings still have
 * rooms: a heartbeat on their rows every `everyMs`; a meeting whose heartbeat is older than
 * `staleMs` (three missed beats and some) lost its room (its instance crashed) and is finished.
 */
export const ROOM_HEARTBEAT = { everyMs: 30_000, staleMs: 120_000 };

/**
 * The meeting rooms (`app.rooms`): the RoomService over the in-memory room store, speaking to
 * the sockets through the realtime transport, with the chat history for `joined`. Meeting status
 * follows the room: the first participant in makes a scheduled meeting live (held by this
 * instance); when the last one has left (after the grace period) an instant meeting ends and a
 * scheduled one is scheduled again. Rooms live in one instance's memory: live meetings whose
 * instance stopped beating are finished at start-up and on each heartbeat, this instance's own
 * when it shuts down; another running instance's meetings are left alone.
 */
async function roomsPlugin(app: FastifyInstance): Promise<void> {
  const repo = createRoomsRepository(app.db.db);
  const instance = randomUUID();
  const sweep = async () => {
    const finished = await repo.finishOrphaned({
      staleBefore: new Date(Date.now() - ROOM_HEARTBEAT.staleMs),
    });
    if (finished > 0) app.log.info({ finished }, 'live meetings whose server stopped were finished');
  };
  await sweep();
  const rooms = createRoomService({
    store: createMemoryRoomStore(),
    // The free-time clock (modules/billing) and attendance (modules/report) follow the room's
    // presence news.
    transport: observeRoomForAttendance(
      app.hasDecorator('freeTime')
        ? observeRoomForFreeTime(app.realtime.sockets.transport, app.freeTime)
        : app.realtime.sockets.transport,
      app.attendance,
    ),
    gate: createJoinGate(repo, { testRoom: app.config.env !== 'production' }),
    repo,
    instance,
    chatHistory: (room) => app.chat.history(room),
    // The AI plugin registers after the rooms (it needs them); it is there by the first join.
    transcriptHistory: async (room) => (app.hasDecorator('ai') ? app.ai.recentTranscripts(room) : []),
    iceServers: (participantId) => iceServersFor(app.config.ice, participantId),
    isPro: (userId) => isPro(app.db.db, userId),
    canTranscribe: () => app.aiEngines.stt !== null,
    log: app.log,
    timings: {
      resumeGraceMs: WS_LIMITS.resumeGraceMs,
      joinTimeoutMs: WS_LIMITS.joinTimeoutMs,
      knockTimeoutMs: KNOCK_TIMEOUT_MS,
    },
  });
  const beat = setInterval(() => {
    repo
      .heartbeat(instance)
      .then(sweep)
      .catch((err: unknown) => app.log.error({ err }, 'room heartbeat failed'));
  }, ROOM_HEARTBEAT.everyMs);
  beat.unref();
  app.decorate('rooms', rooms);
  app.addHook('preClose', async () => {
    clearInterval(beat);
    await rooms.shutdown();
    // This instance's rooms are gone: their meetings finish now, not after the heartbeat is stale.
    await repo
      .finishOrphaned({ instance })
      .catch((err: unknown) => app.log.error({ err }, 'could not finish this instance’s meetings'));
  });
}

export default fp(roomsPlugin, { name: 'rooms', dependencies: ['realtime', 'chat', 'ai-engines', 'report'] });

declare module 'fastify' {
  interface FastifyInstance {
    rooms: RoomService;
  }
}
