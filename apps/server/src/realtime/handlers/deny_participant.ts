import { WS_CLOSE } from '@parley/protocol';
import { findTarget, memberHandler } from '../context.js';

export const DENIED_MESSAGE = 'The meeting host did not let you in.';

/** deny_participant {targetParticipantId} (host only): a waiting participant is sent away (4011). */
export const denyParticipant = memberHandler<'deny_participant'>('host', (ctx, msg) => {
  const target = findTarget(ctx, msg.targetParticipantId, 'waiting');
  if (!target) return ctx.fail('not_found', 'No such participant waiting', msg.requestId);
  const conn = target.conn;
  conn?.send({ type: 'denied', message: DENIED_MESSAGE });
  ctx.services.hub.remove(ctx.room, target, 'removed');
  conn?.close(WS_CLOSE.deniedEntry, 'Denied entry by the host');
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
