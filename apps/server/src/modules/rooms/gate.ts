import { HttpError, notFound } from '../../http/errors.js';
import type { MeetingRow } from '../../db/schema/index.js';
import type { ActiveSession } from '../auth/session-service.js';
import { verifyMeetingPassword } from '../meetings/password.js';
import { Lockout, WindowCounter } from './limiter.js';
import type { RoomsRepository } from './repository.js';
import type { RoomMeeting } from './state.js';
import { TEST_ROOM_ID, testRoomMeeting } from './test-room.js';
import { ROOM_MESSAGES, passwordLockedMessage } from './errors.js';

/** Wrong passwords allowed per client and meeting per minute. */
export const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 60_000 };
/**
 * Wrong passwords allowed per MEETING, from any address, within `windowMs`; then its password
 * entry is locked for `lockMs` (the signed-in host, who needs no password, still gets in; so does
 * a participant coming back with its join token). At most 10 guesses per 15 minutes: a 4-digit
 * password that took 6 s from "different" addresses would now take weeks.
 */
export const MEETING_PASSWORD_LOCK = { limit: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** Unknown meeting ids a client may try per minute (ids must not be enumerable). */
export const UNKNOWN_MEETING_LOOKUPS = { limit: 20, windowMs: 60_000 };
/**
 * Join requests (POST /join or /participants, any outcome) a client (a signed-in user, else an
 * address) may make to one meeting per minute: a flood guard, high enough for an office behind
 * one address. A participant coming back with its join token (a reload) is not counted.
 */
export const JOIN_ATTEMPTS = { limit: 300, windowMs: 60_000 };
/**
 * Joins that come back with a join token (reloads) a client may make to one meeting per minute:
 * budgeted apart from JOIN_ATTEMPTS so that reloads never use up an office's joins, but still
 * bounded (each one looks the meeting up and issues a token).
 */
export const RETURN_ATTEMPTS = { limit: 600, windowMs: 60_000 };
/**
 * NEW participants one client (a signed-in user, else an address) may add to one meeting per
 * minute: 100 colleagues behind one office NAT join a 100-person meeting within a minute, while
 * reloads and resumes (which come back as the same participant) are not counted.
 */
export const NEW_PARTICIPANTS_PER_CLIENT = { limit: 120, windowMs: 60_000 };
/**
 * NEW participants a meeting takes per minute from everyone together (no address change escapes
 * it); its host is never held back by it.
 */
export const NEW_PARTICIPANTS_PER_MEETING = { limit: 200, windowMs: 60_000 };

export interface Caller {
  auth: ActiveSession | null;
  /** The client's address (per-client rate limits). */
  clientKey: string;
  /**
   * SHA-256 of the guest's browser secret (billing/browser-secret.ts), if it has one: whose
   * free-time clock and card a guest's participant uses.
   */
  browserKey?: string | null;
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
export function createJoinGate(
  repo: RoomsRepository,
  options: {
    testRoom: boolean;
    /** The room's peer-to-peer cap while this server has no SFU (RoomMeeting.meshCap), else null. */
    meshCap?: () => number | null;
  },
) {
  const passwordFailures = new WindowCounter(PASSWORD_ATTEMPTS.limit, PASSWORD_ATTEMPTS.windowMs);
  const meetingPasswordFailures = new WindowCounter(
    MEETING_PASSWORD_LOCK.limit,
    MEETING_PASSWORD_LOCK.windowMs,
  );
  const passwordLock = new Lockout(MEETING_PASSWORD_LOCK.lockMs);
  const newPerClient = new WindowCounter(
    NEW_PARTICIPANTS_PER_CLIENT.limit,
    NEW_PARTICIPANTS_PER_CLIENT.windowMs,
  );
  const newPerMeeting = new WindowCounter(
    NEW_PARTICIPANTS_PER_MEETING.limit,
    NEW_PARTICIPANTS_PER_MEETING.windowMs,
  );
  const unknownLookups = new WindowCounter(UNKNOWN_MEETING_LOOKUPS.limit, UNKNOWN_MEETING_LOOKUPS.windowMs);
  const joins = new WindowCounter(JOIN_ATTEMPTS.limit, JOIN_ATTEMPTS.windowMs);
  const returns = new WindowCounter(RETURN_ATTEMPTS.limit, RETURN_ATTEMPTS.windowMs);

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

  const locked = (meetingId: string): HttpError | null => {
    const ms = passwordLock.remainingMs(meetingId);
    return ms > 0 ? new HttpError(429, passwordLockedMessage(Math.ceil(ms / 60_000))) : null;
  };

  async function checkPassword(meeting: MeetingRow, password: string | undefined, caller: Caller) {
    if (!meeting.passwordHash) return;
    const key = `${caller.clientKey}|${meeting.id}`;
    const lockedNow = locked(meeting.id);
    if (lockedNow) throw lockedNow;
    if (passwordFailures.isBlocked(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
    if (!password) throw new HttpError(401, ROOM_MESSAGES.passwordRequired, { requiresPassword: true });
    // Counted before the (slow) hash check, so concurrent guesses cannot all be evaluated;
    // a right password takes its attempts back.
    if (!passwordFailures.tryRecord(key)) throw new HttpError(429, ROOM_MESSAGES.tooManyPasswordAttempts);
    if (!meetingPasswordFailures.tryRecord(meeting.id)) {
      passwordFailures.undo(key);
      passwordLock.lock(meeting.id);
      throw locked(meeting.id)!;
    }
    if (!(await verifyMeetingPassword(meeting.passwordHash, password))) {
      if (meetingPasswordFailures.isBlocked(meeting.id)) passwordLock.lock(meeting.id);
      throw new HttpError(403, ROOM_MESSAGES.wrongPassword, { requiresPassword: true });
    }
    passwordFailures.undo(key);
    meetingPasswordFailures.undo(meeting.id);
  }

  return {
    /** Who may come in, and as what; throws the 4xx of the first check that fails. */
    async pass(
      publicId: string,
      input: { isHost: boolean; password?: string },
      caller: Caller,
      returning = false,
    ): Promise<Entry> {
      const userId = caller.auth?.user.id ?? null;
      // A signed-in user has a budget of its own; a participant coming back spends another one.
      const client = userId ? `user:${userId}` : `ip:${caller.clientKey}`;
      if (!(returning ? returns : joins).tryRecord(`${client}|${publicId}`)) {
        throw new HttpError(429, ROOM_MESSAGES.tooManyJoins);
      }
      if (isTestRoom(publicId)) return { meeting: testRoomMeeting(), userId, isHost: false };
      const meeting = await findMeeting(publicId, caller);
      if (meeting.status === 'cancelled') throw new HttpError(410, ROOM_MESSAGES.cancelled);
      if (meeting.status === 'ended' || !meeting.isActive) throw new HttpError(410, ROOM_MESSAGES.ended);
      // Host powers belong to the meeting's signed-in owner only: a host=true link proves nothing.
      const isHost = input.isHost && userId === meeting.hostId;
      // A participant coming back with its join token passed the password when it first came in.
      if (!isHost && !returning) await checkPassword(meeting, input.password, caller);
      const cap = options.meshCap?.() ?? null;
      return { meeting: { ...toRoomMeeting(meeting), ...(cap ? { meshCap: cap } : {}) }, userId, isHost };
    },

    /**
     * Counts a NEW participant of `publicId` (not a reload or resume) against the client's and the
     * meeting's budgets, in one synchronous step; throws 429 past either. The host is counted
     * against neither.
     */
    spendNew(publicId: string, caller: Caller, isHost: boolean): void {
      if (isHost) return;
      const client = caller.auth ? `user:${caller.auth.user.id}` : `ip:${caller.clientKey}`;
      const clientKey = `${client}|${publicId}`;
      if (!newPerClient.tryRecord(clientKey)) throw new HttpError(429, ROOM_MESSAGES.tooManyNewFromClient);
      if (!newPerMeeting.tryRecord(publicId)) {
        newPerClient.undo(clientKey);
        throw new HttpError(429, ROOM_MESSAGES.tooManyNewInMeeting);
      }
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
