import { memberHandler } from '../context.js';

/**
 * mute_all {muted} (host only): every other participant's client is told to mute (or that it may
 * unmute: unmuting stays each participant's own choice). Muting is recorded at once.
 */
export const muteAll = memberHandler<'mute_all'>('host', (ctx, msg) => {
  const { room, member } = ctx;
  if (msg.muted) {
    for (const m of room.members.values()) if (m.id !== member.id && !m.isHost) m.isMuted = true;
  }
  ctx.services.hub.publish(room, { kind: 'all', except: member.id }, { type: 'mute_all', muted: msg.muted });
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
