import { memberHandler } from '../context.js';

/**
 * speaking {speaking}: the sender's browser heard its microphone start or stop carrying speech.
 * Attendance times the stretch on the server's clock (talk time in the meeting report); a muted
 * participant's speaking counts for nothing. No reply; too many get `error rate_limited`.
 */
export const speaking = memberHandler<'speaking'>(async (ctx, msg) => {
  const { member } = await ctx.services.rooms.admitted(ctx.actor);
  const refusal = ctx.services.attendance.speaking(member.id, msg.speaking, member.isMuted);
  if (refusal) ctx.fail(refusal.code, refusal.message);
});
