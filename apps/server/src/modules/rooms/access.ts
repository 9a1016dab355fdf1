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

/**
 * The meeting's signed-in owner (`hostId`), who may look at the room without having joined, or
 * else an admitted participant of `publicMeetingId` as in requireParticipant (401/403).
 */
export function requireParticipantOrHost(
  hub: RoomHub,
  request: FastifyRequest,
  publicMeetingId: string,
  hostId: string | null,
  what: string,
): { isHost: true } | { isHost: false; room: Room; member: Member } {
  if (hostId !== null && request.auth?.user.id === hostId) return { isHost: true };
  return { isHost: false, ...requireParticipant(hub, request, publicMeetingId, what) };
}
