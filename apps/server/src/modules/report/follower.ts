import type { RoomEvents } from '../rooms/events.js';
import type { AttendanceService } from './attendance.js';

/**
 * Attendance follows the room's events as every instance hears them, as the free-time clock
 * does (billing/follower.ts): a participant entering opens its row on the instance that holds
 * its socket, its socket dropping closes it there, its leaving closes it for good (on any
 * instance: the one that held it may have crashed), the room ending closes everyone's, and a
 * participant shown muted stops its talk time. No hook inside the RoomService.
 */
export function followRoomForAttendance(events: Pick<RoomEvents, 'on'>, attendance: AttendanceService): void {
  events.on('entered', (e) => (e.local ? attendance.present(e.roomId, e.participant) : undefined));
  events.on('away', (e) => attendance.absent(e.participantId));
  events.on('left', (e) => attendance.gone(e.participantId, e.roomId));
  // Ending the meeting sends everyone away without a `left` each: their entries must not
  // outlive the meeting.
  events.on('ended', async (e) => {
    await Promise.all(e.participantIds.map((id) => attendance.gone(id)));
  });
  events.on('muted', (e) => attendance.muted(e.participantId));
}
