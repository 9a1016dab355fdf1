import { SFU_VIEW } from '@parley/protocol/constants';
import type { RoomParticipant } from '@parley/protocol/ws';
import { describe, expect, it } from 'vitest';
import { speakerLayout } from './layout';
import type { RoomSnapshot } from './room-session';
import { participant } from './testing/fakes';
import { mainLayout, sameView, videoView, type VideoLayout } from './video-view';

const me = participant('me', 'Me');
/** `n` remote participants p1…pn, in join order. */
const others = (n: number) => Array.from({ length: n }, (_, i) => participant(`p${i + 1}`, `P${i + 1}`));

function room(
  participants: RoomParticipant[],
  more: Partial<Pick<RoomSnapshot, 'self' | 'mediaMode' | 'activeSpeakerId'>> = {},
) {
  return { self: me, participants, mediaMode: 'sfu' as const, activeSpeakerId: null, ...more };
}

describe('mainLayout', () => {
  it('on the SFU, no speaker yet: the grid', () => {
    expect(mainLayout(room(others(3)), false)).toEqual({ kind: 'grid' });
  });

  it('on the SFU, once someone has spoken: the speaker view', () => {
    expect(mainLayout(room(others(3), { activeSpeakerId: 'p2' }), false)).toEqual({ kind: 'speaker' });
  });

  it('on the SFU, no speaker yet but more than the grid can show: the speaker view', () => {
    expect(mainLayout(room(others(SFU_VIEW.maxVideos)), false)).toEqual({ kind: 'grid' });
    expect(mainLayout(room(others(SFU_VIEW.maxVideos + 1)), false)).toEqual({ kind: 'speaker' });
  });

  it('alone, or on the mesh: the grid, whoever speaks', () => {
    expect(mainLayout(room([], { activeSpeakerId: 'me' }), false)).toEqual({ kind: 'grid' });
    const mesh = room(others(SFU_VIEW.maxVideos + 1), { mediaMode: 'p2p', activeSpeakerId: 'p1' });
    expect(mainLayout(mesh, false)).toEqual({ kind: 'grid' });
  });

  it('a sharer: their screen, whatever the mode and the speaker', () => {
    const list = [participant('p1', 'P1'), participant('p2', 'P2', { isScreenSharing: true })];
    expect(mainLayout(room(list, { activeSpeakerId: 'p1' }), false)).toEqual({
      kind: 'share',
      sharer: list[1],
    });
    expect(mainLayout(room(list, { mediaMode: 'p2p' }), false)).toMatchObject({ sharer: { id: 'p2' } });
  });

  it('this participant sharing: its own screen, as soon as local media says so, before any remote sharer', () => {
    const list = [participant('p1', 'P1', { isScreenSharing: true })];
    expect(mainLayout(room(list), true)).toEqual({ kind: 'share', sharer: { ...me, isScreenSharing: true } });
    const sharing = { ...me, isScreenSharing: true };
    expect(mainLayout(room(list, { self: sharing }), false)).toEqual({ kind: 'share', sharer: sharing });
    // Not joined yet (no self): no screen of ours to show.
    expect(mainLayout(room(others(2), { self: null }), true)).toEqual({ kind: 'grid' });
  });
});

describe('videoView', () => {
  const view = (layout: VideoLayout, participants = others(3)) => videoView(layout, participants, 'me');

  it('grid: every remote video, high (the layers the mesh gave)', () => {
    expect(view({ kind: 'grid' })).toEqual([
      { participantId: 'p1', quality: 'high' },
      { participantId: 'p2', quality: 'high' },
      { participantId: 'p3', quality: 'high' },
    ]);
  });

  it('grid, nobody else: an empty view (no video asked for)', () => {
    expect(view({ kind: 'grid' }, [])).toEqual([]);
  });

  it('speaker view: the stage high, the thumbnails low', () => {
    const l = speakerLayout(['a', 'b', 'c', 'd', 'e'], 'c', null, 0, 6);
    expect(view({ kind: 'speaker', ...l })).toEqual([
      { participantId: 'c', quality: 'high' },
      { participantId: 'a', quality: 'low' },
      { participantId: 'b', quality: 'low' },
      { participantId: 'd', quality: 'low' },
      { participantId: 'e', quality: 'low' },
    ]);
  });

  it('speaker view, a later page: the stage and that page only (other pages are heard, not seen)', () => {
    const second = speakerLayout(['a', 'b', 'c', 'd', 'e'], 'a', null, 1, 2);
    expect(view({ kind: 'speaker', ...second }).map((w) => w.participantId)).toEqual(['a', 'd', 'e']);
  });

  it('speaker view, no stage: only the thumbnails', () => {
    expect(view({ kind: 'speaker', stage: null, thumbnails: ['p1'] })).toEqual([
      { participantId: 'p1', quality: 'low' },
    ]);
    expect(view({ kind: 'speaker', stage: null, thumbnails: [] })).toEqual([]);
  });

  it('sharer: their screen high, the first others’ cameras low, no more than an sfu_view holds', () => {
    const many = others(SFU_VIEW.maxVideos + 2);
    const wants = view({ kind: 'share', sharer: { id: 'p3' } }, many);
    expect(wants).toHaveLength(SFU_VIEW.maxVideos);
    expect(wants[0]).toEqual({ participantId: 'p3', quality: 'high' });
    expect(wants.slice(1)).toEqual(
      ['p1', 'p2', 'p4', 'p5', 'p6', 'p7'].map((participantId) => ({ participantId, quality: 'low' })),
    );
  });

  it('sharer is this participant: only the others’ cameras, low', () => {
    const many = others(SFU_VIEW.maxVideos + 2);
    const wants = view({ kind: 'share', sharer: { id: 'me' } }, many);
    expect(wants).toEqual(
      ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((participantId) => ({ participantId, quality: 'low' })),
    );
  });
});

describe('sameView', () => {
  it('is the same view only with the same videos, qualities and order', () => {
    const a = { participantId: 'a', quality: 'high' as const };
    const b = { participantId: 'b', quality: 'low' as const };
    expect(sameView([a, b], [{ ...a }, { ...b }])).toBe(true);
    expect(sameView([a, b], [b, a])).toBe(false);
    expect(sameView([a, b], [a, { ...b, quality: 'high' }])).toBe(false);
    expect(sameView([a], [a, b])).toBe(false);
    expect(sameView([], [])).toBe(true);
  });
});
