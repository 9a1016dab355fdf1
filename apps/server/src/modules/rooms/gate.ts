import { HttpError, notFound, tooManyRequests } from '../../http/errors.js';
import type { MeetingRow } from '../../db/schema/index.js';
import type { ActiveSession } from '../auth/session-service.js';
import { verifyMeetingPassword } from '../meetings/password.js';
import { Lockout, WindowCounter } from './limiter.js';
import type { RoomsRepository } from './repository.js';
import type { RoomMeeting } from './state.js';
import { TEST_ROOM_ID, testRoomMeeting } from './test-room.js';
import { ROOM_MESSAGES, passwordLockedMessage, userPasswordLockedMessage } from './errors.js';

/** Wrong passwords allowed per client (a signed-in user, else an address) and meeting per minute. */
export const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 60_000 };
/**
 * Wrong passwords allowed per MEETING from guests, from any address, within `windowMs`; then its
 * password entry is locked for `lockMs` to every address that failed on it. While it is locked, a
 * guest from an address that has not failed may still try: `lockedTries` such tries per meeting
 * within `lockMs` (a right password gives its try back). So guests together get at most
 * limit + lockedTries = 20 wrong guesses per 15 minutes whatever the addresses say (a 4-digit
 * password takes days, not the 6 s of the review), and a lock no longer keeps out everyone: the
 * signed-in (and so the invited, whom invitations know by their account's e-mail) have budgets of
 * their own (USER_PASSWORD_LOCK), the host needs no password, and a participant coming back with
 * its join token needs none either. Only an attacker who keeps spending the locked tries keeps
 * fresh guests out, and then signing in still gets them in.
 */
export const MEETING_PASSWORD_LOCK = {
  limit: 10,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  lockedTries: 10,
};
/** Wrong passwords one signed-in user may try per meeting within `windowMs` (not the meeting's lock). */
export const USER_PASSWORD_LOCK = { limit: 10, windowMs: 15 * 60_000 };
/** Unknown meeting ids a client (a signed-in user, else an address) may try per minute. */
export const UNKNOWN_MEETING_LOOKUPS = { limit: 20, windowMs: 60_000 };
/**
 * Distinct unknown (well-formed) meeting ids ALL guests together may try per minute on this instance: addresses can be
 * named by the client (TRUST_PROXY=true) or owned by the thousand, and this budget does not care.
 * Past it, guests' lookups of known and unknown ids alike get 429 (no oracle); signed-in users
 * keep their own budget and are not held back. 200 a minute over 10^9 ids finds one of 10,000
 * meetings about every 8 hours, and no office mistypes 200 ids a minute.
 */
