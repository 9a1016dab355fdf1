import { memberHandler } from '../context.js';

/** sfu_leave {requestId}: back on the mesh, the sender's SFU connections go. */
export const sfuLeave = memberHandler<'sfu_leave'>(async (ctx, msg) => {
  await ctx.services.media.leaveSfu(ctx.actor);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
