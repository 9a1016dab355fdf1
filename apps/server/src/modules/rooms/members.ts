import { randomBytes, randomUUID } from 'node:crypto';
import type { RoomParticipant, TranscriptionState } from '@parley/protocol';
import {
  denyKeyOf,
  hashJoinToken,
  memberBySession,
  memberByToken,
  removedList,
  roster,
  overMeshCap,
  seatsTaken,
  toRoomParticipant,
  transcriptionState,
  waitingCount,
  waitingList,
  type Admission,
  type MemberState,
  type RoomState,
} from './state.js';
import { roomErrors } from './errors.js';
import type { Actor } from './transport.js';

/**
 * The room's rules as pure steps on its state, for the RoomService's changes: who acts, who is a
 * target, how a participant comes in and goes. No I/O here: the service runs these inside one
 * store change and publishes afterwards.
 */

export type Requires = 'member' | 'admitted' | 'host';

/**
 * The acting participant: `member` (joined or waiting), `admitted` (in the room) or `host` (in the
 * room as a host). Otherwise not_joined / forbidden.
 */
export function actorIn(
  room: RoomState | undefined,
  actor: Actor,
  requires: Requires,
): { room: RoomState; member: MemberState } {
  const member = room?.members.get(actor.participantId);
  if (!room || !member) throw roomErrors.notJoined();
  if (requires !== 'member' && member.admission !== 'admitted') throw roomErrors.stillWaiting();
  if (requires === 'host' && !member.isHost) throw roomErrors.hostOnly();
  return { room, member };
}

/**
 * Another participant of the same room: admitted and announced (the others know it), or waiting.
 * Anyone else (unknown, the actor itself, in another meeting) is not_found.
 */
export function targetIn(
  at: { room: RoomState; member: MemberState },
  targetId: string,
  admission: Admission = 'admitted',
): MemberState {
  const { room, member: actor } = at;
  const target = room.members.get(targetId);
  const known = target && target.id !== actor.id && target.admission === admission;
  if (!known || (admission === 'admitted' && !target.announced)) {
    throw admission === 'waiting' ? roomErrors.noWaitingParticipant() : roomErrors.noParticipant();
  }
  return target;
}

export interface ComeIn {
  name: string;
  email: string | null;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  userId: string | null;
  sessionId: string | undefined;
  /** SHA-256 of the previous join token the browser presented (`resumeToken`), if any. */
  resumeTokenHash: string | null;
  /** The browser's own id, if it sent one (the free-time clock of a guest). */
  browserId: string | null;
  /** SHA-256 of the guest's browser secret, and the address it joins from (the free-time clock). */
  browserKey: string | null;
  clientAddress: string | null;
  admission: Admission;
  /** Counts a new participant against the join budgets (throws 429 past them); not for a return. */
  spendNew(): void;
  now: number;
  /**
   * The id of the participant this browser was before its server instance crashed and it was
   * swept (its join token proved it): it comes back as that participant, in a free seat.
   */
  reuseId?: string;
}

/** Most guests that may wait in a meeting's waiting room at once. */
export const WAITING_ROOM_LIMIT = 50;

/**
 * The participant a join comes back as, if any: the one whose previous join token the browser
 * presents (same signed-in user, or a guest), or a signed-in user's own participant of that tab
 * (its session cookie is the proof). A session id alone proves nothing: it travels in links,
 * logs and screenshots, so a guest presenting another's session id is a new participant.
 */
function returning(room: RoomState, input: ComeIn, sessionKey: string): MemberState | undefined {
  if (input.resumeTokenHash) {
    const m = memberByToken(room, input.resumeTokenHash);
    if (m && m.userId === input.userId) return m;
  }
  return input.userId ? memberBySession(room, sessionKey) : undefined;
}

/**
 * Issues a join token: for a new participant, or for the participant this browser already is (a
 * reload, see `returning`), whose previous token stops working. Refused for a participant the
 * host removed (the deny list; never the meeting's owner); for a new participant, when the seats
 * are taken (hosts take none), when the waiting room is full, or past the join budgets.
 * A non-host who comes in while Mute All is on comes in muted.
 */
