import { NAME_LIMITS } from '@parley/protocol/constants';
import { UNSAFE_TEXT_MESSAGES, unsafeTextReason } from '@parley/protocol/text-rules';
import type { LocalMedia } from './media/local-media';
import type { RoomPreferences } from './preferences';
import type { RoomSession } from './room-session';

/**
 * The meeting page's lifecycle as one value: each phase carries the resources that exist in it
 * and no others, so "in the room without a session" or "ended with the camera on" cannot be
 * written. RoomController is the only thing that moves between phases:
 *
 *   idle     ─start──────────────────→ prejoin (joining at once for a ?name= link or a rejoin)
 *   prejoin  ─join───────────────────→ joining
 *   joining  ─call: password needed──→ password ─submit→ joining
 *   joining  ─socket: waiting────────→ waiting  ─socket: joined (admitted)→ in-room
 *   joining  ─socket: joined─────────→ in-room  ─socket dropped→ reconnecting ─joined→ in-room
 *   any      ─leave, refusal, failure→ ended    ─rejoin→ as start
 *   any      ─stop (page unmounts)───→ idle
 *
 * The rules below are pure and tested on their own.
 */
export type RoomState =
  /** Not started yet, or stopped (the page unmounted). Holds nothing. */
  | { phase: 'idle' }
  /** The pre-join dialog: the camera preview runs. */
  | { phase: 'prejoin'; media: LocalMedia }
  /** The join call, then the socket until the server answers (session null until the call returns). */
  | { phase: 'joining'; media: LocalMedia; session: RoomSession | null }
  /** The meeting asked for a password (`wrong` after a refused one). */
  | { phase: 'password'; media: LocalMedia; wrong: boolean }
  /** Held in the waiting room until the host admits or denies. */
  | { phase: 'waiting'; media: LocalMedia; session: RoomSession }
  | { phase: 'in-room'; media: LocalMedia; session: RoomSession }
  /** In the room, the socket lost; the room stays on screen while it resumes. */
  | { phase: 'reconnecting'; media: LocalMedia; session: RoomSession }
  /** Over: camera, microphone, socket and peer connections are released. */
  | { phase: 'ended'; reason: EndKind; detail: string | null };

export type RoomPhase = RoomState['phase'];

/** Why the room ended, one full-screen text each (StatusScreens). */
export type EndKind =
  | 'not_found'
  | 'ended'
  | 'full'
  | 'rate_limited'
  | 'denied'
  | 'removed'
  | 'left'
  | 'connection_lost'
  | 'replaced'
  /** The free time and its grace ran out without a saved card (spec §4, §8: 'Call Ended'). */
  | 'free_time'
  | 'error';

/** What the person joins as: the display name and whether the microphone and camera are on. */
export interface JoinChoice {
  name: string;
  audio: boolean;
  video: boolean;
}

/** Returns the error text for a display name, or null when it is valid (spec §5). */
export function validateRoomName(raw: string): string | null {
  const name = raw.trim();
  if (name.length < NAME_LIMITS.roomMin) return 'Name must be at least 2 characters';
  if (name.length > NAME_LIMITS.roomMax) return `Name must be at most ${NAME_LIMITS.roomMax} characters`;
  // The server refuses these too (packages/protocol/src/text-rules.ts).
  const unsafe = unsafeTextReason(name);
  if (unsafe) return `Name ${UNSAFE_TEXT_MESSAGES[unsafe]}`;
  return null;
}

/**
 * The join a `?name=` link makes without the dialog (spec §2: "name (skips the join dialog)"), or
 * null when the name is missing or invalid and the dialog must ask. A host link joins with video
 * and audio on (spec §2: "A host with a name … auto-joins with video and audio on"); a guest joins
 * with the Account preferences, whose defaults are the spec's: microphone muted, camera on.
 */
export function linkJoinChoice(
  queryName: string,
  wantsHost: boolean,
  prefs: RoomPreferences,
): JoinChoice | null {
  const name = queryName.trim();
  if (validateRoomName(name) !== null) return null;
  if (wantsHost) return { name, audio: true, video: true };
  return { name, audio: !prefs.joinMuted, video: !prefs.joinCameraOff };
}
