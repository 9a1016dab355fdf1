import { memberHandler } from '../context.js';

/** allow_rejoin {removedId} (host): RoomService.allowRejoin; the removed participant may join again. */
export const allowRejoin = memberHandler<'allow_rejoin'>(async (ctx, msg) => {
  await ctx.services.rooms.allowRejoin(ctx.actor, msg.removedId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
