import { WS_LIMITS } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createChatRepository } from '../modules/chat/repository.js';
import { createChatService, type ChatService } from '../modules/chat/service.js';
import { createFilesRepository } from '../modules/files/repository.js';
import { createFilesService, type FilesService } from '../modules/files/service.js';
import { createRoomsRepository } from '../modules/rooms/repository.js';
import { createRoomService, type RoomService } from '../modules/rooms/service.js';
import { createRoomBus, type RoomBus } from '../providers/bus/index.js';
import { createStorage } from '../providers/storage/index.js';
import type { ConnectionSettings } from './connection.js';
import { RoomHub } from './hub.js';

export interface Realtime {
  hub: RoomHub;
  bus: RoomBus;
  rooms: RoomService;
  chat: ChatService;
  files: FilesService;
  /** Socket timings; tests may shorten them. */
  settings: ConnectionSettings;
  /**
   * The meeting (meetings.id) was deleted: its room ends now (sockets closed with 4005) and its
   * stored files are removed. Never throws (the deletion itself has happened).
   */
  meetingDeleted(meetingId: string): Promise<void>;
}

/**
 * The meeting-room core shared by the room REST routes, the file routes and the WebSocket: the
 * bus (Redis when REDIS_URL is set), the hub, and the room, chat and file services. Meeting status
 * follows the room: the first participant in makes a scheduled meeting live; when the last one
 * has left (after the grace period) an instant meeting ends and a scheduled one is scheduled again.
 */
async function realtimePlugin(app: FastifyInstance): Promise<void> {
  const bus = await createRoomBus(app.config.redisUrl, app.log);
  const roomsRepo = createRoomsRepository(app.db.db);
  // Rooms live in this process only: a meeting still `live` from a previous run has no room.
  const finished = await roomsRepo.finishAllLive();
  if (finished > 0) app.log.info({ finished }, 'meetings left live by the previous run were finished');
  const hub = new RoomHub({
    bus,
    resumeGraceMs: WS_LIMITS.resumeGraceMs,
    joinTimeoutMs: WS_LIMITS.joinTimeoutMs,
    log: app.log,
    events: {
      onRoomLive: (room) => roomsRepo.markLive(room.id),
      onRoomEmpty: (room) =>
        roomsRepo.markFinished(room.id, room.meeting.meetingType === 'instant' ? 'ended' : 'scheduled'),
    },
  });
  const filesRepo = createFilesRepository(app.db.db);
  const files = createFilesService(filesRepo, createStorage(app.config), { log: app.log });
  const realtime: Realtime = {
    hub,
    bus,
    rooms: createRoomService(roomsRepo, hub, { testRoom: app.config.env !== 'production' }),
    chat: createChatService(createChatRepository(app.db.db), filesRepo),
    files,
    settings: { joinTimeoutMs: WS_LIMITS.joinTimeoutMs, messagesPerSecond: WS_LIMITS.messagesPerSecond },
    async meetingDeleted(meetingId) {
      hub.endRoom(meetingId);
      try {
        await files.removeMeetingFiles(meetingId);
      } catch (err) {
        app.log.error({ err, meetingId }, 'could not remove the files of a deleted meeting');
      }
    },
  };
  app.decorate('realtime', realtime);

  const stopListening = app.sessions.onSessionEnded((idHash) => hub.endSession(idHash));
  app.addHook('preClose', async () => {
    stopListening();
    hub.shutdown();
  });
  app.addHook('onClose', async () => bus.close());
}

export default fp(realtimePlugin, { name: 'realtime', dependencies: ['auth'] });

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}
