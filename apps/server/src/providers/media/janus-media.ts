import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { SFU_VIEW } from '@parley/protocol/constants';
import type { SubscriberStream, VideoRoomHandle } from 'janode/plugins/videoroom';
import { JanusClient, JanusTimeoutError, timed } from './janus-client.js';
import type { SupervisorLog } from './janus-supervisor.js';
import type {
  IceCandidateInit,
  Jsep,
  MediaEvents,
  MediaProvider,
  SfuLayer,
  SfuStream,
  SfuTarget,
  SfuVideoWant,
} from './types.js';

/** ICE candidates kept for a handle not made yet (a browser gathers a few dozen at most). */
const MAX_EARLY_CANDIDATES = 64;
/** A failed subscription update is tried again this much later, this many times in a row at most. */
const SYNC_RETRY_MS = 1000;
/** A republished feed id Janus still holds (436) is tried again this often, this many times. */
const FEED_TAKEN_RETRY_MS = 150;
const FEED_TAKEN_RETRIES = 10;
const SYNC_RETRIES = 3;
/**
 * A subscriber's layer change waits for a key frame of the new layer. Janus asks the publisher for
 * one at once, but Chromium drops a request within 300 ms of another, and a new speaker makes
 * every page change layers within a second or two: the publisher is asked once more this long
 * after the last change of such a burst (until then the old layer keeps playing).
 */
export const LAYER_KEYFRAME_MS = 500;
/** How long a browser may take to answer a subscriber offer. */
export const SFU_ANSWER_TIMEOUT_MS = 10_000;
/**
 * How much longer a subscription update that Janus has not answered within its request timeout
 * is waited for. Janus answers every request it got (a lost connection fails them at once), only
 * late on a starved machine (once over 10 s in CI); a reply taken by nobody would carry an offer
 * nobody negotiates, and a retry would compute its changes against a record Janus no longer has.
 */
export const SFU_LATE_UPDATE_MS = 20_000;
/** Times an unanswered subscriber offer is sent again (each after SFU_ANSWER_TIMEOUT_MS). */
const OFFER_RESENDS = 3;
/** Publishers a Janus room takes: Pro's largest meeting (spec §1: 100). */
const MAX_PUBLISHERS = 100;
/**
 * Janus's talking detection (VideoRoom `audiolevel_event`): a publisher talks when the average
 * audio level (RFC 6464, -dBov: 0 loudest, 127 silence) of its last TALKING_PACKETS packets (20 ms
 * each: half a second) is under TALKING_LEVEL, and stops when it is over again. Janus's defaults
 * (25 over 100 packets) let speech with pauses through only now and then: measured in
 * e2e/tests/sfu.spec.ts, see docs/media.md, "Scale".
 */
export const TALKING_LEVEL = 60;
export const TALKING_PACKETS = 25;
/** janode's event for VideoRoom's `talking` / `stopped-talking`. */
const TALKING = 'videoroom_talking';

/** One stream of a subscription: a publisher's audio or video (`feed/kind`). */
type StreamKey = `${string}/${'audio' | 'video'}`;
const keyOf = (feed: string, kind: 'audio' | 'video'): StreamKey => `${feed}/${kind}`;
const feedOfKey = (key: StreamKey): string => key.slice(0, key.lastIndexOf('/'));

