import { WS_CLOSE } from '@parley/protocol';
import { memberHandler } from '../context.js';

export const REMOVED_MESSAGE = 'You have been removed from the meeting by the host.';

/**
 * remove_participant {targetParticipantId} (host only): the target gets `removed`, its socket is
 * closed with 4006 and its join token stops working; the room gets participant_left 'removed'.
 */
export const removeParticipant = memberHandler<'remove_participant'>('host', (ctx, msg) => {
  const target = ctx.room.members.get(msg.targetParticipantId);
  if (!target || target.id === ctx.member.id) {
    return ctx.fail('not_found', 'No such participant in this meeting', msg.requestId);
  }
  const conn = target.conn;
  conn?.send({ type: 'removed', message: REMOVED_MESSAGE });
  ctx.services.hub.remove(ctx.room, target, 'removed');
  conn?.close(WS_CLOSE.removedByHost, 'Removed by the host');
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
