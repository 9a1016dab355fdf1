import { EventEmitter } from 'node:events';
import { SFU_VIEW } from '@parley/protocol/constants';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadJanode } from './janode-loader.js';
import { JanusMedia } from './janus-media.js';
import { TALKING_LEVEL, TALKING_PACKETS } from './janus-speakers.js';
import { LAYER_KEYFRAME_MS, SFU_ANSWER_TIMEOUT_MS, SFU_LATE_UPDATE_MS } from './janus-subscriptions.js';
import { midsOf } from './subscription-plan.js';
import { JANUS_REQUEST_TIMEOUT_MS } from './janus-client.js';
import type { SfuStream } from './types.js';

const janode = await loadJanode();

/**
 * JanusMedia against a stand-in for Janus's VideoRoom (the handles janode would give): what it
 * asks of Janus for the active speaker, the per-tile simulcast layers, the visible videos and
 * last-N audio. The stand-in keeps a multistream subscription as Janus does (one m-line per
 * subscribed publisher stream, `active` false once unsubscribed) and answers every request.
 */

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const PUBLISHER_OFFER =
  'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n' +
  'm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\na=sendonly\r\n' +
  'm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:1\r\na=sendonly\r\n';

interface SubStream {
  type: 'audio' | 'video';
  active: boolean;
  mid: string;
  feed_id: string;
  feed_mid: string;
}

class FakeHandle extends EventEmitter {
  streams: SubStream[] = [];
  updates: { subscribe?: { feed: string; mid: string }[]; unsubscribe?: { feed: string; mid: string }[] }[] =
    [];
  configures: { mid: string; substream?: number }[][] = [];

  constructor(readonly janus: FakeJanus) {
    super();
  }
  create = vi.fn(async () => ({}));
  destroy = vi.fn(async () => ({}));
  joinConfigurePublisher = vi.fn(async (p: Record<string, unknown>) => {
    this.janus.publishers.set(String(p.feed), this);
    return { jsep: { type: 'answer' as const, sdp: 'v=0\r\n' } };
  });
  private add(list: { feed: string; mid: string }[]): void {
    for (const { feed, mid } of list) {
      const type = mid === '0' ? 'audio' : 'video';
      const reuse = this.streams.find((s) => !s.active && s.type === type);
      if (reuse) Object.assign(reuse, { active: true, feed_id: feed, feed_mid: mid });
      else
        this.streams.push({
          type,
          active: true,
          mid: String(this.streams.length),
          feed_id: feed,
          feed_mid: mid,
        });
    }
  }
  private answer() {
    return {
      jsep: { type: 'offer' as const, sdp: `v=0\r\n${this.streams.length}` },
      streams: this.streams.map((s) => ({ ...s })),
    };
  }
  joinSubscriber = vi.fn(async (p: { streams: { feed: string; mid: string }[] }) => {
    this.janus.subscribers.push(this);
    this.add(p.streams);
    return this.answer();
  });
  update = vi.fn(async (p: FakeHandle['updates'][number]) => {
    this.updates.push(p);
    this.add(p.subscribe ?? []);
    for (const u of p.unsubscribe ?? []) {
      const s = this.streams.find((x) => x.active && x.feed_id === u.feed && x.feed_mid === u.mid);
      if (s) s.active = false;
    }
    return this.answer();
  });
  keyframes = 0;
  configure = vi.fn(async (p: { streams?: { mid: string; substream?: number }[]; keyframe?: boolean }) => {
    if (p.keyframe) this.keyframes += 1;
    if (p.streams) this.configures.push(p.streams);
    return {};
  });
  start = vi.fn(async () => ({}));
  trickle = vi.fn(async () => ({}));
  trickleComplete = vi.fn(async () => ({}));
  detach = vi.fn(async () => undefined);

  /** Whose streams (of `kind`) the subscription carries now. */
  receiving(kind: 'audio' | 'video'): string[] {
    return this.streams
      .filter((s) => s.active && s.type === kind)
      .map((s) => s.feed_id)
      .sort();
  }
  /** The substream last asked for the video of `feed`. */
  layerOf(feed: string): number | undefined {
    const mid = this.streams.find((s) => s.active && s.type === 'video' && s.feed_id === feed)?.mid;
    let layer: number | undefined;
    for (const c of this.configures) for (const s of c) if (s.mid === mid) layer = s.substream;
    return layer;
  }
}

