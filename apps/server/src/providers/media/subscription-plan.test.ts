import { SFU_VIEW } from '@parley/protocol/constants';
import type { SubscriberStream } from 'janode/plugins/videoroom';
import { describe, expect, it } from 'vitest';
import { RoomSpeakers } from './janus-speakers.js';
import {
  keyOf,
  layerChanges,
  subscriptionChanges,
  unsubscribeEntries,
  wantedStreams,
  type RoomFeeds,
  type StreamKey,
  type Subscriber,
} from './subscription-plan.js';
import type { SfuLayer } from './types.js';

/** A room whose publishers `ids` are up, each with audio on mid 0 and video on mid 1. */
function roomOf(ids: string[], speakers = new RoomSpeakers()): RoomFeeds {
  return {
    feeds: new Set(ids),
    mids: new Map(ids.map((id) => [id, { audio: '0', video: '1' }])),
    speakers,
  };
}

function subscriber(
  id: string,
  view: [string, SfuLayer][] | null = null,
  subscribed: StreamKey[] = [],
): Subscriber {
  return { id, view: view && new Map(view), subscribed: new Set(subscribed) };
}

const keys = (m: Map<StreamKey, unknown>) => [...m.keys()].sort();
const publishers = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

describe('the subscription plan', () => {
  it("receives everyone's audio and video but one's own, before the browser says what it shows", () => {
    expect(keys(wantedStreams(roomOf(['a', 'b', 'c']), subscriber('a')))).toEqual([
      'b/audio',
      'b/video',
      'c/audio',
      'c/video',
    ]);
  });

  it('receives only the videos the browser shows, and still everyone’s audio', () => {
    const plan = wantedStreams(roomOf(['a', 'b', 'c']), subscriber('a', [['c', 0]]));
    expect(keys(plan)).toEqual(['b/audio', 'c/audio', 'c/video']);
  });

  it(`receives the audio of the last ${SFU_VIEW.audioLastN} speakers in a larger room, talking ones first`, () => {
    const ids = publishers(SFU_VIEW.audioLastN + 2);
    const speakers = new RoomSpeakers();
    const last = ids.at(-1)!;
    speakers.heard(last, true);
    const audio = keys(wantedStreams(roomOf(['me', ...ids], speakers), subscriber('me', [])));
    expect(audio).toHaveLength(SFU_VIEW.audioLastN);
    expect(audio).toContain(keyOf(last, 'audio'));
    // Nobody else has spoken: the first to publish fill the rest.
    expect(audio).toContain(keyOf(ids[0]!, 'audio'));
    expect(audio).not.toContain(keyOf(ids.at(-2)!, 'audio'));
  });

  it('adds what is wanted and not received, drops what is received and no longer wanted', () => {
    const room = roomOf(['a', 'b', 'c']);
    const me = subscriber('a', [['b', 2]], ['b/audio', 'b/video', 'c/audio', 'c/video']);
    const { add, drop } = subscriptionChanges(room, me);
    expect(add).toEqual([]);
    expect(drop).toEqual(['c/video']);
    expect(unsubscribeEntries(room, drop)).toEqual([{ feed: 'c', mid: '1' }]);
  });

  it('leaves the streams of a publisher that is gone to Janus (it renegotiates by itself)', () => {
    const me = subscriber('a', null, ['b/audio', 'b/video', 'gone/audio']);
    expect(subscriptionChanges(roomOf(['a', 'b']), me)).toEqual({ add: [], drop: [] });
  });

  it("asks for a video's layer only when it changes from what was asked (the top one to begin with)", () => {
    const streams = [
      { type: 'video', active: true, mid: '1', feed_id: 'b' },
      { type: 'video', active: true, mid: '3', feed_id: 'c' },
      { type: 'audio', active: true, mid: '0', feed_id: 'b' },
    ] as SubscriberStream[];
    const first = layerChanges(
      streams,
      new Map<string, SfuLayer>([
        ['b', 2],
        ['c', 0],
      ]),
      new Map(),
    );
    expect(first.changes).toEqual([{ mid: '3', substream: 0 }]);
    expect([...first.feeds]).toEqual(['c']);
    expect(layerChanges(streams, new Map([['c', 0]]), first.current).changes).toEqual([]);
  });
});

describe('the speakers of a room', () => {
  it('makes the last one heard starting to talk the active speaker, once', () => {
    const speakers = new RoomSpeakers();
    expect(speakers.heard('b', true)).toEqual({ started: true, speakerChanged: true });
    expect(speakers.heard('b', true)).toEqual({ started: false, speakerChanged: false });
    expect(speakers.heard('b', false)).toEqual({ started: false, speakerChanged: false });
    expect(speakers.heard('b', true)).toEqual({ started: true, speakerChanged: false });
    expect(speakers.heard('c', true)).toEqual({ started: true, speakerChanged: true });
    expect(speakers.speaker).toBe('c');
  });

  it('hands the active speaker back to the one who spoke before, when it leaves', () => {
    const speakers = new RoomSpeakers();
    speakers.heard('a', true);
    speakers.heard('b', true);
    speakers.heard('c', true);
    expect(speakers.left('a')).toBe(false);
    expect(speakers.left('c')).toBe(true);
    expect(speakers.speaker).toBe('b');
    expect(speakers.left('b')).toBe(true);
    expect(speakers.speaker).toBeNull();
  });
});
