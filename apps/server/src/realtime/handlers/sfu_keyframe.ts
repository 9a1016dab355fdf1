import { memberHandler } from '../context.js';

/**
 * sfu_keyframe {participantId}: a video the sender's page shows through the SFU decodes nothing;
 * that publisher is asked for a key frame (rate-limited); no reply.
 */
export const sfuKeyframe = memberHandler<'sfu_keyframe'>((ctx, msg) =>
  ctx.services.media.keyframe(ctx.actor, msg.participantId),
);