export const UNKNOWN_MEETING_LOOKUPS_BY_GUESTS = { limit: 200, windowMs: 60_000 };
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
  /** Addresses that gave a wrong password for a meeting (`ip|meeting`): they stay out of a lock. */
  const failedAddresses = new Lockout(MEETING_PASSWORD_LOCK.lockMs);
  const lockedTries = new WindowCounter(MEETING_PASSWORD_LOCK.lockedTries, MEETING_PASSWORD_LOCK.lockMs);
  const userPasswordFailures = new WindowCounter(USER_PASSWORD_LOCK.limit, USER_PASSWORD_LOCK.windowMs);
  const newPerClient = new WindowCounter(
    NEW_PARTICIPANTS_PER_CLIENT.limit,
    NEW_PARTICIPANTS_PER_CLIENT.windowMs,
  );
  const newPerMeeting = new WindowCounter(
    NEW_PARTICIPANTS_PER_MEETING.limit,
    NEW_PARTICIPANTS_PER_MEETING.windowMs,
  );
  const unknownLookups = new WindowCounter(UNKNOWN_MEETING_LOOKUPS.limit, UNKNOWN_MEETING_LOOKUPS.windowMs);
  const guestUnknownLookups = new WindowCounter(
    UNKNOWN_MEETING_LOOKUPS_BY_GUESTS.limit,
    UNKNOWN_MEETING_LOOKUPS_BY_GUESTS.windowMs,
  );
  /** The unknown ids guests tried in the window (each counts once against the guests' budget). */
  const guestSeenUnknown = new Lockout(UNKNOWN_MEETING_LOOKUPS_BY_GUESTS.windowMs);
  /** Whose budget a request spends: a signed-in user's own, else its address's. */
  const clientOf = (caller: Caller): string =>
    caller.auth ? `user:${caller.auth.user.id}` : `ip:${caller.clientKey}`;
  const joins = new WindowCounter(JOIN_ATTEMPTS.limit, JOIN_ATTEMPTS.windowMs);
  const returns = new WindowCounter(RETURN_ATTEMPTS.limit, RETURN_ATTEMPTS.windowMs);

  /** The test room is known outside production only; it is not a lookup (no budget is spent). */
  const isTestRoom = (publicId: string): boolean => options.testRoom && publicId === TEST_ROOM_ID;

  /**
   * The meeting row of a public id; unknown ids count against the client's lookup budget and, for
   * guests, against the budget of all guests together (no address change escapes it). The budgets
   * are checked again when the answer is known: lookups that were in flight together cannot
   * reveal more than the budget allows (past it, known and unknown ids alike get 429), while
   * concurrent lookups of a meeting that exists are not held back.
   */
  async function findMeeting(publicId: string, caller: Caller): Promise<MeetingRow> {
    const key = clientOf(caller);
    const guest = !caller.auth;
    const spent = (): number =>
      Math.max(unknownLookups.retryAfterMs(key), guest ? guestUnknownLookups.retryAfterMs('guests') : 0);
    const refuse = (ms: number) => tooManyRequests(ROOM_MESSAGES.tooManyLookups(Math.ceil(ms / 1000)), ms);
    const before = spent();
    if (before > 0) throw refuse(before);
    const meeting = /^\d{3}-\d{3}-\d{3}$/.test(publicId) ? await repo.findMeeting(publicId) : null;
    const after = spent();
    if (!meeting) {
      unknownLookups.record(key);
      // All guests together: each well-formed id once a window. A malformed id finds nothing, and
      // the same unknown id again reveals nothing new (a reload, a mistyped link clicked twice).
      if (guest && /^\d{3}-\d{3}-\d{3}$/.test(publicId) && !guestSeenUnknown.remainingMs(publicId)) {
        guestSeenUnknown.lock(publicId);
        guestUnknownLookups.record('guests');
      }
    }
    if (after > 0) throw refuse(after);
    if (!meeting) throw notFound(ROOM_MESSAGES.notFound);
    return meeting;
  }

  const lockedFor = (ms: number): HttpError =>
    tooManyRequests(passwordLockedMessage(Math.ceil(ms / 60_000)), ms);
  const tooManyAttempts = (key: string): HttpError =>
    tooManyRequests(ROOM_MESSAGES.tooManyPasswordAttempts, passwordFailures.retryAfterMs(key) || 60_000);

  /**
   * The password of a meeting that has one. Every try is counted before the (slow) hash check, so
   * concurrent guesses cannot all be evaluated; a right password takes its tries back.
   */
  async function checkPassword(meeting: MeetingRow, password: string | undefined, caller: Caller) {
    if (!meeting.passwordHash) return;
    const key = `${clientOf(caller)}|${meeting.id}`;
    if (passwordFailures.isBlocked(key)) throw tooManyAttempts(key);
    if (!password) throw new HttpError(401, ROOM_MESSAGES.passwordRequired, { requiresPassword: true });

    // The budget of the meeting (a guest's) or of the signed-in user that this try spends.
    let budget: { counter: WindowCounter; key: string };
    if (caller.auth) {
      if (!userPasswordFailures.tryRecord(key)) {
        const ms = userPasswordFailures.retryAfterMs(key);
        throw tooManyRequests(userPasswordLockedMessage(Math.ceil(ms / 60_000)), ms);
      }
      budget = { counter: userPasswordFailures, key };
    } else {
      if (!passwordLock.remainingMs(meeting.id) && !meetingPasswordFailures.tryRecord(meeting.id)) {
        passwordLock.lock(meeting.id);
      }
      const lockMs = passwordLock.remainingMs(meeting.id);
      if (lockMs > 0) {
        // Locked: only an address that has not failed here may try, within the locked tries.
        const failedMs = failedAddresses.remainingMs(key);
        if (failedMs > 0) throw lockedFor(Math.min(lockMs, failedMs));
        if (!lockedTries.tryRecord(meeting.id)) throw lockedFor(lockMs);
        budget = { counter: lockedTries, key: meeting.id };
      } else {
        budget = { counter: meetingPasswordFailures, key: meeting.id };
      }
    }
    if (!passwordFailures.tryRecord(key)) {
      budget.counter.undo(budget.key);
      throw tooManyAttempts(key);
    }
    if (!(await verifyMeetingPassword(meeting.passwordHash, password))) {
      if (!caller.auth) {
        failedAddresses.lock(key);
        if (meetingPasswordFailures.isBlocked(meeting.id) && !passwordLock.remainingMs(meeting.id)) {
          passwordLock.lock(meeting.id);
        }
      }
      throw new HttpError(403, ROOM_MESSAGES.wrongPassword, { requiresPassword: true });
    }
    passwordFailures.undo(key);
    budget.counter.undo(budget.key);
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
      const client = clientOf(caller);
      if (!(returning ? returns : joins).tryRecord(`${client}|${publicId}`)) {
        throw tooManyRequests(
          ROOM_MESSAGES.tooManyJoins,
          (returning ? returns : joins).retryAfterMs(`${client}|${publicId}`),
        );
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
      const client = clientOf(caller);
      const clientKey = `${client}|${publicId}`;
      if (!newPerClient.tryRecord(clientKey)) {
        throw tooManyRequests(ROOM_MESSAGES.tooManyNewFromClient, newPerClient.retryAfterMs(clientKey));
      }
      if (!newPerMeeting.tryRecord(publicId)) {
        newPerClient.undo(clientKey);
        throw tooManyRequests(ROOM_MESSAGES.tooManyNewInMeeting, newPerMeeting.retryAfterMs(publicId));
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
