import { memberHandler } from '../context.js';

/** sfu_view {videos}: the remote videos the sender's page shows, and each tile's quality; no reply. */
export const sfuView = memberHandler<'sfu_view'>((ctx, msg) =>
  ctx.services.media.view(ctx.actor, msg.videos),
);