interface Member {
  id: string;
  publisher: VideoRoomHandle | null;
  subscriber: VideoRoomHandle | null;
  /** The publishers' streams the subscriber receives (as last negotiated). */
  subscribed: Set<StreamKey>;
  /** The subscription's streams as Janus last listed them. */
  streams: SubscriberStream[];
  /** The remote videos the browser shows (participant → layer); null until it says (all, high). */
  view: Map<string, SfuLayer> | null;
  /** The simulcast layer asked of Janus for each subscription video stream (`mid feed`). */
  layers: Map<string, SfuLayer>;
  wantsSubscription: boolean;
  /** Subscription updates that failed in a row (each is tried again, SYNC_RETRIES at most). */
  failedSyncs: number;
  /** Subscriber negotiations run one at a time. */
  queue: Promise<void>;
  /**
   * The subscriber offer the browser has not answered yet (sent again when its page resumes), and
   * what settles the wait for its answer.
   */
  pendingOffer: {
    id: number;
    offer: Jsep;
    streams: SfuStream[];
    resolve(a: Jsep): void;
    reject(e: Error): void;
  } | null;
  /** Candidates that came before their handle. */
  early: Record<SfuTarget, (IceCandidateInit | null)[]>;
  /** When this participant last had a publisher asked for a key frame (publisher → ms). */
  keyframeAsked: Map<string, number>;
}

interface Room {
  id: string;
  /** The Janus room id: ours plus a random part (a room left over in an external Janus never clashes). */
  janusId: string;
  secret: string;
  pin: string;
  ready: Promise<void>;
  /** Participants whose publisher is up (their feed exists: subscribing to it cannot 428). */
  feeds: Set<string>;
  /** Each publisher's audio and video mid (from its offer): a subscription names streams by them. */
  mids: Map<string, { audio?: string; video?: string }>;
  /** Publishers Janus hears talking now. */
  talking: Set<string>;
  /** When each publisher last started talking (a counter: larger is later). */
  spoke: Map<string, number>;
  /** The active speaker: the last publisher heard starting to talk (null: none yet, or left). */
  speaker: string | null;
  members: Map<string, Member>;
  /** Publishers to be asked for a key frame after subscribers changed their layer (see LAYER_KEYFRAME_MS). */
  layerKeyframes: Map<string, NodeJS.Timeout>;
}

const token = () => randomBytes(18).toString('hex');

/**
 * The Janus VideoRoom SFU through janode. One Janus room per meeting room, created on first use
 * with a secret and a pin only this server knows; one publisher handle and one multistream
 * subscriber handle per participant. Every Janus request is `timed`.
 */
export class JanusMedia implements MediaProvider {
  readonly kind = 'janus' as const;
  private readonly rooms = new Map<string, Room>();
  private control: Promise<VideoRoomHandle> | null = null;
  private clock = 0;
  /** The last subscriber offer's id (each negotiation gets the next). */
  private offers = 0;
  readonly client: JanusClient;
  readonly recordingDir: string | null;
  /**
   * Rooms being recorded: the recording's file name, and how many publisher connections were
   * recorded so far (each gets its own files). Kept apart from `rooms`, so that a Janus restart
   * (which clears them) does not end a recording: its publishers are recorded again as they
   * publish again.
   */
  private readonly recordings = new Map<string, { name: string; files: number }>();

  constructor(
    opts: { url: string; apiSecret: string; adminKey?: string; recDir?: string | null; log: SupervisorLog },
    private readonly events: MediaEvents,
  ) {
    this.adminKey = opts.adminKey;
    this.recordingDir = opts.recDir ?? null;
    this.log = opts.log;
    this.client = new JanusClient({
      url: opts.url,
      apiSecret: opts.apiSecret,
      log: opts.log,
      onLost: () => {
        // Every handle and room lived on the lost session.
        this.rooms.clear();
        this.control = null;
        this.wasLost = true;
        this.events.onLost();
      },
      onReady: () => {
        if (!this.wasLost) return;
        this.wasLost = false;
        this.events.onRecovered();
      },
    });
  }
  private readonly adminKey: string | undefined;
  private wasLost = false;
  private readonly log: SupervisorLog;

  start(waitMs?: number): Promise<boolean> {
    return this.client.start(waitMs);
  }

  available(): boolean {
    return this.client.ready;
  }

  private controlHandle(): Promise<VideoRoomHandle> {
    this.control ??= this.client.attach().catch((err: unknown) => {
      this.control = null;
      throw err;
    });
    return this.control;
  }

