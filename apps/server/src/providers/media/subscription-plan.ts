import { SFU_VIEW } from '@parley/protocol/constants';
import type { SubscriberStream } from 'janode/plugins/videoroom';
import type { SfuLayer, SfuStream } from './types.js';

/**
 * What each participant's Janus subscription should carry, with no I/O: which publishers' audio
 * and video it receives (visible videos, last-N audio), what an update adds and drops, and the
 * simulcast layer each received video needs. janus-subscriptions.ts asks Janus for it.
 */

/** One stream of a subscription: a publisher's audio or video (`feed/kind`). */
export type StreamKey = `${string}/${'audio' | 'video'}`;
export const keyOf = (feed: string, kind: 'audio' | 'video'): StreamKey => `${feed}/${kind}`;
export const feedOfKey = (key: StreamKey): string => key.slice(0, key.lastIndexOf('/'));

/** A stream as a subscription request names it: the publisher (its feed) and the stream's mid. */
export type FeedStream = { feed: string; mid: string };

/** What the plan reads of a room. */
export interface RoomFeeds {
  /** Participants whose publisher is up (their feed exists: subscribing to it cannot 428). */
  readonly feeds: ReadonlySet<string>;
  /** Each publisher's audio and video mid (from its offer): a subscription names streams by them. */
  readonly mids: ReadonlyMap<string, { audio?: string; video?: string }>;
  /** Who talks now, and when each last started (janus-speakers.ts): last-N ranks by it. */
  readonly speakers: SpeakerOrder;
}

export interface SpeakerOrder {
  readonly talking: ReadonlySet<string>;
  readonly spoke: ReadonlyMap<string, number>;
}

/** What the plan reads of a subscriber. */
export interface Subscriber {
  readonly id: string;
  /** The remote videos the browser shows (participant → layer); null until it says (all, high). */
  readonly view: ReadonlyMap<string, SfuLayer> | null;
  /** The publishers' streams the subscriber receives (as last negotiated). */
  readonly subscribed: ReadonlySet<StreamKey>;
}

/**
 * The streams the participant should receive: the audio of every other publisher (of the last
 * SFU_VIEW.audioLastN speakers in a larger room), and the video of those its browser shows.
 */
export function wantedStreams(room: RoomFeeds, me: Subscriber): Map<StreamKey, FeedStream> {
  const feeds = [...room.feeds].filter((f) => f !== me.id);
  const audio = feeds.length <= SFU_VIEW.audioLastN ? feeds : lastSpeakers(room.speakers, feeds);
  const video = me.view ? feeds.filter((f) => me.view!.has(f)) : feeds.slice(0, SFU_VIEW.maxVideos);
  const out = new Map<StreamKey, FeedStream>();
  for (const [kind, list] of [
    ['audio', audio],
    ['video', video],
  ] as const) {
    for (const feed of list) {
      const mid = room.mids.get(feed)?.[kind];
      if (mid !== undefined) out.set(keyOf(feed, kind), { feed, mid });
    }
  }
  return out;
}

/** What a subscription update asks of Janus to bring the subscriber to its wanted streams. */
export function subscriptionChanges(
  room: RoomFeeds,
  me: Subscriber,
): { add: FeedStream[]; drop: StreamKey[] } {
  const want = wantedStreams(room, me);
  const add = [...want].filter(([k]) => !me.subscribed.has(k)).map(([, s]) => s);
  // A stream of a publisher that is gone leaves by itself (Janus renegotiates: autoupdate).
  const drop = [...me.subscribed].filter((k) => !want.has(k) && room.feeds.has(feedOfKey(k)));
  return { add, drop };
}

/** The `unsubscribe` entries of an update for the streams it drops. */
export function unsubscribeEntries(room: RoomFeeds, drop: StreamKey[]): { feed: string; mid?: string }[] {
  return drop.map((k) => {
    const feed = feedOfKey(k);
    return { feed, mid: room.mids.get(feed)?.[k.endsWith('/audio') ? 'audio' : 'video'] };
  });
}

/** Whether a subscription entry names the publisher's audio or video. */
export function kindOf(room: RoomFeeds, s: FeedStream): 'audio' | 'video' {
  return room.mids.get(s.feed)?.audio === s.mid ? 'audio' : 'video';
}

/**
 * Last-N: of `feeds`, the SFU_VIEW.audioLastN whose audio a subscriber receives in a large room —
 * those talking now, then the most recent speakers, then (nobody having spoken) the first to publish.
 */
export function lastSpeakers(speakers: SpeakerOrder, feeds: string[]): string[] {
  const rank = (f: string) => (speakers.talking.has(f) ? Infinity : (speakers.spoke.get(f) ?? -1));
  return feeds
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .slice(0, SFU_VIEW.audioLastN)
    .map((x) => x.f);
}

/**
 * The simulcast layer each received video's tile needs (`mid feed` → layer, the top one for a
 * video the browser has not placed), and what to ask of Janus against the layers asked before:
 * the changed streams, and their publishers (to be asked for a key frame).
 */
export function layerChanges(
  streams: readonly SubscriberStream[],
  view: ReadonlyMap<string, SfuLayer> | null,
  asked: ReadonlyMap<string, SfuLayer>,
): { changes: { mid: string; substream: SfuLayer }[]; feeds: Set<string>; current: Map<string, SfuLayer> } {
  const changes: { mid: string; substream: SfuLayer }[] = [];
  const feeds = new Set<string>();
  const current = new Map<string, SfuLayer>();
  for (const s of streams) {
    if (s.type !== 'video' || !s.active || s.feed_id === undefined) continue;
    const layer = view?.get(String(s.feed_id)) ?? 2;
    const key = `${s.mid} ${String(s.feed_id)}`;
    current.set(key, layer);
    // A new stream starts on Janus's default, the top layer: asking for it again would only
    // send the publisher another key frame request while the subscriber is still connecting.
    const had = asked.get(key) ?? 2;
    if (had !== layer) {
      changes.push({ mid: String(s.mid), substream: layer });
      feeds.add(String(s.feed_id));
    }
  }
  return { changes, feeds, current };
}

/** The publishers' streams an offer of Janus carries (active, not data). */
export function activeStreams(streams: readonly SubscriberStream[]): Set<StreamKey> {
  return new Set(
    streams
      .filter((s) => s.active && s.feed_id !== undefined && s.type !== 'data')
      .map((s) => keyOf(String(s.feed_id), s.type as 'audio' | 'video')),
  );
}

/** A publisher's streams are no longer received (it published again: a new feed). */
export function forgetFeed(m: { subscribed: Set<StreamKey> }, feed: string): void {
  m.subscribed.delete(keyOf(feed, 'audio'));
  m.subscribed.delete(keyOf(feed, 'video'));
}

/** The audio and video mids of a publisher's offer (its first m-line of each kind). */
export function midsOf(sdp: string): { audio?: string; video?: string } {
  const out: { audio?: string; video?: string } = {};
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    const kind = section.slice(0, section.indexOf(' '));
    const mid = /\r?\na=mid:(\S+)/.exec(section)?.[1];
    if ((kind === 'audio' || kind === 'video') && mid !== undefined && out[kind] === undefined)
      out[kind] = mid;
  }
  return out;
}

export function toSfuStream(s: SubscriberStream): SfuStream {
  return {
    mid: String(s.mid),
    participantId: s.feed_id === undefined ? null : String(s.feed_id),
    kind: s.type,
    active: s.active !== false,
  };
}
