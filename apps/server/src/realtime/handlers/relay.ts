import type { ServerMessage } from '@parley/protocol';
import { findTarget, type MemberContext } from '../context.js';

/**
 * offer / answer / ice-candidate go only to `targetParticipant`, an admitted participant of the
 * sender's room; `fromParticipant` is the sender's id from the socket record.
 */
export function relayTo(ctx: MemberContext, targetId: string, message: ServerMessage): void {
  const target = findTarget(ctx, targetId);
  if (!target) return ctx.fail('not_found', 'No such participant in this meeting');
  ctx.services.hub.publish(ctx.room, { kind: 'one', participantId: target.id }, message);
}
