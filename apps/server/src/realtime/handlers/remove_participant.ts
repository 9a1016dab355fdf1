import { memberHandler } from '../context.js';

/** remove_participant {targetParticipantId} (host): RoomService.remove (and the deny list). */
export const removeParticipant = memberHandler<'remove_participant'>(async (ctx, msg) => {
  await ctx.services.rooms.remove(ctx.actor, msg.targetParticipantId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