class FakeJanus {
  handles: FakeHandle[] = [];
  publishers = new Map<string, FakeHandle>();
  subscribers: FakeHandle[] = [];
  attach = async (): Promise<VideoRoomHandle> => {
    const h = new FakeHandle(this);
    this.handles.push(h);
    return h as unknown as VideoRoomHandle;
  };
  /** Janus's `talking` / `stopped-talking` for `feed`, as every publisher's handle hears it. */
  talk(feed: string, talking: boolean): void {
    for (const h of this.publishers.values()) h.emit('videoroom_talking', { feed, talking });
  }
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('JanusMedia: active speaker, layers, visible videos, last-N audio (stand-in Janus)', () => {
  let janus: FakeJanus;
  let media: JanusMedia;
  let speakers: (string | null)[];
  let offers: { participantId: string; offerId: number; streams: SfuStream[] }[];
  /** Offers the browser never sees (gone out on a dying socket). */
  let lostOffers = 0;
  /** While set, offers wait here for the test to answer them (a slow page). */
  let held: { participantId: string; offerId: number }[] | null;

  beforeEach(() => {
    janus = new FakeJanus();
    speakers = [];
    offers = [];
    lostOffers = 0;
    held = null;
    media = new JanusMedia(
      { janode, url: 'ws://127.0.0.1:1', apiSecret: 'x', log },
      {
        onOffer: (roomId, participantId, offerId, _offer, streams) => {
          offers.push({ participantId, offerId, streams });
          if (lostOffers > 0) {
            lostOffers -= 1;
            return;
          }
          if (held) {
            held.push({ participantId, offerId });
            return;
          }
          // The browser answers at once.
          setTimeout(
            () => void media.answer(roomId, participantId, offerId, { type: 'answer', sdp: 'v=0\r\n' }),
            0,
          );
        },
        onActiveSpeaker: (_roomId, participantId) => speakers.push(participantId),
        onLost: () => undefined,
        onRecovered: () => undefined,
      },
    );
    vi.spyOn(media.client, 'attach').mockImplementation(janus.attach);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
  });

  /** `id` publishes, and its publisher connection comes up. */
  async function publishes(id: string): Promise<void> {
    await media.publish('r', id, { type: 'offer', sdp: PUBLISHER_OFFER });
    janus.publishers.get(id)!.emit('handle_webrtcup');
  }

  /** `ids` publish (media up) and subscribe. */
  async function room(ids: string[]): Promise<void> {
    for (const id of ids) {
      await publishes(id);
    }
    for (const id of ids) await media.subscribe('r', id);
    await settle();
  }
  /** The subscription of `id`: the one that has everyone's streams but its own. */
  const subscriberOf = (id: string): FakeHandle => {
    const h = janus.subscribers.find((x) => x.streams.length > 0 && x.streams.every((s) => s.feed_id !== id));
    expect(h, `subscriber of ${id}`).toBeDefined();
    return h!;
  };

  it('reads the publisher offer’s audio and video mids', () => {
    expect(midsOf(PUBLISHER_OFFER)).toEqual({ audio: '0', video: '1' });
    expect(midsOf('v=0\r\nm=video 9 X 96\r\na=mid:v\r\nm=audio 9 X 111\r\na=mid:a\r\n')).toEqual({
      audio: 'a',
      video: 'v',
    });
  });

  it('publishes again after a reload even while Janus still holds the old feed id (436)', async () => {
    await media.publish('r', 'a', { type: 'offer', sdp: PUBLISHER_OFFER });
    // The reloaded page's publish: Janus has acknowledged the old handle's detach but answers
    // 436 twice before it lets the id go.
    const refusals = { left: 2 };
    const realAttach = janus.attach;
    vi.spyOn(media.client, 'attach').mockImplementation(async () => {
      const h = (await realAttach()) as unknown as FakeHandle;
      const join = h.joinConfigurePublisher.getMockImplementation()!;
      h.joinConfigurePublisher.mockImplementation(async (p: Record<string, unknown>) => {
        if (refusals.left-- > 0) throw new Error('436 User ID a already exists');
        return join(p);
      });
      return h as unknown as VideoRoomHandle;
    });
    await expect(media.publish('r', 'a', { type: 'offer', sdp: PUBLISHER_OFFER })).resolves.toMatchObject({
      type: 'answer',
    });
    expect(janus.handles.at(-1)!.joinConfigurePublisher).toHaveBeenCalledTimes(3);
    // Any other refusal is not retried.
    refusals.left = 0;
    const other = janus.handles.length;
    vi.spyOn(media.client, 'attach').mockImplementation(async () => {
      const h = (await realAttach()) as unknown as FakeHandle;
      h.joinConfigurePublisher.mockImplementation(async () => {
        throw new Error('433 Unauthorized');
      });
      return h as unknown as VideoRoomHandle;
    });
    await expect(media.publish('r', 'a', { type: 'offer', sdp: PUBLISHER_OFFER })).rejects.toThrow('433');
    expect(janus.handles[other]!.joinConfigurePublisher).toHaveBeenCalledTimes(1);
  });

  it('creates the Janus room with talking events on', async () => {
    await room(['a', 'b', 'c']);
    const control = janus.handles[0]!;
    expect(control.create).toHaveBeenCalledWith(
      expect.objectContaining({
        talking_events: true,
        talking_level_threshold: TALKING_LEVEL,
        talking_packets_threshold: TALKING_PACKETS,
      }),
    );
  });

  it('names the active speaker once per change, and the previous one when they leave', async () => {
    await room(['a', 'b', 'c']);
    expect(media.activeSpeaker('r')).toBeNull();
    janus.talk('b', true); // heard on all three publisher handles: one change
    expect(speakers).toEqual(['b']);
    janus.talk('b', false);
    janus.talk('c', true);
    janus.talk('c', false);
    janus.talk('b', true);
    expect(speakers).toEqual(['b', 'c', 'b']);
    expect(media.activeSpeaker('r')).toBe('b');
    janus.talk('zz', true); // not a publisher of this room
    expect(speakers).toHaveLength(3);
    await media.leave('r', 'b');
    expect(speakers.at(-1)).toBe('c');
    expect(media.activeSpeaker('r')).toBe('c');
  });

  it('gives each tile its layer and receives video only for the tiles shown', async () => {
    await room(['a', 'b', 'c', 'd']);
    const subA = subscriberOf('a');
    // Before the page says what it shows: everyone's audio and video, the top layer.
    expect(subA.receiving('audio')).toEqual(['b', 'c', 'd']);
    expect(subA.receiving('video')).toEqual(['b', 'c', 'd']);
    // The top layer is Janus's default for a new stream: nothing is asked.
    expect(subA.configures).toEqual([]);

    // Stage b (high), thumbnail c (low); d is on another page: its video goes, its audio stays.
    await media.view('r', 'a', [
      { participantId: 'b', layer: 2 },
      { participantId: 'c', layer: 0 },
    ]);
    await settle();
    expect(subA.receiving('video')).toEqual(['b', 'c']);
    expect(subA.receiving('audio')).toEqual(['b', 'c', 'd']);
    expect(subA.layerOf('b')).toBeUndefined(); // still the default, the top
    expect(subA.layerOf('c')).toBe(0);
    expect(subA.updates.at(-1)).toEqual({ unsubscribe: [{ feed: 'd', mid: '1' }] });

    // c speaks and moves to the stage, b to a thumbnail, d to the page: layers swap, d's video back.
    const configuresBefore = subA.configures.length;
    await media.view('r', 'a', [
      { participantId: 'c', layer: 2 },
      { participantId: 'b', layer: 0 },
      { participantId: 'd', layer: 0 },
    ]);
    await settle();
    expect(subA.receiving('video')).toEqual(['b', 'c', 'd']);
    expect(subA.layerOf('c')).toBe(2);
    expect(subA.layerOf('b')).toBe(0);
    expect(subA.layerOf('d')).toBe(0);
    expect(subA.configures.length).toBeGreaterThan(configuresBefore);
    // The same view again asks Janus nothing.
    const requests = subA.updates.length + subA.configures.length;
    await media.view('r', 'a', [
      { participantId: 'c', layer: 2 },
      { participantId: 'b', layer: 0 },
      { participantId: 'd', layer: 0 },
    ]);
    await settle();
    expect(subA.updates.length + subA.configures.length).toBe(requests);
    // Its own id, or someone not publishing, is ignored.
    await media.view('r', 'a', [
      { participantId: 'a', layer: 2 },
      { participantId: 'nobody', layer: 2 },
    ]);
    await settle();
    expect(subA.receiving('video')).toEqual([]);
    expect(subA.receiving('audio')).toEqual(['b', 'c', 'd']);
  });

  it('asks a publisher for a key frame for a shown video, once per pair per interval', async () => {
    await room(['a', 'b', 'c']);
    await media.view('r', 'a', [{ participantId: 'b', layer: 2 }]);
    await settle();
    const keyframes = () => ({
      b: janus.publishers.get('b')!.keyframes,
      c: janus.publishers.get('c')!.keyframes,
    });
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    await expect(media.keyframe('r', 'a', 'b')).resolves.toBe(true);
    expect(keyframes()).toEqual({ b: 1, c: 0 });
    // Again at once: the pair is rate-limited; another pair is not.
    await expect(media.keyframe('r', 'a', 'b')).resolves.toBe(false);
    await expect(media.keyframe('r', 'c', 'b')).resolves.toBe(true);
    expect(keyframes()).toEqual({ b: 2, c: 0 });
    // A video a does not receive (c is on another page), itself, or nobody: nothing is asked.
    await expect(media.keyframe('r', 'a', 'c')).resolves.toBe(false);
    await expect(media.keyframe('r', 'a', 'a')).resolves.toBe(false);
    await expect(media.keyframe('r', 'a', 'nobody')).resolves.toBe(false);
    await expect(media.keyframe('other-room', 'a', 'b')).resolves.toBe(false);
    expect(keyframes()).toEqual({ b: 2, c: 0 });
    now += SFU_VIEW.keyframeEveryMs;
    await expect(media.keyframe('r', 'a', 'b')).resolves.toBe(true);
    expect(keyframes()).toEqual({ b: 3, c: 0 });
  });

  it('asks a publisher for one key frame after a burst of layer changes for its video', async () => {
    await room(['a', 'b', 'c', 'd']);
    const keyframes = () => ['b', 'c', 'd'].map((id) => janus.publishers.get(id)!.keyframes);
    // b speaks: a and d put b on the stage (the top layer, Janus's default: no change) and the
    // others on thumbnails (low: a change for c and d's videos at a, c's at d).
    await media.view('r', 'a', [
      { participantId: 'b', layer: 2 },
      { participantId: 'c', layer: 0 },
      { participantId: 'd', layer: 0 },
    ]);
    await media.view('r', 'd', [
      { participantId: 'b', layer: 2 },
      { participantId: 'c', layer: 0 },
    ]);
    await settle();
    expect(keyframes()).toEqual([0, 0, 0]);
    await new Promise((r) => setTimeout(r, LAYER_KEYFRAME_MS + 100));
    // One request each for c and d (c's two changes make one), none for b.
    expect(keyframes()).toEqual([0, 1, 1]);
  });

  it('in a large room receives the audio of the last N speakers only, adding a new speaker', async () => {
    const n = SFU_VIEW.audioLastN;
    const ids = Array.from({ length: n + 3 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    await room(ids);
    const subFirst = subscriberOf(ids[0]!);
    const others = ids.slice(1);
    // Nobody has spoken: the first N to publish.
    expect(subFirst.receiving('audio')).toEqual(others.slice(0, n));
    const quiet = others.at(-1)!;
    expect(subFirst.receiving('audio')).not.toContain(quiet);
    janus.talk(quiet, true);
    await settle();
    expect(subFirst.receiving('audio')).toContain(quiet);
    expect(subFirst.receiving('audio')).toHaveLength(n);
    // The speaker's own subscription does not carry itself.
    const subQuiet = subscriberOf(quiet);
    expect(subQuiet.receiving('audio')).not.toContain(quiet);
    expect(subQuiet.receiving('audio')).toHaveLength(n);
  });

  it('tries a failed subscription update again, so a newcomer is not missed for good', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    expect(subA.receiving('video')).toEqual(['b']);
    // Janus refuses the next update once (as while a renegotiation of its own is under way).
    subA.update.mockRejectedValueOnce(new Error('renegotiation in progress'));
    await publishes('c');
    await settle();
    expect(subA.receiving('video')).toEqual(['b']);
    await new Promise((r) => setTimeout(r, 1200));
    expect(subA.receiving('video')).toEqual(['b', 'c']);
    expect(subA.receiving('audio')).toEqual(['b', 'c']);
  });

  it('takes a subscription update that Janus answers after the request timeout, sending it once', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    vi.useFakeTimers();
    try {
      // Janus (starved) answers a's next update 2 s after the request timeout.
      const answers = subA.update.getMockImplementation()!;
      subA.update.mockImplementationOnce(
        (p) =>
          new Promise((resolve) => setTimeout(() => resolve(answers(p)), JANUS_REQUEST_TIMEOUT_MS + 2000)),
      );
      const sent = offers.length;
      await publishes('c');
      await vi.advanceTimersByTimeAsync(JANUS_REQUEST_TIMEOUT_MS + 1000);
      expect(offers.slice(sent).filter((o) => o.participantId === 'a')).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1100);
      // Its offer went to a's page and was answered: the subscription carries c, and no second
      // update asked Janus for c again.
      expect(offers.slice(sent).filter((o) => o.participantId === 'a')).toHaveLength(1);
      expect(subA.receiving('video')).toEqual(['b', 'c']);
      expect(subA.update).toHaveBeenCalledTimes(1);
      expect(subA.start).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(SFU_LATE_UPDATE_MS);
      expect(subA.update).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  /** c publishes; the offer that brings c to a is lost on its way (a's socket was dying). */
  async function newcomerWhoseOfferToALost() {
    lostOffers = 1;
    const sent = offers.length;
    await publishes('c');
    await vi.advanceTimersByTimeAsync(10);
    return () => offers.slice(sent).filter((o) => o.participantId === 'a');
  }

  it('takes a second answer to an offer already answered without an error, and without using it', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    const starts = subA.start.mock.calls.length;
    const last = offers.filter((o) => o.participantId === 'a').at(-1)!;
    await expect(
      media.answer('r', 'a', last.offerId, { type: 'answer', sdp: 'v=0\r\n' }),
    ).resolves.toBeUndefined();
    await settle();
    expect(subA.start).toHaveBeenCalledTimes(starts);
  });

  it('does not take a late answer to an offer sent again for the answer to a newer offer', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    const starts = subA.start.mock.calls.length;
    /** a's page answers the offer `offerId`; says how often Janus's subscriber started since. */
    const answer = async (offerId: number) => {
      await media.answer('r', 'a', offerId, { type: 'answer', sdp: 'v=0\r\n' });
      await vi.advanceTimersByTimeAsync(10);
      return subA.start.mock.calls.length - starts;
    };
    held = [];
    vi.useFakeTimers();
    try {
      // c comes; a's page is slow: the offer bringing c is sent again before a answers it.
      await publishes('c');
      await vi.advanceTimersByTimeAsync(SFU_ANSWER_TIMEOUT_MS + 10);
      const toC = held.filter((o) => o.participantId === 'a');
      expect(toC).toHaveLength(2);
      expect(toC[1]!.offerId).toBe(toC[0]!.offerId);
      // a answers the first copy: Janus's subscriber starts with it.
      expect(await answer(toC[0]!.offerId)).toBe(1);
      // d comes: a newer offer waits for a's answer, and a's answer to the second copy comes first.
      held.length = 0;
      await publishes('d');
      await vi.advanceTimersByTimeAsync(10);
      const toD = held.filter((o) => o.participantId === 'a');
      expect(toD).toHaveLength(1);
      expect(toD[0]!.offerId).toBeGreaterThan(toC[0]!.offerId);
      expect(await answer(toC[1]!.offerId)).toBe(1);
      // The answer to d's offer is the one taken.
      expect(await answer(toD[0]!.offerId)).toBe(2);
      expect(subA.receiving('video')).toEqual(['b', 'c', 'd']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends an unanswered subscriber offer again: it may have gone out on a dying socket', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    vi.useFakeTimers();
    try {
      const toA = await newcomerWhoseOfferToALost();
      expect(toA()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(SFU_ANSWER_TIMEOUT_MS + 10);
      // Sent again, answered this time: the subscription takes the newcomer.
      expect(toA()).toHaveLength(2);
      expect(subA.receiving('video')).toEqual(['b', 'c']);
      expect(subA.start).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends an unanswered subscriber offer again at once when the page resumes', async () => {
    await room(['a', 'b']);
    const subA = subscriberOf('a');
    expect(media.resendOffer('r', 'a')).toBe(false);
    vi.useFakeTimers();
    try {
      const toA = await newcomerWhoseOfferToALost();
      expect(toA()).toHaveLength(1);
      // Long before the answer timeout, a's page is back on a new socket: the same offer again.
      expect(media.resendOffer('r', 'a')).toBe(true);
      await vi.advanceTimersByTimeAsync(10);
      expect(toA()).toHaveLength(2);
      expect(toA()[1]!.streams).toEqual(toA()[0]!.streams);
      expect(toA()[1]!.offerId).toBe(toA()[0]!.offerId);
      expect(subA.receiving('video')).toEqual(['b', 'c']);
      expect(subA.start).toHaveBeenCalledTimes(2);
      // Answered: nothing waits any more.
      expect(media.resendOffer('r', 'a')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
