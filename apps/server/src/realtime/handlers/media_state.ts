import { memberHandler } from '../context.js';

/** media_state {isMuted, isVideoOn, isScreenSharing?}: RoomService.setMediaState (the sender's own). */
export const mediaState = memberHandler<'media_state'>((ctx, msg) =>
  ctx.services.rooms.setMediaState(ctx.actor, {
    isMuted: msg.isMuted,
    isVideoOn: msg.isVideoOn,
    isScreenSharing: msg.isScreenSharing,
  }),
);
