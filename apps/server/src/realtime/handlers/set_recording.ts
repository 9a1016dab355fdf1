import { memberHandler } from '../context.js';

/** set_recording {on} (host): RecordingsService.setRecording (room state; needs the SFU). */
export const setRecording = memberHandler<'set_recording'>(async (ctx, msg) => {
  await ctx.services.recordings.setRecording(ctx.actor, msg.on);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
