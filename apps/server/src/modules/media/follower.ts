import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RoomEvents } from '../rooms/events.js';
import type { MediaService } from './service.js';

/**
 * The media mode follows the room's events: around a participant's `joined` the room's mode
 * (MediaService.aroundJoined); someone leaving releases its SFU connections (and, with two or
 * fewer left, the room goes back to peer-to-peer); the room ending, or its last participant
 * leaving, releases the SFU room. Each instance releases what its own SFU holds.
 */
export function followRoomForMedia(
  events: Pick<RoomEvents, 'on' | 'aroundJoined'>,
  media: MediaService,
): void {
  events.aroundJoined((joining) => media.aroundJoined(joining));
  events.on('left', (e) => media.left(e.roomId, e.participantId, e.inRoom));
  events.on('ended', (e) => media.ended(e.roomId));
}

/**
 * The media's plugin comes before the rooms (their join reads its mesh cap and ICE servers);
 * this one follows the rooms once they exist.
 */
export default fp(async (app: FastifyInstance) => followRoomForMedia(app.rooms.events, app.media), {
  name: 'media-follower',
  dependencies: ['media', 'rooms'],
});