  private room(roomId: string): Room {
    const room = this.rooms.get(roomId);
    if (room) return room;
    const created: Room = {
      id: roomId,
      janusId: `${roomId}-${token().slice(0, 8)}`,
      secret: token(),
      pin: token(),
      ready: Promise.resolve(),
      feeds: new Set(),
      mids: new Map(),
      talking: new Set(),
      spoke: new Map(),
      speaker: null,
      members: new Map(),
      layerKeyframes: new Map(),
    };
    created.ready = this.controlHandle()
      .then((h) =>
        timed(
          h.create({
            room: created.janusId,
            secret: created.secret,
            pin: created.pin,
            admin_key: this.adminKey,
            is_private: true,
            max_publishers: MAX_PUBLISHERS,
            audiocodec: 'opus',
            videocodec: 'vp8',
            notify_joining: false,
            permanent: false,
            talking_events: true,
            talking_level_threshold: TALKING_LEVEL,
            talking_packets_threshold: TALKING_PACKETS,
            // Recording is per publisher (configure record/filename), into our folder only.
            ...(this.recordingDir ? { record: false, rec_dir: this.recordingDir } : {}),
          }),
          'create room',
        ),
      )
      .then(() => undefined);
    created.ready.catch(() => {
      if (this.rooms.get(roomId) === created) this.rooms.delete(roomId);
    });
    this.rooms.set(roomId, created);
    return created;
  }

  private member(room: Room, id: string): Member {
    let m = room.members.get(id);
    if (!m) {
      m = {
        id,
        publisher: null,
        subscriber: null,
        subscribed: new Set(),
        streams: [],
        view: null,
        layers: new Map(),
        wantsSubscription: false,
        failedSyncs: 0,
        queue: Promise.resolve(),
        pendingOffer: null,
        early: { publisher: [], subscriber: [] },
        keyframeAsked: new Map(),
      };
      room.members.set(id, m);
    }
    return m;
  }

  async publish(roomId: string, participantId: string, offer: Jsep): Promise<Jsep> {
    const room = this.room(roomId);
    await room.ready;
    const me = this.member(room, participantId);
    // A fresh page of the same participant publishes again: its old publisher goes first (the
    // feed id is the participant's, and Janus refuses a second one).
    if (me.publisher) {
      await detach(me.publisher);
      me.publisher = null;
      room.feeds.delete(participantId);
      // Janus drops the old feed from every subscriber; the new one is subscribed afresh.
      for (const other of room.members.values()) forgetFeed(other, participantId);
    }
    room.mids.set(participantId, midsOf(offer.sdp));
    const handle = await this.client.attach();
    me.publisher = handle;
    // Every publisher's handle hears the room's talking news (its own and the others'): the state
    // is kept per room, so hearing it several times changes nothing.
    handle.on(TALKING, (data: { feed?: string | number; talking?: boolean }) => {
      if (data.feed === undefined || this.rooms.get(roomId) !== room) return;
      this.talking(room, String(data.feed), data.talking === true);
    });
    // Subscribing to a feed before its media is up answers 428 No such feed: the others are
    // subscribed when Janus says the publisher's connection is up.
    handle.once(WEBRTC_UP, () => {
      if (me.publisher !== handle || room.members.get(participantId) !== me) return;
      room.feeds.add(participantId);
      for (const other of room.members.values()) {
        if (other.id !== participantId && other.wantsSubscription) this.sync(room, other);
      }
    });
    await this.flushEarly(me, 'publisher');
    try {
      const rec = this.recordings.get(roomId);
      const join = () =>
        timed(
          handle.joinConfigurePublisher({
            room: room.janusId,
            pin: room.pin,
            feed: participantId,
            display: participantId,
            audio: true,
            video: true,
            // A publisher of a room being recorded is recorded from its first packet.
            ...(rec ? { record: true, filename: nextFile(rec, participantId) } : {}),
            jsep: offer,
          }),
          'publish',
        );
      // Janus acknowledges the old publisher's detach before it has let go of its feed id: a
      // page publishing again at once (a reload) may hear 436 "already exists" for a moment.
      let res;
      for (let attempt = 1; ; attempt++) {
        try {
          res = await join();
          break;
        } catch (err) {
          if (!String((err as Error).message).startsWith('436') || attempt >= FEED_TAKEN_RETRIES) throw err;
          await new Promise((r) => setTimeout(r, FEED_TAKEN_RETRY_MS));
        }
      }
      if (!res.jsep) throw new Error('Janus answered the publish without an SDP answer');
      return res.jsep;
    } catch (err) {
      // A refused or unanswered publish leaves no handle behind.
      if (me.publisher === handle) me.publisher = null;
      await detach(handle);
      throw err;
    }
  }

