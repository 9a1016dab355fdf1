import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { JoinResponse } from '@parley/protocol';
import { HttpError, notFound } from '../../http/errors.js';
import type { RoomHub } from '../../realtime/hub.js';
import type { Room } from '../../realtime/types.js';
import type { ActiveSession } from '../auth/session-service.js';
import { WindowCounter } from './limiter.js';
import { verifyMeetingPassword } from '../meetings/password.js';
import type { RoomsRepository } from './repository.js';

export const ROOM_MESSAGES = {
  notFound: 'Meeting not found',
  ended: 'This meeting has ended',
  cancelled: 'This meeting has been cancelled',
  full: 'Meeting is full',
  passwordRequired: 'This meeting requires a password',
  wrongPassword: 'Incorrect meeting password',
  tooManyPasswordAttempts: 'Too many password attempts. Please wait a minute and try again.',
  tooManyLookups: 'Too many requests. Please wait a minute and try again.',
} as const;

/** Wrong passwords allowed per client and meeting per minute. */
export const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 60_000 };
/** Unknown meeting ids a client may try per minute (ids must not be enumerable). */
export const UNKNOWN_MEETING_LOOKUPS = { limit: 20, windowMs: 60_000 };

export interface JoinInput {
  name: string;
  email?: string;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  sessionId?: string;
  password?: string;
  hostToken?: string;
}

export interface Caller {
  auth: ActiveSession | null;
  /** The client's address (per-client rate limits). */
  clientKey: string;
}

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

function hostTokenMatches(token: string | undefined, storedHashHex: string | null): boolean {
  if (!token || !storedHashHex || !/^[0-9a-f]{64}$/i.test(storedHashHex)) return false;
  return timingSafeEqual(sha256(token), Buffer.from(storedHashHex, 'hex'));
}

/**
 * Joining a meeting room (spec §2, §4): the meeting must exist and be neither ended nor
 * cancelled; `isHost` is honoured only for the meeting's signed-in owner (or the holder of the
 * host token issued at creation); guests give the password when one is set (wrong attempts are
 * rate-limited), wait for the host when the meeting has a waiting room, and are refused when the
 * meeting is full. The same session id rejoining gets the same participant.
 */
export function createRoomService(repo: RoomsRepository, hub: RoomHub) {
  const passwordFailures = new WindowCounter(PASSWORD_ATTEMPTS.limit, PASSWORD_ATTEMPTS.windowMs);
  const unknownLookups = new WindowCounter(UNKNOWN_MEETING_LOOKUPS.limit, UNKNOWN_MEETING_LOOKUPS.windowMs);

  async function openMeeting(publicId: string, caller: Caller) {
    if (unknownLookups.isBlocked(caller.clientKey)) throw new HttpError(429, ROOM_MESSAGES.tooManyLookups);
    const meeting = /^\d{3}-\d{3}-\d{3}$/.test(publicId) ? await repo.findMeeting(publicId) : null;
    if (!meeting) {
      unknownLookups.record(caller.clientKey);
      throw notFound(ROOM_MESSAGES.notFound);
    }
    if (meeting.status === 'cancelled') throw new HttpError(410, ROOM_MESSAGES.cancelled);
    if (meeting.status === 'ended' || !meeting.isActive) throw new HttpError(410, ROOM_MESSAGES.ended);
    return meeting;
  }

  return {
    async join(publicId: string, input: JoinInput, caller: Caller): Promise<JoinResponse & { name: string }> {
      const meeting = await openMeeting(publicId, caller);
      const userId = caller.auth?.user.id ?? null;
      const isHost =
        input.isHost &&
        (userId === meeting.hostId || hostTokenMatches(input.hostToken, meeting.hostTokenHash));

      if (meeting.passwordHash && !isHost) {
        const key = `${caller.clientKey}|${meeting.id}`;
        if (passwordFailures.isBlocked(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
        if (!input.password)
          throw new HttpError(401, ROOM_MESSAGES.passwordRequired, { requiresPassword: true });
        if (!(await verifyMeetingPassword(meeting.passwordHash, input.password))) {
          passwordFailures.record(key);
          throw new HttpError(403, ROOM_MESSAGES.wrongPassword, { requiresPassword: true });
        }
      }

      // From here on nothing awaits: the capacity check and the issue happen together.
      const room = hub.roomFor({
        id: meeting.id,
        meetingId: meeting.meetingId,
        title: meeting.title,
        meetingType: meeting.meetingType,
        isRecurring: meeting.isRecurring,
        maxParticipants: meeting.maxParticipants,
        waitingRoom: meeting.waitingRoom,
        hostId: meeting.hostId,
      });
      const sessionKey = `${userId ?? 'guest'}:${input.sessionId ?? randomUUID()}`;
      const existing = hub.memberBySession(room, sessionKey);
      if (!existing && room.members.size >= meeting.maxParticipants)
        throw new HttpError(409, ROOM_MESSAGES.full);
      const { member, token } = hub.issue(room, {
        name: input.name,
        email: input.email ?? null,
        isHost,
        isMuted: input.isMuted,
        isVideoOn: input.isVideoOn,
        userId,
        sessionKey,
        admission: isHost || !meeting.waitingRoom ? 'admitted' : 'waiting',
      });
      return {
        id: member.id,
        name: member.name,
        joinToken: token,
        isHost: member.isHost,
        admission: member.admission,
      };
    },

    /** The room of a meeting if anyone is in it (404 for unknown meetings). */
    async roomOf(publicId: string, caller: Caller): Promise<{ room: Room | undefined; hostId: string }> {
      if (unknownLookups.isBlocked(caller.clientKey)) throw new HttpError(429, ROOM_MESSAGES.tooManyLookups);
      const meeting = /^\d{3}-\d{3}-\d{3}$/.test(publicId) ? await repo.findMeeting(publicId) : null;
      if (!meeting) {
        unknownLookups.record(caller.clientKey);
        throw notFound(ROOM_MESSAGES.notFound);
      }
      return { room: hub.getRoom(meeting.id), hostId: meeting.hostId };
    },
  };
}
export type RoomService = ReturnType<typeof createRoomService>;
