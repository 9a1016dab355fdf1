import { WS_CLOSE } from '@parley/protocol';
import { openHandler, type BaseContext } from '../context.js';
import { toRoomParticipant, type Member, type Room } from '../types.js';

export const WAITING_MESSAGE = 'Please wait, the meeting host will let you in soon.';

/**
 * join_meeting {joinToken}: the first message of every socket. The token (from POST /join) names
 * the participant; the socket's query meetingId must be that participant's meeting. The same
 * token resumes the participant after a dropped socket, and a newer socket replaces an older one.
 */
export const joinMeeting = openHandler<'join_meeting'>(async (ctx, msg) => {
  const { conn, services } = ctx;
  if (conn.member) return ctx.fail('already_joined', 'This connection has already joined', msg.requestId);
  const found = services.hub.findByToken(msg.joinToken);
  if (!found || found.room.meeting.meetingId !== conn.meetingId) {
    ctx.fail('invalid_token', 'Unknown or expired join token: join the meeting again', msg.requestId);
    return conn.close(WS_CLOSE.unauthorized, 'Invalid join token');
  }
  const { room, member } = found;
  if (member.isHost && member.userId && member.userId !== conn.userId) {
    // A host's powers come from the host's signed-in session: the socket must carry it too.
    ctx.fail('invalid_token', 'Sign in as the host to join as host', msg.requestId);
    return conn.close(WS_CLOSE.unauthorized, 'Host session required');
  }

  // Read the history before taking over, so `joined` is this socket's first room message.
  const chatHistory = member.admission === 'admitted' ? await services.chat.history(room) : [];
  if (!conn.isOpen) return;
  if (room.members.get(member.id) !== member || services.hub.findByToken(msg.joinToken)?.member !== member) {
    ctx.fail(
      'invalid_token',
      'The join token was replaced or expired: join the meeting again',
      msg.requestId,
    );
    return conn.close(WS_CLOSE.unauthorized, 'Invalid join token');
  }
  const { resumed } = services.hub.attach(conn, room, member);
  if (member.admission === 'waiting') {
    ctx.reply({ type: 'waiting', message: WAITING_MESSAGE });
    services.hub.publishWaitingRoom(room);
    return;
  }
  sendJoined(ctx, room, member, chatHistory, resumed, msg.requestId);
});

/** `joined` to the participant's socket, then the room hears of it. */
export function sendJoined(
  ctx: BaseContext,
  room: Room,
  member: Member,
  chatHistory: Awaited<ReturnType<BaseContext['services']['chat']['history']>>,
  resumed: boolean,
  requestId?: string,
): void {
  const { hub } = ctx.services;
  member.conn?.send({
    type: 'joined',
    requestId,
    self: toRoomParticipant(member),
    participants: hub.participants(room, member.id),
    chatHistory,
    iceServers: ctx.services.iceServers(member.id),
    meeting: {
      meetingId: room.meeting.meetingId,
      title: room.meeting.title,
      startedAt: room.startedAt.toISOString(),
    },
    resumed,
  });
  hub.announce(room, member);
  if (member.isHost) {
    const waiting = hub.waiting(room);
    if (waiting.length) member.conn?.send({ type: 'waiting_room', waiting });
  }
}
