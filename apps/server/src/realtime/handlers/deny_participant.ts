import { memberHandler } from '../context.js';

/** deny_participant {targetParticipantId} (host): RoomService.deny. */
export const denyParticipant = memberHandler<'deny_participant'>(async (ctx, msg) => {
  await ctx.services.rooms.deny(ctx.actor, msg.targetParticipantId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
