import { WS_CLOSE } from '@parley/protocol';
import { memberHandler } from '../context.js';

/** leave_meeting: the participant leaves for good (no grace); the socket closes with 1000. */
export const leaveMeeting = memberHandler<'leave_meeting'>('member', (ctx) => {
  ctx.services.hub.remove(ctx.room, ctx.member, 'left');
  ctx.conn.close(WS_CLOSE.normal, 'Left the meeting');
});
