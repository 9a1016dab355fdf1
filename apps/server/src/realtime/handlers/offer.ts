import { memberHandler } from '../context.js';
import { relayTo } from './relay.js';

/** offer {targetParticipant, offer}: relayed to the target only. */
export const offer = memberHandler<'offer'>('admitted', (ctx, msg) =>
  relayTo(ctx, msg.targetParticipant, { type: 'offer', fromParticipant: ctx.member.id, offer: msg.offer }),
);