  async subscribe(roomId: string, participantId: string): Promise<void> {
    const room = this.room(roomId);
    await room.ready;
    const me = this.member(room, participantId);
    me.wantsSubscription = true;
    // A new subscription (a fresh page): start from nothing.
    if (me.subscriber) {
      const old = me.subscriber;
      me.subscriber = null;
      me.subscribed.clear();
      me.streams = [];
      me.layers.clear();
      me.pendingOffer?.reject(new Error('replaced'));
      await detach(old);
    }
    this.sync(room, me);
  }

  /** Brings the participant's subscription up to the room's feeds (queued, one at a time). */
  private sync(room: Room, me: Member): void {
    me.queue = me.queue
      .then(async () => {
        await this.syncNow(room, me);
        me.failedSyncs = 0;
      })
      .catch((err: unknown) => {
        // Nothing else would bring this subscription up to the room again until the room changes:
        // it is tried again shortly (a renegotiation Janus started by itself may have been in the
        // way), a few times.
        me.failedSyncs += 1;
        const again =
          me.failedSyncs <= SYNC_RETRIES &&
          this.rooms.get(room.id) === room &&
          room.members.get(me.id) === me;
        this.log.warn({ err, participantId: me.id, again }, 'sfu subscription failed');
        if (again) setTimeout(() => this.sync(room, me), SYNC_RETRY_MS).unref();
      });
  }

