import { describe, expect, it } from 'vitest';
import { answer, decliners, started, stopped, transcribable } from './consent.js';
import type { MemberState, RoomState } from './state.js';

const member = (id: string, extra: Partial<MemberState> = {}) =>
  ({ id, name: id, admission: 'admitted', isMuted: false, ...extra }) as MemberState;
const roomWith = (members: MemberState[], on: boolean) =>
  ({
    members: new Map(members.map((m) => [m.id, m])),
    transcription: on ? { startedBy: { id: 'h', name: 'h' }, startedAt: 0 } : null,
  }) as unknown as RoomState;

describe('consent to transcription', () => {
  it('no answer is no consent; Continue makes a participant transcribable while unmuted', () => {
    const ann = member('Ann');
    const room = roomWith([ann], true);
    expect(transcribable(room, ann)).toBe(false);
    expect(answer(room, ann, 'allowed')).toEqual({ changed: true, notice: null });
    expect(transcribable(room, ann)).toBe(true);
    ann.isMuted = true;
    expect(transcribable(room, ann)).toBe(false);
  });

  it('the transcript hears of a decline and of allowing again, not of a repeated answer', () => {
    const gus = member('Gus');
    const room = roomWith([gus], true);
    expect(answer(room, gus, 'declined')).toEqual({ changed: true, notice: 'declined' });
    expect(answer(room, gus, 'declined')).toEqual({ changed: false, notice: null });
    expect(decliners(room)).toEqual([{ id: 'Gus', name: 'Gus' }]);
    expect(answer(room, gus, 'allowed')).toEqual({ changed: true, notice: 'allowed' });
  });

  it('while off: a decline is kept, Allow only lifts it, and nothing is written', () => {
    const gus = member('Gus');
    const room = roomWith([gus], false);
    expect(answer(room, gus, 'declined')).toEqual({ changed: true, notice: null });
    expect(answer(room, gus, 'allowed')).toEqual({ changed: true, notice: null });
    expect(gus.transcriptionConsent).toBeNull();
  });

  it('starting counts as the starter’s answer; stopping forgets every Continue but keeps declines', () => {
    const hana = member('Hana');
    const ann = member('Ann', { transcriptionConsent: 'allowed' });
    const gus = member('Gus', { transcriptionConsent: 'declined' });
    expect(started(hana)).toEqual([hana]);
    expect(hana.transcriptionConsent).toBe('allowed');
    expect(stopped(roomWith([hana, ann, gus], false)).map((m) => m.id)).toEqual(['Hana', 'Ann']);
    expect([hana, ann, gus].map((m) => m.transcriptionConsent)).toEqual([null, null, 'declined']);
  });
});
