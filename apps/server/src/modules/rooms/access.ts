import type { FastifyRequest } from 'fastify';
import { HttpError, unauthorized } from '../../http/errors.js';
import type { RoomHub } from '../../realtime/hub.js';
import type { Member, Room } from '../../realtime/types.js';

/** The cookie that carries a participant's join token to `/api` (image previews, downloads). */
export const roomCookieName = (publicMeetingId: string): string =>
  `parley_room_${publicMeetingId.replace(/[^0-9a-z]/gi, '')}`;

/** The join token a request presents: `Authorization: Bearer <joinToken>`, else the room cookie. */
export function presentedJoinToken(request: FastifyRequest, publicMeetingId: string): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return request.cookies[roomCookieName(publicMeetingId)] ?? null;
}

/**
 * The admitted participant of `publicMeetingId` that the request's join token names, or
 * 401 (no or unknown token) / 403 (a participant of another meeting, or still waiting).
 */
export function requireParticipant(
  hub: RoomHub,
  request: FastifyRequest,
  publicMeetingId: string,
  what: string,
): { room: Room; member: Member } {
  const token = presentedJoinToken(request, publicMeetingId);
  const found = token ? hub.findByToken(token) : null;
  if (!found) throw unauthorized(`Join the meeting to ${what}`);
  if (found.room.meeting.meetingId !== publicMeetingId || found.member.admission !== 'admitted') {
    throw new HttpError(403, `Only participants of this meeting can ${what}`);
  }
  return found;
}
