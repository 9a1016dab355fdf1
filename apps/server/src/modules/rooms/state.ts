import { createHash } from 'node:crypto';
import type { RoomParticipant, TranscriptionState } from '@parley/protocol';

/**
 * The state of a meeting room, as the RoomStateStore keeps it: who is in (or waiting), their
 * media state, admission, host powers, mute-all and the deny list. Sockets are not part of it
 * (realtime/ keeps them); a member only records which socket speaks for it.
 */

export type Admission = 'admitted' | 'waiting';

export const hashJoinToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A participant of a room: connected, or within the resume grace period. */
export interface MemberState {
  readonly id: string;
  name: string;
  email: string | null;
  /**
   * The browser's own id (localStorage) it joined with, if any: the free-time clock of a guest
   * without an e-mail is keyed on it (modules/billing). Optional: rooms stored before it lack it.
   */
  browserId?: string | null;
  /**
   * SHA-256 of the browser secret the guest joined with (billing/browser-secret.ts): its free-time
   * clock and saved card are this browser's, never an e-mail's. Optional: older rooms lack it.
   */
  browserKey?: string | null;
  /** The address it joined from: a new guest's free time is not fresh where one ran out. */
  clientAddress?: string | null;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  isScreenSharing: boolean;
  admission: Admission;
  /** The signed-in user who joined (null for guests). */
  userId: string | null;
  /**
   * `${userId ?? 'guest'}:${sessionId}`. A signed-in user rejoining with it gets this member back
   * (the session cookie is the proof); a guest needs its previous join token (`resumeToken`).
   */
  readonly sessionKey: string;
  /** What the deny list records if the host removes this member (see denyKey). */
  readonly denyKey: string;
  tokenHash: string;
  /** The socket that speaks for this member now (realtime's id), or null while it has none. */
  socketId: string | null;
  /** True once the others were told about this member (participant_joined). */
  announced: boolean;
  /** True once a socket has spoken for this member (join_meeting); until then it expires sooner. */
  everConnected: boolean;
  /** When this member knocked (ms since epoch), while it waits; its knock expires from then. */
  waitingSince: number | null;
  /** The language this listener wants transcript lines translated into (null: none). */
  captionLanguage: string | null;
  /**
   * Since when no socket speaks for this member (ms since epoch; null while one does): its join
   * timeout or resume grace runs from then, whichever instance's clock looks at it.
   */
  awaySince: number | null;
  /**
   * True while it is away because its page closed the socket (not a dropped connection): it is
   * kept only for the closed grace (a reload), and the others are not told it is reconnecting.
   */
  awayClosed?: boolean;
  /**
   * Its answer to the transcription notice (consent.ts): allowed, declined, or none yet (null).
   * Optional: rooms stored before consent existed lack it (no answer).
   */
  transcriptionConsent?: 'allowed' | 'declined' | null;
}

/** The meeting's live transcription: who turned it on, and when (ms since epoch). */
export interface Transcription {
  startedBy: { id: string; name: string };
  startedAt: number;
}

export interface RoomMeeting {
  /** meetings.id (uuid), or the test room's own id (no database row). */
  readonly id: string;
  /** The public ddd-ddd-ddd id. */
  readonly meetingId: string;
  title: string;
  meetingType: string;
  isRecurring: boolean;
  maxParticipants: number;
  /**
   * Without an SFU (no Janus on this server) media is a full mesh, which 2 cores cannot carry past
   * four people: the room then holds at most this many, hosts included (a host still gets in).
   */
  meshCap?: number;
  waitingRoom: boolean;
  /** The owner (users.id); null in the test room, which has no host. */
  hostId: string | null;
  /**
   * True for the development test room (modules/rooms/test-room.ts): no database row, so nothing
   * may be read or written for it (meeting status, chat, files) and only signaling is offered.
   */
  readonly ephemeral: boolean;
}