  /**
   * The streams the participant should receive: the audio of every other publisher (of the last
   * SFU_VIEW.audioLastN speakers in a larger room), and the video of those its browser shows.
   */
  private wanted(room: Room, me: Member): Map<StreamKey, { feed: string; mid: string }> {
    const feeds = [...room.feeds].filter((f) => f !== me.id);
    const audio = feeds.length <= SFU_VIEW.audioLastN ? feeds : lastSpeakers(room, feeds);
    const video = me.view ? feeds.filter((f) => me.view!.has(f)) : feeds.slice(0, SFU_VIEW.maxVideos);
    const out = new Map<StreamKey, { feed: string; mid: string }>();
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

  private async syncNow(room: Room, me: Member): Promise<void> {
    if (!room.members.has(me.id)) return;
    const want = this.wanted(room, me);
    const add = [...want].filter(([k]) => !me.subscribed.has(k)).map(([, s]) => s);
    // A stream of a publisher that is gone leaves by itself (Janus renegotiates: autoupdate).
    const drop = [...me.subscribed].filter((k) => !want.has(k) && room.feeds.has(feedOfKey(k)));
    if (add.length > 0 || drop.length > 0)
      this.log.debug(
        { participantId: me.id, add: add.map((a) => keyOf(a.feed, kindOf(room, a))), drop },
        'sfu subscription changes',
      );
    if (!me.subscriber) {
      if (add.length === 0) return;
      const handle = await this.client.attach();
      handle.on(VideoRoomUpdated, (data: { jsep?: Jsep; streams?: SubscriberStream[] }) => {
        // Janus renegotiates by itself when a publisher we receive leaves (autoupdate).
        if (data.jsep && me.subscriber === handle) {
          me.queue = me.queue
            .then(() => this.negotiate(room, me, handle, data.jsep!, data.streams ?? []))
            .catch((err: unknown) => this.log.warn({ err }, 'sfu renegotiation failed'));
        }
      });
      let res;
      try {
        res = await timed(
          handle.joinSubscriber({ room: room.janusId, pin: room.pin, streams: add }),
          'subscribe',
        );
      } catch (err) {
        await detach(handle);
        throw err;
      }
      // Only a joined subscriber is one: an `update` on one that is not fails (424).
      me.subscriber = handle;
      for (const a of add) me.subscribed.add(keyOf(a.feed, kindOf(room, a)));
      if (res.jsep) await this.negotiate(room, me, handle, res.jsep, res.streams ?? []);
      await this.flushEarly(me, 'subscriber');
      await this.applyLayers(room, me, handle);
      return;
    }
    const handle = me.subscriber;
    if (add.length > 0 || drop.length > 0) {
      const request = handle.update({
        ...(add.length > 0 ? { subscribe: add } : {}),
        ...(drop.length > 0
          ? {
              unsubscribe: drop.map((k) => {
                const feed = feedOfKey(k);
                return { feed, mid: room.mids.get(feed)?.[k.endsWith('/audio') ? 'audio' : 'video'] };
              }),
            }
          : {}),
      });
      const res = await timed(request, 'update subscription').catch((err: unknown) => {
        if (!(err instanceof JanusTimeoutError)) throw err;
        this.log.warn({ participantId: me.id }, 'sfu subscription update is late: still waiting for it');
        return timed(request, 'late update subscription', SFU_LATE_UPDATE_MS);
      });
      for (const a of add) me.subscribed.add(keyOf(a.feed, kindOf(room, a)));
      for (const k of drop) me.subscribed.delete(k);
      if (res.jsep) await this.negotiate(room, me, handle, res.jsep, res.streams ?? []);
    }
    await this.applyLayers(room, me, handle);
  }

  /** Asks Janus for the simulcast layer each received video's tile needs (the changes only). */
  private async applyLayers(room: Room, me: Member, handle: VideoRoomHandle): Promise<void> {
    if (me.subscriber !== handle) return;
    const changes: { mid: string; substream: SfuLayer }[] = [];
    const feeds = new Set<string>();
    const current = new Map<string, SfuLayer>();
    for (const s of me.streams) {
      if (s.type !== 'video' || !s.active || s.feed_id === undefined) continue;
      const layer = me.view?.get(String(s.feed_id)) ?? 2;
      const key = `${s.mid} ${String(s.feed_id)}`;
      current.set(key, layer);
      // A new stream starts on Janus's default, the top layer: asking for it again would only
      // send the publisher another key frame request while the subscriber is still connecting.
      const had = me.layers.get(key) ?? 2;
      if (had !== layer) {
        changes.push({ mid: String(s.mid), substream: layer });
        feeds.add(String(s.feed_id));
      }
    }
    if (changes.length > 0) {
      this.log.debug({ participantId: me.id, changes }, 'sfu layers');
      await timed(handle.configure({ streams: changes }), 'configure layers');
      for (const feed of feeds) this.keyframeAfterLayers(room, feed);
    }
    me.layers = current;
  }

  /** Asks the publisher for a key frame LAYER_KEYFRAME_MS after the last layer change of a burst. */
  private keyframeAfterLayers(room: Room, feed: string): void {
    clearTimeout(room.layerKeyframes.get(feed));
    const timer = setTimeout(() => {
      room.layerKeyframes.delete(feed);
      const publisher = room.members.get(feed)?.publisher;
      if (!publisher || this.rooms.get(room.id) !== room) return;
      timed(publisher.configure({ keyframe: true }), 'key frame after layer change').catch((err: unknown) =>
        this.log.warn({ err, roomId: room.id }, 'could not ask for a key frame'),
      );
    }, LAYER_KEYFRAME_MS);
    timer.unref();
    room.layerKeyframes.set(feed, timer);
  }

  /** Janus heard a publisher start or stop talking: the active speaker, and last-N audio. */
  private talking(room: Room, feed: string, talking: boolean): void {
    if (!room.feeds.has(feed)) return;
    if (!talking) {
      room.talking.delete(feed);
      return;
    }
    if (room.talking.has(feed)) return;
    room.talking.add(feed);
    room.spoke.set(feed, ++this.clock);
    if (room.speaker !== feed) {
      room.speaker = feed;
      this.events.onActiveSpeaker(room.id, feed);
    }
    // In a large room a new speaker's audio is added to everyone's subscription (last-N).
    if (room.feeds.size - 1 > SFU_VIEW.audioLastN) {
      for (const m of room.members.values()) if (m.wantsSubscription) this.sync(room, m);
    }
  }

  /** The remote videos the participant's browser shows, and the layer for each. */
  async view(roomId: string, participantId: string, videos: SfuVideoWant[]): Promise<void> {
    const room = this.rooms.get(roomId);
    if (!room) return;
    const me = this.member(room, participantId);
    this.log.debug({ participantId, videos }, 'sfu view');
    me.view = new Map(
      videos
        .filter((v) => v.participantId !== participantId)
        .slice(0, SFU_VIEW.maxVideos)
        .map((v) => [v.participantId, v.layer]),
    );
    if (me.wantsSubscription) this.sync(room, me);
  }

  async keyframe(roomId: string, participantId: string, publisherId: string): Promise<boolean> {
    const room = this.rooms.get(roomId);
    const me = room?.members.get(participantId);
    const publisher = room?.members.get(publisherId)?.publisher;
    if (!room || !me || !publisher || !me.subscribed.has(keyOf(publisherId, 'video'))) return false;
    const now = Date.now();
    if (now - (me.keyframeAsked.get(publisherId) ?? -Infinity) < SFU_VIEW.keyframeEveryMs) return false;
    me.keyframeAsked.set(publisherId, now);
    this.log.debug({ participantId, publisherId }, 'sfu key frame asked');
    await timed(publisher.configure({ keyframe: true }), 'key frame request');
    return true;
  }

  activeSpeaker(roomId: string): string | null {
    return this.rooms.get(roomId)?.speaker ?? null;
  }

  async startRecording(roomId: string, name: string): Promise<void> {
    if (!this.recordingDir) throw new Error('This Janus has no recordings folder');
    if (!/^[A-Za-z0-9-]+$/.test(name)) throw new Error('Bad recording name');
    // Janus creates rec_dir only when it creates a room; a room made before the folder was
    // removed (retention) would fail to open its files.
    mkdirSync(this.recordingDir, { recursive: true });
    const rec = { name, files: 0 };
    this.recordings.set(roomId, rec);
    const room = this.rooms.get(roomId);
    if (!room) return;
    await room.ready;
    for (const m of room.members.values()) {
      if (!m.publisher) continue;
      await timed(m.publisher.configure({ record: true, filename: nextFile(rec, m.id) }), 'start recording');
    }
  }

  async stopRecording(roomId: string): Promise<void> {
    if (!this.recordings.delete(roomId)) return;
    const room = this.rooms.get(roomId);
    if (!room) return;
    for (const m of room.members.values()) {
      if (!m.publisher) continue;
      await timed(m.publisher.configure({ record: false }), 'stop recording').catch((err: unknown) =>
        this.log.warn({ err, roomId }, 'could not stop recording a publisher'),
      );
    }
  }

  /** Janus's offer to the browser, its answer back to Janus. */
  private async negotiate(
    room: Room,
    me: Member,
    handle: VideoRoomHandle,
    offer: Jsep,
    streams: SubscriberStream[],
  ): Promise<void> {
    const active = new Set(
      streams
        .filter((s) => s.active && s.feed_id !== undefined && s.type !== 'data')
        .map((s) => keyOf(String(s.feed_id), s.type as 'audio' | 'video')),
    );
    for (const k of [...me.subscribed]) {
      if (!active.has(k) && !room.feeds.has(feedOfKey(k))) me.subscribed.delete(k);
    }
    if (streams.length > 0) me.streams = streams;
    const id = ++this.offers;
    const answer = new Promise<Jsep>((resolve, reject) => {
      me.pendingOffer = { id, offer, streams: streams.map(toSfuStream), resolve, reject };
    });
    const pending = me.pendingOffer!;
    let jsep: Jsep;
    try {
      for (let sent = 1; ; sent++) {
        this.events.onOffer(room.id, me.id, pending.id, offer, pending.streams);
        this.log.debug(
          { participantId: me.id, offerId: pending.id, streams: [...active], sent },
          'sfu offer sent',
        );
        try {
          jsep = await timed(answer, 'the browser’s answer', SFU_ANSWER_TIMEOUT_MS);
          break;
        } catch (err) {
          // The offer may have gone out on a socket that was dying: the page resumes with its SFU
          // session kept and would never see it, while this subscription counts the new streams
          // as received (a retry of the sync would find nothing to do). Sent again until answered.
          const current = me.subscriber === handle && room.members.get(me.id) === me;
          if (!(err instanceof JanusTimeoutError) || !current || sent > OFFER_RESENDS) throw err;
        }
      }
    } finally {
      me.pendingOffer = null;
    }
    if (me.subscriber !== handle) return;
    await timed(handle.start({ jsep }), 'start');
    this.log.debug({ participantId: me.id }, 'sfu subscriber started');
  }

  resendOffer(roomId: string, participantId: string): boolean {
    const me = this.rooms.get(roomId)?.members.get(participantId);
    if (!me?.pendingOffer) return false;
    const { id, offer, streams } = me.pendingOffer;
    this.log.debug({ participantId, offerId: id }, 'sfu offer sent again on resume');
    this.events.onOffer(roomId, participantId, id, offer, streams);
    return true;
  }

  async answer(roomId: string, participantId: string, offerId: number, answer: Jsep): Promise<void> {
    const me = this.rooms.get(roomId)?.members.get(participantId);
    if (!me?.pendingOffer || me.pendingOffer.id !== offerId) {
      // A page answers every sfu_offer it gets, and an offer whose answer is late is sent again:
      // on a starved machine both answers come, the second after the offer was taken, perhaps
      // while a newer offer waits. Taking it for the newer one started Janus's subscriber with an
      // answer to other m-lines (no packet ever reached the new one), so it is ignored, as is any
      // answer with no offer waiting (it used to reach the page as 'could not connect you').
      this.log.debug(
        { participantId, offerId, waiting: me?.pendingOffer?.id ?? null },
        'sfu answer to an offer not waited on: ignored',
      );
      return;
    }
    me.pendingOffer.resolve(answer);
  }

  async trickle(
    roomId: string,
    participantId: string,
    target: SfuTarget,
    candidate: IceCandidateInit | null,
  ): Promise<void> {
    const me = this.rooms.get(roomId)?.members.get(participantId);
    if (!me) return;
    const handle = me[target];
    if (!handle) {
      // Kept until the handle exists, at most a browser's worth: a client trickling to a handle
      // it never asks for must not grow the server's memory.
      if (me.early[target].length < MAX_EARLY_CANDIDATES) me.early[target].push(candidate);
      return;
    }
    await timed(candidate ? handle.trickle(candidate) : handle.trickleComplete(), 'trickle');
  }

  private async flushEarly(me: Member, target: SfuTarget): Promise<void> {
    const handle = me[target];
    if (!handle) return;
    for (const c of me.early[target].splice(0)) {
      await timed(c ? handle.trickle(c) : handle.trickleComplete(), 'trickle').catch(() => undefined);
    }
  }

  async leave(roomId: string, participantId: string): Promise<void> {
    const room = this.rooms.get(roomId);
    const me = room?.members.get(participantId);
    if (!room || !me) return;
    room.members.delete(participantId);
    room.feeds.delete(participantId);
    room.mids.delete(participantId);
    room.talking.delete(participantId);
    room.spoke.delete(participantId);
    if (room.speaker === participantId) {
      // The one who spoke before them, if still here.
      const next = [...room.spoke].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
      room.speaker = next;
      this.events.onActiveSpeaker(roomId, next);
    }
    me.pendingOffer?.reject(new Error('left'));
    await Promise.all([me.publisher, me.subscriber].map((h) => (h ? detach(h) : undefined)));
    if (room.members.size === 0) await this.closeRoom(roomId);
  }

  async closeRoom(roomId: string): Promise<void> {
    // The room is over: so is its recording (its publishers' files close with their handles).
    this.recordings.delete(roomId);
    const room = this.rooms.get(roomId);
    if (!room) return;
    this.rooms.delete(roomId);
    for (const m of room.members.values()) {
      m.pendingOffer?.reject(new Error('room closed'));
      for (const h of [m.publisher, m.subscriber]) if (h) await detach(h);
    }
    try {
      await room.ready;
      const control = await this.controlHandle();
      await timed(control.destroy({ room: room.janusId, secret: room.secret }), 'destroy room');
      this.log.info({ roomId }, 'the meeting’s janus room is closed');
    } catch (err) {
      this.log.warn({ err, roomId }, 'could not destroy the janus room');
    }
  }

  /** Rooms and publishers as this server sees them (tests, diagnostics). */
  stats(): { rooms: number; publishers: number } {
    let publishers = 0;
    for (const r of this.rooms.values()) publishers += r.feeds.size;
    return { rooms: this.rooms.size, publishers };
  }

  async close(): Promise<void> {
    for (const id of [...this.rooms.keys()]) await this.closeRoom(id).catch(() => undefined);
    await this.client.close();
  }
}

const VideoRoomUpdated = 'videoroom_updated';
/** janode's event for Janus's `webrtcup` on a handle (its PeerConnection is up). */
const WEBRTC_UP = 'handle_webrtcup';

/**
 * The next file name of a recording: `<name>-<n>-p<participant>` (Janus adds `-audio-0.mjr`,
 * `-video-1.mjr`). The participant lets post-processing keep one grid cell per person when they
 * publish more than once (a reload).
 */
function nextFile(rec: { name: string; files: number }, participantId: string): string {
  rec.files += 1;
  return `${rec.name}-${String(rec.files).padStart(3, '0')}-p${participantId.replace(/[^A-Za-z0-9-]/g, '')}`;
}

function detach(handle: VideoRoomHandle): Promise<void> {
  return timed(handle.detach(), 'detach', 3000).catch(() => undefined);
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

/** Whether a subscription entry names the publisher's audio or video. */
function kindOf(room: Room, s: { feed: string; mid: string }): 'audio' | 'video' {
  return room.mids.get(s.feed)?.audio === s.mid ? 'audio' : 'video';
}

/** A publisher's streams are no longer received (it published again: a new feed). */
function forgetFeed(m: Member, feed: string): void {
  m.subscribed.delete(keyOf(feed, 'audio'));
  m.subscribed.delete(keyOf(feed, 'video'));
}

/**
 * Last-N: of `feeds`, the SFU_VIEW.audioLastN whose audio a subscriber receives in a large room —
 * those talking now, then the most recent speakers, then (nobody having spoken) the first to publish.
 */
function lastSpeakers(room: Room, feeds: string[]): string[] {
  const rank = (f: string) => (room.talking.has(f) ? Infinity : (room.spoke.get(f) ?? -1));
  return feeds
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .slice(0, SFU_VIEW.audioLastN)
    .map((x) => x.f);
}

function toSfuStream(s: SubscriberStream): SfuStream {
  return {
    mid: String(s.mid),
    participantId: s.feed_id === undefined ? null : String(s.feed_id),
    kind: s.type,
    active: s.active !== false,
  };
}
