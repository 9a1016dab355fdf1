import { memberHandler } from '../context.js';

/** request_existing_connections: the admitted participant gets the others in the room. */
export const requestExistingConnections = memberHandler<'request_existing_connections'>(
  'admitted',
  (ctx, msg) => {
    ctx.reply({
      type: 'existing_connections',
      requestId: msg.requestId,
      participants: ctx.services.hub.participants(ctx.room, ctx.member.id),
    });
  },
);
