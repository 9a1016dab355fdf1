import type { ClientMessageOf, ClientMessageType, ServerMessage, ServerMessageOf } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveCaptions } from '../modules/ai/live.js';
import type { ChatService } from '../modules/chat/service.js';
import type { CollaborationService } from '../modules/collaboration/service.js';
import type { MediaService } from '../modules/media/service.js';
import type { RecordingsService } from '../modules/recordings/service.js';
import type { AttendanceService } from '../modules/report/attendance.js';
import { roomErrors } from '../modules/rooms/errors.js';
import type { Actor } from '../modules/rooms/transport.js';
import type { RoomService } from '../modules/rooms/service.js';
import type { Sockets } from './sockets.js';
import type { Conn } from './types.js';

export type ErrorCode = ServerMessageOf<'error'>['code'];

export interface RealtimeServices {
  rooms: RoomService;
  chat: ChatService;
  /** Meetings' media: the sfu_* messages (the SFU path). */
  media: Pick<
    MediaService,
    'publish' | 'subscribe' | 'leaveSfu' | 'answer' | 'trickle' | 'view' | 'keyframe'
  >;
  /** The meeting's collaboration document (whiteboard and notes). */
  collaboration: Pick<CollaborationService, 'receive'>;
  /** Attendance and talk time (the meeting report): the `speaking` messages. */
  attendance: Pick<AttendanceService, 'speaking'>;
  /** Live captions: the audio frames a joined socket streams while transcription is on. */
  captions: Pick<LiveCaptions, 'audio' | 'stopRoom' | 'prewarm' | 'declined' | 'notice'>;
  /** Meeting recording: the host's set_recording. */
  recordings: Pick<RecordingsService, 'setRecording'>;
  sockets: Sockets;
  log: FastifyBaseLogger;
}

/**
 * What a handler gets: the socket's record (the sender) and the services. A RoomError a handler
 * throws is answered as `error {code, message, requestId}` by the connection.
 */
export interface BaseContext {
  conn: Conn;
  services: RealtimeServices;
  reply(message: ServerMessage): void;
  fail(code: ErrorCode, message: string, requestId?: string): void;
}

/** For handlers of a joined socket: who it speaks for. */
export interface MemberContext extends BaseContext {
  actor: Actor;
}

export interface HandlerDef<K extends ClientMessageType> {
  run(ctx: BaseContext, message: ClientMessageOf<K>): void | Promise<void>;
}

export type HandlerMap = { [K in ClientMessageType]: HandlerDef<K> };

/** A handler any socket may call (before join_meeting too). */
export function openHandler<K extends ClientMessageType>(
  run: (ctx: BaseContext, message: ClientMessageOf<K>) => void | Promise<void>,
): HandlerDef<K> {
  return { run };
}

/**
 * A handler for a socket that has joined (in the room or waiting); others get `not_joined`. What
 * the participant may do (admitted, host) is the RoomService's to check.
 */
export function memberHandler<K extends ClientMessageType>(
  run: (ctx: MemberContext, message: ClientMessageOf<K>) => void | Promise<void>,
): HandlerDef<K> {
  return {
    run(ctx, message) {
      const { roomId, participantId } = ctx.conn;
      if (!roomId || !participantId) throw roomErrors.notJoined();
      return run({ ...ctx, actor: { roomId, participantId } }, message);
    },
  };
}