export function issue(room: RoomState, input: ComeIn): { member: MemberState; token: string } {
  const sessionId = input.sessionId ?? randomUUID();
  const sessionKey = `${input.userId ?? 'guest'}:${sessionId}`;
  const denyKey = denyKeyOf(input.userId, sessionId);
  const isOwner = input.userId !== null && input.userId === room.meeting.hostId;
  if (room.denied.has(denyKey) && !isOwner) throw roomErrors.removedCannotRejoin();
  let member = returning(room, input, sessionKey);
  if (member && room.denied.has(member.denyKey) && !isOwner) throw roomErrors.removedCannotRejoin();
  if (!member) {
    if (input.admission === 'waiting') {
      if (waitingCount(room) >= WAITING_ROOM_LIMIT) throw roomErrors.waitingRoomFull();
    } else if (!input.isHost && seatsTaken(room) >= room.meeting.maxParticipants) {
      throw roomErrors.full();
    } else if (!input.isHost && overMeshCap(room)) {
      throw roomErrors.fullWithoutSfu(room.meeting.meshCap!);
    }
    if (!reusable(room, input.reuseId)) input.spendNew();
  }

  const token = randomBytes(32).toString('base64url');
  const isMuted = input.isMuted || (room.allMuted && !input.isHost);
  if (member) {
    member.tokenHash = hashJoinToken(token);
    member.name = input.name;
    member.email = input.email ?? member.email;
    member.browserId = input.browserId ?? member.browserId ?? null;
    member.browserKey = input.browserKey ?? member.browserKey ?? null;
    member.clientAddress = input.clientAddress ?? member.clientAddress ?? null;
    member.isHost = input.isHost;
    if (member.admission === 'waiting' && input.admission === 'admitted') {
      member.admission = 'admitted';
      member.waitingSince = null;
    }
    if (!member.announced) {
      member.isMuted = isMuted;
      member.isVideoOn = input.isVideoOn;
    }
    if (member.socketId === null) member.awaySince = input.now;
  } else {
    member = {
      id: reusable(room, input.reuseId) ? input.reuseId : randomUUID(),
      name: input.name,
      email: input.email,
      browserId: input.browserId,
      browserKey: input.browserKey,
      clientAddress: input.clientAddress,
      isHost: input.isHost,
      isMuted,
      isVideoOn: input.isVideoOn,
      isScreenSharing: false,
      admission: input.admission,
      userId: input.userId,
      sessionKey,
      denyKey,
      tokenHash: hashJoinToken(token),
      socketId: null,
      announced: false,
      everConnected: false,
      waitingSince: input.admission === 'waiting' ? input.now : null,
      captionLanguage: null,
      awaySince: input.now,
    };
    room.members.set(member.id, member);
    if (input.userId) room.bySession.set(sessionKey, member.id);
  }
  return { member, token };
}

const reusable = (room: RoomState, id: string | undefined): id is string =>
  id !== undefined && !room.members.has(id);

/** What others must hear when a participant is gone. */
export interface Gone {
  participantId: string;
  announced: boolean;
  wasWaiting: boolean;
  /** The room is now empty after having gone live (the meeting finishes). */
  finished: boolean;
}

/** Takes a participant out of the room for good. */
export function drop(room: RoomState, member: MemberState): Gone {
  room.members.delete(member.id);
  if (room.bySession.get(member.sessionKey) === member.id) room.bySession.delete(member.sessionKey);
  return {
    participantId: member.id,
    announced: member.announced,
    wasWaiting: member.admission === 'waiting',
    finished: room.members.size === 0 && room.wentLive && !room.meeting.ephemeral,
  };
}

/** What the participant's socket and the room hear when an admitted participant is (back) in. */
export interface Entered {
  self: RoomParticipant;
  /** The socket that speaks for it now. */
  socketId: string;
  participants: RoomParticipant[];
  allMuted: boolean;
  transcription: TranscriptionState;
  /** True when the room already knew this participant (participant_updated, not _joined). */
  resumed: boolean;
  /** True for the first admitted participant to connect: the meeting goes live. */
  firstLive: boolean;
  /** The waiting room, for a host. */
  waiting: Array<{ id: string; name: string }>;
  /** The deny list, for a host. */
  removed: Array<{ id: string; name: string }>;
  meeting: { meetingId: string; title: string; startedAt: string };
}

/** Marks an admitted, connected participant as known to the room (announced). */
export function enter(room: RoomState, member: MemberState): Entered {
  const resumed = member.announced;
  member.announced = true;
  const firstLive = !room.wentLive && !room.meeting.ephemeral;
  room.wentLive = true;
  return {
    self: toRoomParticipant(member),
    socketId: member.socketId ?? '',
    participants: roster(room, member.id),
    allMuted: room.allMuted,
    transcription: transcriptionState(room),
    resumed,
    firstLive,
    waiting: member.isHost ? waitingList(room) : [],
    removed: member.isHost ? removedList(room) : [],
    meeting: {
      meetingId: room.meeting.meetingId,
      title: room.meeting.title,
      startedAt: room.startedAt.toISOString(),
    },
  };
}

/** Mutes the given members who are not muted yet; answers those whose state changed. */
export function mute(members: Iterable<MemberState>): MemberState[] {
  const changed: MemberState[] = [];
  for (const m of members) {
    if (m.isMuted) continue;
    m.isMuted = true;
    changed.push(m);
  }
  return changed;
}
