import { memberHandler } from '../context.js';
import { relayTo } from './relay.js';

/** ice-candidate {targetParticipant, candidate}: relayed to the target only (null = end of candidates). */
export const iceCandidate = memberHandler<'ice-candidate'>('admitted', (ctx, msg) =>
  relayTo(ctx, msg.targetParticipant, {
    type: 'ice-candidate',
    fromParticipant: ctx.member.id,
    candidate: msg.candidate,
  }),
);
