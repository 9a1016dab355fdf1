import type { RoomTransport } from '../rooms/transport.js';
import type { RecordingsService } from './service.js';

/**
 * Recording follows the room's own news, like the media mode: a participant's `joined` is
 * followed by the room's `recording_state` (so a reload or a late joiner sees that it records,
 * and the host whether it can), and someone leaving may stop it (when nobody is left). A deleted
 * meeting's room is the meetings module's to tell (RecordingsService.meetingDeleted).
 * `recordings` is read late: the recordings plugin registers after the rooms.
 */
export function observeRoomForRecording(
  transport: RoomTransport,
  recordings: () => RecordingsService | null,
  onError: (err: unknown) => void,
): RoomTransport {
  return {
    publish(roomId, to, message) {
      transport.publish(roomId, to, message);
      const service = recordings();
      if (!service) return;
      if (message.type === 'joined' && to.kind === 'one') {
        service
          .stateFor(roomId)
          .then((recording) => {
            if (recording) transport.publish(roomId, to, { type: 'recording_state', recording });
          })
          .catch(onError);
      } else if (message.type === 'participant_left') {
        service.roomMayBeEmpty(roomId).catch(onError);
      }
    },
    close(participantId, code, reason, last) {
      transport.close(participantId, code, reason, last);
    },
  };
}
