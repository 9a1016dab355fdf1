import { memberHandler } from '../context.js';

/** sfu_publish {requestId, offer}: the sender's publisher on the room's SFU; answered with sfu_answer. */
export const sfuPublish = memberHandler<'sfu_publish'>(async (ctx, msg) => {
  const answer = await ctx.services.media.publish(ctx.actor, { type: 'offer', sdp: msg.offer.sdp });
  ctx.reply({ type: 'sfu_answer', requestId: msg.requestId, answer });
});
