import { memberHandler } from '../context.js';

/** sfu_answer {offerId, answer}: the sender's answer to the sfu_offer of that id. */
export const sfuAnswer = memberHandler<'sfu_answer'>((ctx, msg) =>
  ctx.services.media.answer(ctx.actor, msg.offerId, { type: 'answer', sdp: msg.answer.sdp }),
);
