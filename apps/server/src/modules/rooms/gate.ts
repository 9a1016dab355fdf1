import { HttpError, notFound } from '../../http/errors.js';
import type { MeetingRow } from '../../db/schema/index.js';
import type { ActiveSession } from '../auth/session-service.js';
import { verifyMeetingPassword } from '../meetings/password.js';
import { WindowCounter } from './limiter.js';
import type { RoomsRepository } from './repository.js';
import type { RoomMeeting } from './state.js';
import { TEST_ROOM_ID, testRoomMeeting } from './test-room.js';
import { ROOM_MESSAGES } from './errors.js';

/** Wrong passwords allowed per client and meeting per minute. */
export const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 60_000 };
/** Unknown meeting ids a client may try per minute (ids must not be enumerable). */
export const UNKNOWN_MEETING_LOOKUPS = { limit: 20, windowMs: 60_000 };
/**
 * Joins (POST /join or /participants, any outcome) a client may make to one meeting per minute,
 * so that one client cannot fill a meeting with participants that never connect.
 */
export const JOIN_ATTEMPTS = { limit: 30, windowMs: 60_000 };

export interface Caller {
  auth: ActiveSession | null;
  /** The client's address (per-client rate limits). */
  clientKey: string;
}

/** What the gate lets through to the room: the meeting, and who the caller is there. */
export interface Entry {
  meeting: RoomMeeting;
  userId: string | null;
  isHost: boolean;
}

export function toRoomMeeting(row: MeetingRow): RoomMeeting {
  return {
    id: row.id,
    meetingId: row.meetingId,
    title: row.title,
    meetingType: row.meetingType,
    isRecurring: row.isRecurring,
    maxParticipants: row.maxParticipants,
    waitingRoom: row.waitingRoom,
    hostId: row.hostId,
    ephemeral: false,
  };
}

/**
 * The door before the room (spec §2, §4): per-client join limits, the meeting lookup (unknown ids
 * are budgeted), ended and cancelled meetings, host powers for the signed-in owner only, and the
 * password. With `testRoom` (outside production) `test-room` is the development test room.
 */
export function createJoinGate(repo: RoomsRepository, options: { testRoom: boolean }) {
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

  async function checkPassword(meeting: MeetingRow, password: string | undefined, caller: Caller) {
    if (!meeting.passwordHash) return;
    const key = `${caller.clientKey}|${meeting.id}`;
    if (passwordFailures.isBlocked(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
    if (!password) throw new HttpError(401, ROOM_MESSAGES.passwordRequired, { requiresPassword: true });
    // Counted before the (slow) hash check, so concurrent guesses cannot all be evaluated;
    // a right password takes its attempt back.
    if (!passwordFailures.tryRecord(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
    if (!(await verifyMeetingPassword(meeting.passwordHash, password))) {
      throw new HttpError(403, ROOM_MESSAGES.wrongPassword, { requiresPassword: true });
    }
    passwordFailures.undo(key);
  }

  return {
    /** Who may come in, and as what; throws the 4xx of the first check that fails. */
    async pass(
      publicId: string,
      input: { isHost: boolean; password?: string },
      caller: Caller,
    ): Promise<Entry> {
      const userId = caller.auth?.user.id ?? null;
      if (!joins.tryRecord(`${caller.clientKey}|${publicId}`)) {
        throw new HttpError(429, ROOM_MESSAGES.tooManyJoins);
      }
      if (isTestRoom(publicId)) return { meeting: testRoomMeeting(), userId, isHost: false };
      const meeting = await findMeeting(publicId, caller);
      if (meeting.status === 'cancelled') throw new HttpError(410, ROOM_MESSAGES.cancelled);
      if (meeting.status === 'ended' || !meeting.isActive) throw new HttpError(410, ROOM_MESSAGES.ended);
      // Host powers belong to the meeting's signed-in owner only: a host=true link proves nothing.
      const isHost = input.isHost && userId === meeting.hostId;
      if (!isHost) await checkPassword(meeting, input.password, caller);
      return { meeting: toRoomMeeting(meeting), userId, isHost };
    },

    /** The room id and owner of a public id (404 for unknown meetings; budgeted like a join). */
    async lookup(publicId: string, caller: Caller): Promise<{ roomId: string; hostId: string | null }> {
      if (isTestRoom(publicId)) return { roomId: TEST_ROOM_ID, hostId: null };
      const meeting = await findMeeting(publicId, caller);
      return { roomId: meeting.id, hostId: meeting.hostId };
    },
  };
}
export type JoinGate = ReturnType<typeof createJoinGate>;
