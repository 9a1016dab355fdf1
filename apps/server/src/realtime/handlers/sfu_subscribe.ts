import { memberHandler } from '../context.js';

/** sfu_subscribe {requestId}: the sender receives the room's other publishers (sfu_offer follows). */
export const sfuSubscribe = memberHandler<'sfu_subscribe'>(async (ctx, msg) => {
  await ctx.services.media.subscribe(ctx.actor);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
