import { describe, expect, it } from 'vitest';
import { speakerLayout } from './layout';

const ids = ['a', 'b', 'c', 'd', 'e'];

describe('speakerLayout', () => {
  it('puts the active speaker on the stage and the others on the page', () => {
    const l = speakerLayout(ids, 'c', null, 0, 6);
    expect(l).toEqual({ stage: 'c', thumbnails: ['a', 'b', 'd', 'e'], offPage: [], page: 0, pages: 1 });
  });

  it('keeps the stage when the speaker is this participant or gone, else the first participant', () => {
    // `me` is not among the remote ids: speaking myself leaves the stage where it was.
    expect(speakerLayout(ids, 'me', 'd', 0, 6).stage).toBe('d');
    expect(speakerLayout(ids, 'gone', 'also-gone', 0, 6).stage).toBe('a');
    expect(speakerLayout(ids, null, null, 0, 6).stage).toBe('a');
    expect(speakerLayout([], 'x', null, 0, 6)).toEqual({
      stage: null,
      thumbnails: [],
      offPage: [],
      page: 0,
      pages: 1,
    });
  });

  it('pages the thumbnails; participants on other pages are audio only', () => {
    const first = speakerLayout(ids, 'a', null, 0, 2);
    expect(first).toMatchObject({ stage: 'a', thumbnails: ['b', 'c'], offPage: ['d', 'e'], pages: 2 });
    const second = speakerLayout(ids, 'a', null, 1, 2);
    expect(second).toMatchObject({ thumbnails: ['d', 'e'], offPage: ['b', 'c'], page: 1 });
    // A page past the end (people left) is clamped to the last one.
    expect(speakerLayout(['a', 'b', 'c'], 'a', null, 5, 2)).toMatchObject({
      page: 0,
      thumbnails: ['b', 'c'],
    });
  });
});
