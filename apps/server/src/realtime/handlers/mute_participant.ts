import { findTarget, memberHandler } from '../context.js';
import { toRoomParticipant } from '../types.js';

/**
 * mute_participant {targetParticipantId, muted} (host only): the target's client mutes and tells
 * its user; the room sees the new state.
 */
export const muteParticipant = memberHandler<'mute_participant'>('host', (ctx, msg) => {
  const target = findTarget(ctx, msg.targetParticipantId);
  if (!target) return ctx.fail('not_found', 'No such participant in this meeting', msg.requestId);
  const { hub } = ctx.services;
  hub.publish(
    ctx.room,
    { kind: 'one', participantId: target.id },
    { type: 'mute_participant', targetParticipantId: target.id, muted: msg.muted },
  );
  if (msg.muted && !target.isMuted) {
    target.isMuted = true;
    hub.publish(
      ctx.room,
      { kind: 'all' },
      { type: 'participant_updated', participant: toRoomParticipant(target) },
    );
  }
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
