import { memberHandler } from '../context.js';

/** collaboration_update {data}: relayed to the other participants of the room with the sender's id. */
export const collaborationUpdate = memberHandler<'collaboration_update'>('admitted', (ctx, msg) => {
  ctx.services.hub.publish(
    ctx.room,
    { kind: 'all', except: ctx.member.id },
    { type: 'collaboration_update', fromParticipant: ctx.member.id, data: msg.data },
  );
});
