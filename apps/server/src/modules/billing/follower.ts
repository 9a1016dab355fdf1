import type { RoomEvents } from '../rooms/events.js';
import type { FreeTimeService } from './free-time.js';

/**
 * The free-time clock follows the room's events as every instance hears them, so that several
 * instances agree whoever holds the socket: a participant entering starts its clock on the
 * instance that holds its socket; its socket dropping stops it; its leaving (or the room ending)
 * ends it. The clock needs no hook inside the RoomService.
 */
export function followRoomForFreeTime(events: Pick<RoomEvents, 'on'>, freeTime: FreeTimeService): void {
  events.on('entered', (e) => (e.local ? freeTime.present(e.roomId, e.participant.id) : undefined));
  events.on('away', (e) => freeTime.absent(e.participantId));
  events.on('left', (e) => freeTime.gone(e.participantId));
  events.on('ended', async (e) => {
    await Promise.all(e.participantIds.map((id) => freeTime.gone(id)));
  });
}
