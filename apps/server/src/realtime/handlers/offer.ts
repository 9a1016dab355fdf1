import { memberHandler } from '../context.js';

/** offer {targetParticipant, offer}: relayed to the target only (RoomService.signal). */
export const offer = memberHandler<'offer'>((ctx, msg) =>
  ctx.services.rooms.signal(ctx.actor, msg.targetParticipant, {
    type: 'offer',
    fromParticipant: ctx.actor.participantId,
    offer: msg.offer,
  }),
);
