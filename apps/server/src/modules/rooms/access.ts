import type { FastifyRequest } from 'fastify';

/** The cookie that carries a participant's join token to `/api` (image previews, downloads). */
export const roomCookieName = (publicMeetingId: string): string =>
  `parley_room_${publicMeetingId.replace(/[^0-9a-z]/gi, '')}`;

/** The join token a request presents: `Authorization: Bearer <joinToken>`, else the room cookie. */
export function presentedJoinToken(request: FastifyRequest, publicMeetingId: string): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return request.cookies[roomCookieName(publicMeetingId)] ?? null;
}
