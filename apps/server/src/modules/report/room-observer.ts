import { WS_CLOSE } from '@parley/protocol';
import type { RoomTransport } from '../rooms/transport.js';
import type { AttendanceService } from './attendance.js';

/**
 * Attendance follows the room's own news, as the free-time clock does (billing/room-observer.ts):
 * a participant's `joined` (to its own socket) opens its row, its socket dropping
 * (participant_updated, not connected) or being closed by the room closes it, participant_left
 * closes it for good, and a participant shown muted stops its talk time. No hook inside the
 * RoomService.
 */
export function observeRoomForAttendance(
  transport: RoomTransport,
  attendance: AttendanceService,
): RoomTransport {
  return {
    publish(roomId, to, message) {
      transport.publish(roomId, to, message);
      if (message.type === 'joined' && to.kind === 'one') {
        const { id, name, isHost } = message.self;
        void attendance.present(roomId, { id, name, isHost });
      } else if (message.type === 'participant_left') {
        void attendance.gone(message.participantId);
      } else if (message.type === 'participant_updated') {
        if (!message.participant.isConnected) void attendance.absent(message.participant.id);
        else if (message.participant.isMuted) attendance.muted(message.participant.id);
      }
    },
    close(participantId, code, reason, last) {
      transport.close(participantId, code, reason, last);
      // Ending the meeting closes every socket without a participant_left: they are gone for
      // good, and their entries must not outlive the meeting.
      if (code === WS_CLOSE.meetingEnded) void attendance.gone(participantId);
      else void attendance.absent(participantId);
    },
  };
}
