import type { BusEnvelope } from '../../providers/bus/index.js';
import type { FreeTimeService } from './free-time.js';

/**
 * The free-time clock follows the room's own news as the bus delivers it to this instance
 * (realtime/sockets.ts `observe`), so that several instances agree whoever published it: a
 * participant's `joined` starts its clock on the instance that holds its socket; its socket
 * dropping (participant_updated, not connected) or being closed by the room stops it there; its
 * leaving (participant_left, from any instance) ends it. The clock needs no hook inside the
 * RoomService.
 */
export function followRoomForFreeTime(freeTime: FreeTimeService) {
  return ({ roomId, to, message, close }: BusEnvelope, local: boolean): void => {
    if (close) {
      if (local && to.kind === 'one') void freeTime.absent(to.participantId);
      return;
    }
    if (message?.type === 'joined' && to.kind === 'one') {
      if (local) void freeTime.present(roomId, to.participantId);
    } else if (message?.type === 'participant_left') void freeTime.gone(message.participantId);
    else if (message?.type === 'participant_updated' && !message.participant.isConnected) {
      void freeTime.absent(message.participant.id);
    }
  };
}
