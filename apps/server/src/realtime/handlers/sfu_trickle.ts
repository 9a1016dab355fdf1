import { memberHandler } from '../context.js';

/** sfu_trickle {target, candidate}: an ICE candidate of the sender's publisher or subscriber (null: done). */
export const sfuTrickle = memberHandler<'sfu_trickle'>((ctx, msg) =>
  ctx.services.media.trickle(ctx.actor, msg.target, msg.candidate),
);
