import { memberHandler } from '../context.js';

/** admit_participant {targetParticipantId} (host): RoomService.admit. */
export const admitParticipant = memberHandler<'admit_participant'>(async (ctx, msg) => {
  await ctx.services.rooms.admit(ctx.actor, msg.targetParticipantId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
