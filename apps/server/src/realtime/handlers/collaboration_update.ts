import { memberHandler } from '../context.js';

/** collaboration_update {data}: relayed to the other participants of the room with the sender's id. */
export const collaborationUpdate = memberHandler<'collaboration_update'>(async (ctx, msg) => {
  const { room, member } = await ctx.services.rooms.admitted(ctx.actor);
  ctx.services.sockets.transport.publish(
    room.id,
    { kind: 'all', except: member.id },
    { type: 'collaboration_update', fromParticipant: member.id, data: msg.data },
  );
});
