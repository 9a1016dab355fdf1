import { memberHandler } from '../context.js';

/** set_caption_language {language}: RoomService.setCaptionLanguage (this listener's own). */
export const setCaptionLanguage = memberHandler<'set_caption_language'>(async (ctx, msg) => {
  await ctx.services.rooms.setCaptionLanguage(ctx.actor, msg.language);
  if (msg.language) ctx.services.captions.prewarm(msg.language);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