export interface RoomState {
  readonly id: string;
  readonly meeting: RoomMeeting;
  readonly startedAt: Date;
  readonly members: Map<string, MemberState>;
  /** sessionKey → member id, for signed-in members (guests come back with their join token). */
  readonly bySession: Map<string, string>;
  /** True once an admitted participant connected (the meeting went live). */
  wentLive: boolean;
  /** True once the room was ended (its meeting deleted): everyone was sent away. */
  ended: boolean;
  /** The host's Mute All is on: non-hosts are muted, and those who come in later join muted. */
  allMuted: boolean;
  /**
   * The deny list: participants the host removed, by deny key, with the id and name they had
   * (what the hosts see, and what allow_rejoin names). They cannot join this room again until a
   * host lifts it.
   */
  readonly denied: Map<string, RemovedEntry>;
  /** Live transcription, while it is on (a Pro participant started it); null while off. */
  transcription: Transcription | null;
}

export function newRoom(meeting: RoomMeeting): RoomState {
  return {
    id: meeting.id,
    meeting: { ...meeting },
    startedAt: new Date(),
    members: new Map(),
    bySession: new Map(),
    wentLive: false,
    ended: false,
    allMuted: false,
    denied: new Map(),
    transcription: null,
  };
}

/** The transcription state as every participant sees it. */
export function transcriptionState(room: RoomState): TranscriptionState {
  const t = room.transcription;
  return t
    ? { active: true, startedBy: { ...t.startedBy }, startedAt: new Date(t.startedAt).toISOString() }
    : { active: false, startedBy: null, startedAt: null };
}

/** A participant on the deny list, as the hosts see it. */
export interface RemovedEntry {
  id: string;
  name: string;
}

/** The deny list, as the hosts see it. */
export function removedList(room: RoomState): RemovedEntry[] {
  return [...room.denied.values()].map((e) => ({ id: e.id, name: e.name }));
}

/**
 * Who a removed participant is, for the deny list: the signed-in user (any browser), or else the
 * browser's session id (a guest).
 */
export const denyKeyOf = (userId: string | null, sessionId: string): string =>
  userId ? `user:${userId}` : `session:${sessionId}`;

export function toRoomParticipant(m: MemberState): RoomParticipant {
  return {
    id: m.id,
    name: m.name,
    isHost: m.isHost,
    isMuted: m.isMuted,
    isVideoOn: m.isVideoOn,
    isScreenSharing: m.isScreenSharing,
    isConnected: m.socketId !== null,
    // Only when answered: absent means no answer (as from a server without consent).
    ...(m.transcriptionConsent ? { transcriptionConsent: m.transcriptionConsent } : {}),
  };
}

/** Participants shown to others: admitted and announced. */
export function roster(room: RoomState, exceptId?: string): RoomParticipant[] {
  const list: RoomParticipant[] = [];
  for (const m of room.members.values()) {
    if (m.announced && m.admission === 'admitted' && m.id !== exceptId) list.push(toRoomParticipant(m));
  }
  return list;
}

/** The waiting room, as the hosts see it. */
export function waitingList(room: RoomState): Array<{ id: string; name: string }> {
  const list = [];
  for (const m of room.members.values()) {
    // A knocker whose socket went is not at the door (it is listed again if it comes back).
    if (m.admission === 'waiting' && !(m.everConnected && m.socketId === null)) {
      list.push({ id: m.id, name: m.name });
    }
  }
  return list;
}

export function memberBySession(room: RoomState, sessionKey: string): MemberState | undefined {
  const id = room.bySession.get(sessionKey);
  return id ? room.members.get(id) : undefined;
}

/** The member a join token (its SHA-256) names in this room. */
export function memberByToken(room: RoomState, tokenHash: string): MemberState | undefined {
  for (const m of room.members.values()) if (m.tokenHash === tokenHash) return m;
  return undefined;
}

/** Admitted participants who take a seat: every one but the hosts (a host always gets in). */
/** Whether the room is at its peer-to-peer cap (RoomMeeting.meshCap: everyone admitted counts). */
export function overMeshCap(room: RoomState): boolean {
  const cap = room.meeting.meshCap;
  if (!cap) return false;
  let n = 0;
  for (const m of room.members.values()) if (m.admission === 'admitted') n += 1;
  return n >= cap;
}

export function seatsTaken(room: RoomState): number {
  let n = 0;
  for (const m of room.members.values()) if (m.admission === 'admitted' && !m.isHost) n += 1;
  return n;
}

export function waitingCount(room: RoomState): number {
  let n = 0;
  for (const m of room.members.values()) if (m.admission === 'waiting') n += 1;
  return n;
}
