import { memberHandler } from '../context.js';

/** ice-candidate {targetParticipant, candidate}: to the target only (null = end of candidates). */
export const iceCandidate = memberHandler<'ice-candidate'>((ctx, msg) =>
  ctx.services.rooms.signal(ctx.actor, msg.targetParticipant, {
    type: 'ice-candidate',
    fromParticipant: ctx.actor.participantId,
    candidate: msg.candidate,
  }),
);
