import { randomUUID } from 'node:crypto';
import type { JoinResponse } from '@parley/protocol';
import { HttpError, notFound } from '../../http/errors.js';
import type { RoomHub } from '../../realtime/hub.js';
import type { Admission, Room } from '../../realtime/types.js';
import type { MeetingRow } from '../../db/schema/index.js';
import type { ActiveSession } from '../auth/session-service.js';
import { WindowCounter } from './limiter.js';
import { verifyMeetingPassword } from '../meetings/password.js';
import type { RoomsRepository } from './repository.js';
import { TEST_ROOM_ID, testRoomMeeting } from './test-room.js';

export const ROOM_MESSAGES = {
  notFound: 'Meeting not found',
  ended: 'This meeting has ended',
  cancelled: 'This meeting has been cancelled',
  full: 'Meeting is full',
  passwordRequired: 'This meeting requires a password',
  wrongPassword: 'Incorrect meeting password',
  tooManyPasswordAttempts: 'Too many password attempts. Please wait a minute and try again.',
  tooManyLookups: 'Too many requests. Please wait a minute and try again.',
  tooManyJoins: 'Too many attempts to join this meeting. Please wait a minute and try again.',
} as const;

/** Wrong passwords allowed per client and meeting per minute. */
export const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 60_000 };
/** Unknown meeting ids a client may try per minute (ids must not be enumerable). */
export const UNKNOWN_MEETING_LOOKUPS = { limit: 20, windowMs: 60_000 };
/**
 * Joins (POST /join or /participants, any outcome) a client may make to one meeting per minute,
 * so that one client cannot fill a meeting with participants that never connect.
 */
export const JOIN_ATTEMPTS = { limit: 30, windowMs: 60_000 };

export interface JoinInput {
  name: string;
  email?: string;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  sessionId?: string;
  password?: string;
}

export interface Caller {
  auth: ActiveSession | null;
  /** The client's address (per-client rate limits). */
  clientKey: string;
}

/**
 * Joining a meeting room (spec §2, §4): the meeting must exist and be neither ended nor
 * cancelled; `isHost` is honoured only for the meeting's signed-in owner; guests give the password when one is set (wrong attempts are
 * rate-limited), wait for the host when the meeting has a waiting room, and are refused when the
 * meeting is full. The same session id rejoining gets the same participant. With `testRoom`
 * (outside production) the id `test-room` is the development test room (./test-room.ts).
 */
