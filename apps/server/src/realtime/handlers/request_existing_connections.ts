import { memberHandler } from '../context.js';

/** request_existing_connections: the admitted participant gets the others in the room. */
export const requestExistingConnections = memberHandler<'request_existing_connections'>(async (ctx, msg) => {
  const participants = await ctx.services.rooms.participants(ctx.actor);
  ctx.reply({ type: 'existing_connections', requestId: msg.requestId, participants });
});
