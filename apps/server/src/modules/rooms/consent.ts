import type { TranscriptionConsent } from '@parley/protocol';
import type { MemberState, RoomState } from './state.js';

/**
 * Consent to transcription (issue 34) as pure steps on the room's state, for the RoomService.
 * Each participant answers the transcription notice: `allowed` holds until transcription is
 * turned off (the next start asks again), `declined` holds until the participant allows again.
 * No answer is no consent: nobody is transcribed before saying Continue, except the one who
 * turned transcription on (pressing Start is its answer).
 */

/** A member's answer (rooms stored before consent existed have none). */
export const consentOf = (m: MemberState): TranscriptionConsent => m.transcriptionConsent ?? null;

/**
 * Whether the server may transcribe this member's audio now: transcription is on, the member is
 * in the room, not muted, and allowed it.
 */
export function transcribable(room: RoomState | undefined, m: MemberState | undefined): boolean {
  return (
    !!room?.transcription && !!m && m.admission === 'admitted' && !m.isMuted && consentOf(m) === 'allowed'
  );
}

/**
 * What the transcript says about a changed answer while transcription is on: a decline, or
 * allowing again after one. Null when nothing is worth a line (a first Continue, an unchanged
 * answer, or no transcription running).
 */
export type ConsentNotice = 'declined' | 'allowed' | null;

/**
 * Records a member's answer. `allowed` while transcription is off only lifts a decline (there is
 * nothing to consent to yet: the next start asks again).
 */
export function answer(
  room: RoomState,
  member: MemberState,
  consent: 'allowed' | 'declined',
): { changed: boolean; notice: ConsentNotice } {
  const before = consentOf(member);
  const next = consent === 'allowed' && !room.transcription ? null : consent;
  member.transcriptionConsent = next;
  const changed = before !== next;
  let notice: ConsentNotice = null;
  if (room.transcription && changed) {
    if (next === 'declined') notice = 'declined';
    else if (before === 'declined') notice = 'allowed';
  }
  return { changed, notice };
}

/** Transcription was turned on by `starter`: its press is its consent. Answers who changed. */
export function started(starter: MemberState): MemberState[] {
  if (consentOf(starter) === 'allowed') return [];
  starter.transcriptionConsent = 'allowed';
  return [starter];
}

/** Transcription was turned off: every Continue is forgotten, declines stay. Answers who changed. */
export function stopped(room: RoomState): MemberState[] {
  const changed: MemberState[] = [];
  for (const m of room.members.values()) {
    if (consentOf(m) !== 'allowed') continue;
    m.transcriptionConsent = null;
    changed.push(m);
  }
  return changed;
}

/** The participants in the room who declined (the transcript names them when it starts). */
export function decliners(room: RoomState): Array<{ id: string; name: string }> {
  const list: Array<{ id: string; name: string }> = [];
  for (const m of room.members.values()) {
    if (m.admission === 'admitted' && consentOf(m) === 'declined') list.push({ id: m.id, name: m.name });
  }
  return list;
}
