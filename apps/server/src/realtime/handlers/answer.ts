import { memberHandler } from '../context.js';
import { relayTo } from './relay.js';

/** answer {targetParticipant, answer}: relayed to the target only. */
export const answer = memberHandler<'answer'>('admitted', (ctx, msg) =>
  relayTo(ctx, msg.targetParticipant, { type: 'answer', fromParticipant: ctx.member.id, answer: msg.answer }),
);
