import { memberHandler } from '../context.js';

/** mute_all {muted} (host): RoomService.muteAll (Mute All is room state). */
export const muteAll = memberHandler<'mute_all'>(async (ctx, msg) => {
  await ctx.services.rooms.muteAll(ctx.actor, msg.muted);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
