import { memberHandler } from '../context.js';

/**
 * end_meeting (host): RoomService.endForEveryone. The ack goes out before the sockets close
 * (the host's own with them); anyone else gets `error forbidden`.
 */
export const endMeeting = memberHandler<'end_meeting'>(async (ctx, msg) => {
  await ctx.services.rooms.endForEveryone(ctx.actor, () =>
    ctx.reply({ type: 'ack', requestId: msg.requestId }),
  );
});
