import { memberHandler } from '../context.js';

/** answer {targetParticipant, answer}: relayed to the target only (RoomService.signal). */
export const answer = memberHandler<'answer'>((ctx, msg) =>
  ctx.services.rooms.signal(ctx.actor, msg.targetParticipant, {
    type: 'answer',
    fromParticipant: ctx.actor.participantId,
    answer: msg.answer,
  }),
);
