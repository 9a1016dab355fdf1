import { memberHandler } from '../context.js';

/** leave_meeting: RoomService.leave; the participant goes at once and the socket closes (1000). */
export const leaveMeeting = memberHandler<'leave_meeting'>((ctx) => ctx.services.rooms.leave(ctx.actor));
