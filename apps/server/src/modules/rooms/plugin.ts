import { WS_LIMITS } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { iceServersFor } from '../../realtime/ice.js';
import { createJoinGate } from './gate.js';
import { createRoomsRepository } from './repository.js';
import { createRoomService, type RoomService } from './service.js';
import { createMemoryRoomStore } from './store.js';

/**
 * The meeting rooms (`app.rooms`): the RoomService over the in-memory room store, speaking to
 * the sockets through the realtime transport, with the chat history for `joined`. Meeting status
 * follows the room: the first participant in makes a scheduled meeting live; when the last one
 * has left (after the grace period) an instant meeting ends and a scheduled one is scheduled again.
 */
async function roomsPlugin(app: FastifyInstance): Promise<void> {
  const repo = createRoomsRepository(app.db.db);
  // Rooms live in this process only: a meeting still `live` from a previous run has no room.
  const finished = await repo.finishAllLive();
  if (finished > 0) app.log.info({ finished }, 'meetings left live by the previous run were finished');
  const rooms = createRoomService({
    store: createMemoryRoomStore(),
    transport: app.realtime.sockets.transport,
    gate: createJoinGate(repo, { testRoom: app.config.env !== 'production' }),
    repo,
    chatHistory: (room) => app.chat.history(room),
    iceServers: (participantId) => iceServersFor(app.config.ice, participantId),
    log: app.log,
    timings: { resumeGraceMs: WS_LIMITS.resumeGraceMs, joinTimeoutMs: WS_LIMITS.joinTimeoutMs },
  });
  app.decorate('rooms', rooms);
  app.addHook('preClose', async () => rooms.shutdown());
}

export default fp(roomsPlugin, { name: 'rooms', dependencies: ['realtime', 'chat'] });

declare module 'fastify' {
  interface FastifyInstance {
    rooms: RoomService;
  }
}
