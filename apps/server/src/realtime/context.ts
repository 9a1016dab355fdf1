import type {
  ClientMessageOf,
  ClientMessageType,
  IceServer,
  ServerMessage,
  ServerMessageOf,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatService } from '../modules/chat/service.js';
import type { RoomHub } from './hub.js';
import type { Conn, Member, Room } from './types.js';

export type ErrorCode = ServerMessageOf<'error'>['code'];

export interface RealtimeServices {
  hub: RoomHub;
  chat: ChatService;
  iceServers(participantId: string): IceServer[];
  log: FastifyBaseLogger;
}

/** What a handler gets: the socket's record (the sender) and the services. */
export interface BaseContext {
  conn: Conn;
  services: RealtimeServices;
  reply(message: ServerMessage): void;
  fail(code: ErrorCode, message: string, requestId?: string): void;
}

/** For handlers that need a joined socket: its room and participant, never null. */
export interface MemberContext extends BaseContext {
  room: Room;
  member: Member;
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
 * A handler for participants. `member`: joined or waiting; `admitted`: in the room; `host`: in the
 * room as a host. Others get `not_joined` or `forbidden`, and nothing happens.
 */
export function memberHandler<K extends ClientMessageType>(
  requires: 'member' | 'admitted' | 'host',
  run: (ctx: MemberContext, message: ClientMessageOf<K>) => void | Promise<void>,
): HandlerDef<K> {
  return {
    run(ctx, message) {
      const requestId = (message as { requestId?: string }).requestId;
      const { member, room } = ctx.conn;
      if (!member || !room) return ctx.fail('not_joined', 'Send join_meeting first', requestId);
      if (requires !== 'member' && member.admission !== 'admitted') {
        return ctx.fail('not_joined', 'Waiting for the host to let you in', requestId);
      }
      if (requires === 'host' && !member.isHost) {
        return ctx.fail('forbidden', 'Only the host can do this', requestId);
      }
      return run({ ...ctx, member, room }, message);
    },
  };
}

/** A participant of the same room other than the sender, or null. */
export function findTarget(
  ctx: MemberContext,
  targetId: string,
  admission: 'admitted' | 'waiting' = 'admitted',
) {
  const target = ctx.room.members.get(targetId);
  if (!target || target.id === ctx.member.id || target.admission !== admission) return null;
  if (admission === 'admitted' && !target.announced) return null;
  return target;
}
