import type { RoomTransport } from '../rooms/transport.js';
import type { FreeTimeService } from './free-time.js';

/**
 * The free-time clock follows the room's own news: a participant's `joined` starts its clock, its
 * socket dropping (participant_updated, not connected), its leaving (participant_left) or its
 * socket being closed by the room stops it. The room publishes these after every change of
 * presence, so the clock needs no hook inside the RoomService.
 */
export function observeRoomForFreeTime(transport: RoomTransport, freeTime: FreeTimeService): RoomTransport {
  return {
    publish(roomId, to, message) {
      transport.publish(roomId, to, message);
      if (message.type === 'joined' && to.kind === 'one') void freeTime.present(roomId, to.participantId);
      else if (message.type === 'participant_left') void freeTime.gone(message.participantId);
      else if (message.type === 'participant_updated' && !message.participant.isConnected) {
        void freeTime.absent(message.participant.id);
      }
    },
    close(participantId, code, reason, last) {
      transport.close(participantId, code, reason, last);
      void freeTime.absent(participantId);
    },
  };
}
