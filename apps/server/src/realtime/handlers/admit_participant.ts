import { findTarget, memberHandler } from '../context.js';
import { sendJoined } from './join_meeting.js';

/**
 * admit_participant {targetParticipantId} (host only): a waiting participant enters. Its socket
 * (if connected) gets `admitted` then `joined`; otherwise it gets `joined` when it connects.
 */
export const admitParticipant = memberHandler<'admit_participant'>('host', async (ctx, msg) => {
  const target = findTarget(ctx, msg.targetParticipantId, 'waiting');
  if (!target) return ctx.fail('not_found', 'No such participant waiting', msg.requestId);
  target.admission = 'admitted';
  const { hub, chat } = ctx.services;
  hub.publishWaitingRoom(ctx.room);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
  if (!target.conn) return;
  const history = await chat.history(ctx.room);
  if (!target.conn || ctx.room.members.get(target.id) !== target) return;
  target.conn.send({ type: 'admitted' });
  sendJoined(ctx, ctx.room, target, history, false);
});
