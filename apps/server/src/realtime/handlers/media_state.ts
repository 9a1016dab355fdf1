import { memberHandler } from '../context.js';
import { toRoomParticipant } from '../types.js';

/** media_state {isMuted, isVideoOn, isScreenSharing?}: the sender's own state, told to the room. */
export const mediaState = memberHandler<'media_state'>('admitted', (ctx, msg) => {
  const { member, room } = ctx;
  member.isMuted = msg.isMuted;
  member.isVideoOn = msg.isVideoOn;
  if (msg.isScreenSharing !== undefined) member.isScreenSharing = msg.isScreenSharing;
  ctx.services.hub.publish(
    room,
    { kind: 'all', except: member.id },
    { type: 'participant_updated', participant: toRoomParticipant(member) },
  );
});
