import { memberHandler } from '../context.js';

/**
 * set_transcription {on}: RoomService.setTranscription (room state, Pro to start). When it goes
 * off, the room's speech streams end with their last words delivered.
 */
export const setTranscription = memberHandler<'set_transcription'>(async (ctx, msg) => {
  const changed = await ctx.services.rooms.setTranscription(ctx.actor, msg.on);
  if (changed && !msg.on) await ctx.services.captions.stopRoom(ctx.actor.roomId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
