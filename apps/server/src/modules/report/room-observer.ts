import { WS_CLOSE } from '@parley/protocol';
import type { BusEnvelope } from '../../providers/bus/index.js';
import type { AttendanceService } from './attendance.js';

/**
 * Attendance follows the room's own news as the bus delivers it to this instance, as the
 * free-time clock does (billing/room-observer.ts): a participant's `joined` opens its row on the
 * instance that holds its socket, its socket dropping (participant_updated, not connected) or
 * being closed by the room closes it there, participant_left (from any instance) closes it for
 * good, and a participant shown muted stops its talk time. No hook inside the RoomService.
 */
export function followRoomForAttendance(attendance: AttendanceService) {
  return ({ roomId, to, message, close }: BusEnvelope, local: boolean): void => {
    if (close) {
      if (!local || to.kind !== 'one') return;
      // Ending the meeting closes every socket without a participant_left: they are gone for
      // good, and their entries must not outlive the meeting.
      if (close.code === WS_CLOSE.meetingEnded) void attendance.gone(to.participantId);
      else void attendance.absent(to.participantId);
      return;
    }
    if (message?.type === 'joined' && to.kind === 'one') {
      if (!local) return;
      const { id, name, isHost } = message.self;
      void attendance.present(roomId, { id, name, isHost });
    } else if (message?.type === 'participant_left') {
      void attendance.gone(message.participantId, roomId);
    } else if (message?.type === 'participant_updated') {
      if (!message.participant.isConnected) void attendance.absent(message.participant.id);
      else if (message.participant.isMuted) attendance.muted(message.participant.id);
    }
  };
}
