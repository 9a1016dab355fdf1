import type { ServerMessage } from '@parley/protocol';
import type { RoomEvents } from '../rooms/events.js';
import type { Audience } from '../rooms/transport.js';
import type { RecordingsService } from './service.js';

/**
 * Recording follows the room's events, like the media mode: right after a participant's
 * `joined` it hears the room's `recording_state` (so a reload or a late joiner sees that it
 * records, and the host whether it can), and someone leaving may stop it (when nobody is left;
 * on whichever instance records it). A deleted meeting's room is the meetings module's to tell
 * (RecordingsService.meetingDeleted).
 */
export function followRoomForRecording(
  events: Pick<RoomEvents, 'on' | 'aroundJoined'>,
  recordings: RecordingsService,
  publish: (roomId: string, to: Audience, message: ServerMessage) => void,
  onError: (err: unknown) => void,
): void {
  events.aroundJoined(({ roomId, participantId }) => ({
    after: () => {
      recordings
        .stateFor(roomId)
        .then((recording) => {
          if (recording)
            publish(roomId, { kind: 'one', participantId }, { type: 'recording_state', recording });
        })
        .catch(onError);
    },
  }));
  events.on('left', (e) => recordings.roomMayBeEmpty(e.roomId));
}