export function createRoomService(repo: RoomsRepository, hub: RoomHub, options: { testRoom: boolean }) {
  const passwordFailures = new WindowCounter(PASSWORD_ATTEMPTS.limit, PASSWORD_ATTEMPTS.windowMs);
  const unknownLookups = new WindowCounter(UNKNOWN_MEETING_LOOKUPS.limit, UNKNOWN_MEETING_LOOKUPS.windowMs);
  const joins = new WindowCounter(JOIN_ATTEMPTS.limit, JOIN_ATTEMPTS.windowMs);

  /** The test room is known outside production only; it is not a lookup (no budget is spent). */
  const isTestRoom = (publicId: string): boolean => options.testRoom && publicId === TEST_ROOM_ID;

  /**
   * The meeting row of a public id; unknown ids count against the client's lookup budget. The
   * budget is checked again when the answer is known: lookups that were in flight together cannot
   * reveal more than the budget allows (past it, known and unknown ids alike get 429), while
   * concurrent lookups of a meeting that exists are not held back.
   */
  async function findMeeting(publicId: string, caller: Caller): Promise<MeetingRow> {
    const key = caller.clientKey;
    if (unknownLookups.isBlocked(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyLookups);
    const meeting = /^\d{3}-\d{3}-\d{3}$/.test(publicId) ? await repo.findMeeting(publicId) : null;
    const spent = unknownLookups.isBlocked(key);
    if (!meeting) unknownLookups.record(key);
    if (spent) throw new HttpError(429, ROOM_MESSAGES.tooManyLookups);
    if (!meeting) throw notFound(ROOM_MESSAGES.notFound);
    return meeting;
  }

  async function openMeeting(publicId: string, caller: Caller): Promise<MeetingRow> {
    const meeting = await findMeeting(publicId, caller);
    if (meeting.status === 'cancelled') throw new HttpError(410, ROOM_MESSAGES.cancelled);
    if (meeting.status === 'ended' || !meeting.isActive) throw new HttpError(410, ROOM_MESSAGES.ended);
    return meeting;
  }

  /**
   * Issues the participant (new, or the same one for the same session key) when the room has a
   * place. Nothing awaits here: the capacity check and the issue happen together.
   */
  function enter(
    room: Room,
    input: JoinInput,
    who: { userId: string | null; isHost: boolean; admission: Admission },
  ): JoinResponse & { name: string } {
    const sessionKey = `${who.userId ?? 'guest'}:${input.sessionId ?? randomUUID()}`;
    const existing = hub.memberBySession(room, sessionKey);
    if (!existing && room.members.size >= room.meeting.maxParticipants)
      throw new HttpError(409, ROOM_MESSAGES.full);
    const { member, token } = hub.issue(room, {
      name: input.name,
      email: input.email ?? null,
      isHost: who.isHost,
      isMuted: input.isMuted,
      isVideoOn: input.isVideoOn,
      userId: who.userId,
      sessionKey,
      admission: who.admission,
    });
    return {
      id: member.id,
      name: member.name,
      joinToken: token,
      isHost: member.isHost,
      admission: member.admission,
    };
  }

  return {
    async join(publicId: string, input: JoinInput, caller: Caller): Promise<JoinResponse & { name: string }> {
      const userId = caller.auth?.user.id ?? null;
      if (!joins.tryRecord(`${caller.clientKey}|${publicId}`)) {
        throw new HttpError(429, ROOM_MESSAGES.tooManyJoins);
      }
      if (isTestRoom(publicId)) {
        return enter(hub.roomFor(testRoomMeeting()), input, { userId, isHost: false, admission: 'admitted' });
      }
      const meeting = await openMeeting(publicId, caller);
      // Host powers belong to the meeting's signed-in owner only: a host=true link proves nothing.
      const isHost = input.isHost && userId === meeting.hostId;
      if (meeting.passwordHash && !isHost) {
        const key = `${caller.clientKey}|${meeting.id}`;
        if (passwordFailures.isBlocked(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
        if (!input.password)
          throw new HttpError(401, ROOM_MESSAGES.passwordRequired, { requiresPassword: true });
        // Counted before the (slow) hash check, so concurrent guesses cannot all be evaluated;
        // a right password takes its attempt back.
        if (!passwordFailures.tryRecord(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
        if (!(await verifyMeetingPassword(meeting.passwordHash, input.password))) {
          throw new HttpError(403, ROOM_MESSAGES.wrongPassword, { requiresPassword: true });
        }
        passwordFailures.undo(key);
      }
      const room = hub.roomFor({
        id: meeting.id,
        meetingId: meeting.meetingId,
        title: meeting.title,
        meetingType: meeting.meetingType,
        isRecurring: meeting.isRecurring,
        maxParticipants: meeting.maxParticipants,
        waitingRoom: meeting.waitingRoom,
        hostId: meeting.hostId,
        ephemeral: false,
      });
      return enter(room, input, {
        userId,
        isHost,
        admission: isHost || !meeting.waitingRoom ? 'admitted' : 'waiting',
      });
    },

    /** The room of a meeting if anyone is in it (404 for unknown meetings). */
    async roomOf(
      publicId: string,
      caller: Caller,
    ): Promise<{ room: Room | undefined; hostId: string | null }> {
      if (isTestRoom(publicId)) return { room: hub.getRoom(TEST_ROOM_ID), hostId: null };
      const meeting = await findMeeting(publicId, caller);
      return { room: hub.getRoom(meeting.id), hostId: meeting.hostId };
    },
  };
}
export type RoomService = ReturnType<typeof createRoomService>;
