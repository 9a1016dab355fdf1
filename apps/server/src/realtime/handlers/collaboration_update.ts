import { memberHandler } from '../context.js';

/**
 * collaboration_update {data}: a Yjs update, an awareness update or a sync request for the
 * meeting's collaboration document (whiteboard and notes). The collaboration service validates
 * and applies it and passes it on; a refused one changes nothing and is answered with an error.
 */
export const collaborationUpdate = memberHandler<'collaboration_update'>(async (ctx, msg) => {
  const { room, member } = await ctx.services.rooms.admitted(ctx.actor);
  const refusal = await ctx.services.collaboration.receive(room, member, msg.data, ctx.reply);
  if (refusal) ctx.fail(refusal.code, refusal.message);
});
