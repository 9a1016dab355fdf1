import { memberHandler } from '../context.js';

/** mute_participant {targetParticipantId, muted} (host): RoomService.muteOne. */
export const muteParticipant = memberHandler<'mute_participant'>(async (ctx, msg) => {
  await ctx.services.rooms.muteOne(ctx.actor, msg.targetParticipantId, msg.muted);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
