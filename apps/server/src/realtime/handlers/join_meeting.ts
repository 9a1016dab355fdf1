import { WS_CLOSE } from '@parley/protocol';
import { RoomError } from '../../modules/rooms/errors.js';
import { openHandler } from '../context.js';

/**
 * join_meeting {joinToken}: the first message of every socket; RoomService.resume makes the socket
 * the participant's (joined, waiting, or a resume after a dropped socket). A token it refuses
 * closes the socket (4001).
 */
export const joinMeeting = openHandler<'join_meeting'>(async (ctx, msg) => {
  if (ctx.conn.participantId) {
    return ctx.fail('already_joined', 'This connection has already joined', msg.requestId);
  }
  try {
    await ctx.services.rooms.resume(msg.joinToken, ctx.conn, msg.requestId);
  } catch (err) {
    if (!(err instanceof RoomError) || err.code !== 'invalid_token') throw err;
    ctx.fail(err.code, err.message, msg.requestId);
    ctx.conn.close(WS_CLOSE.unauthorized, 'Invalid join token');
  }
});
