import { memberHandler } from '../context.js';

/** sfu_answer {answer}: the sender's answer to its last sfu_offer. */
export const sfuAnswer = memberHandler<'sfu_answer'>((ctx, msg) =>
  ctx.services.media.answer(ctx.actor, { type: 'answer', sdp: msg.answer.sdp }),
);
