import { randomBytes } from 'node:crypto';
import type { SubscriberStream, VideoRoomHandle } from 'janode/plugins/videoroom';
import { JanusClient, timed } from './janus-client.js';
import type { SupervisorLog } from './janus-supervisor.js';
import type { IceCandidateInit, Jsep, MediaEvents, MediaProvider, SfuStream, SfuTarget } from './types.js';

/** ICE candidates kept for a handle not made yet (a browser gathers a few dozen at most). */
const MAX_EARLY_CANDIDATES = 64;
/** How long a browser may take to answer a subscriber offer. */
export const SFU_ANSWER_TIMEOUT_MS = 10_000;
/** Publishers a Janus room takes: Pro's largest meeting (spec §1: 100). */
const MAX_PUBLISHERS = 100;

interface Member {
  id: string;
  publisher: VideoRoomHandle | null;
  subscriber: VideoRoomHandle | null;
  /** Feeds the subscriber receives (as last negotiated). */
  subscribed: Set<string>;
  wantsSubscription: boolean;
  /** Subscriber negotiations run one at a time. */
  queue: Promise<void>;
  answerWaiter: { resolve(a: Jsep): void; reject(e: Error): void } | null;
  /** Candidates that came before their handle. */
  early: Record<SfuTarget, (IceCandidateInit | null)[]>;
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
  members: Map<string, Member>;
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
  readonly client: JanusClient;

  constructor(
    opts: { url: string; apiSecret: string; adminKey?: string; log: SupervisorLog },
    private readonly events: MediaEvents,
  ) {
    this.adminKey = opts.adminKey;
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
      members: new Map(),
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
        wantsSubscription: false,
        queue: Promise.resolve(),
        answerWaiter: null,
        early: { publisher: [], subscriber: [] },
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
      for (const other of room.members.values()) other.subscribed.delete(participantId);
    }
    const handle = await this.client.attach();
    me.publisher = handle;
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
      const res = await timed(
        handle.joinConfigurePublisher({
          room: room.janusId,
          pin: room.pin,
          feed: participantId,
          display: participantId,
          audio: true,
          video: true,
          jsep: offer,
        }),
        'publish',
      );
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
      me.answerWaiter?.reject(new Error('replaced'));
      await detach(old);
    }
    this.sync(room, me);
  }

  /** Brings the participant's subscription up to the room's feeds (queued, one at a time). */
  private sync(room: Room, me: Member): void {
    me.queue = me.queue
      .then(() => this.syncNow(room, me))
      .catch((err: unknown) => this.log.warn({ err, participantId: me.id }, 'sfu subscription failed'));
  }

  private async syncNow(room: Room, me: Member): Promise<void> {
    if (!room.members.has(me.id)) return;
    const want = [...room.feeds].filter((f) => f !== me.id);
    const add = want.filter((f) => !me.subscribed.has(f));
    if (add.length === 0) return;
    if (!me.subscriber) {
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
          handle.joinSubscriber({
            room: room.janusId,
            pin: room.pin,
            streams: add.map((feed) => ({ feed })),
          }),
          'subscribe',
        );
      } catch (err) {
        await detach(handle);
        throw err;
      }
      // Only a joined subscriber is one: an `update` on one that is not fails (424).
      me.subscriber = handle;
      for (const f of add) me.subscribed.add(f);
      if (res.jsep) await this.negotiate(room, me, handle, res.jsep, res.streams ?? []);
      await this.flushEarly(me, 'subscriber');
      return;
    }
    const handle = me.subscriber;
    const res = await timed(
      handle.update({ subscribe: add.map((feed) => ({ feed })) }),
      'update subscription',
    );
    for (const f of add) me.subscribed.add(f);
    if (res.jsep) await this.negotiate(room, me, handle, res.jsep, res.streams ?? []);
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
      streams.filter((s) => s.active && s.feed_id !== undefined).map((s) => String(s.feed_id)),
    );
    for (const f of [...me.subscribed]) if (!active.has(f) && !room.feeds.has(f)) me.subscribed.delete(f);
    const answer = new Promise<Jsep>((resolve, reject) => {
      me.answerWaiter = { resolve, reject };
    });
    this.events.onOffer(room.id, me.id, offer, streams.map(toSfuStream));
    const jsep = await timed(answer, 'the browser’s answer', SFU_ANSWER_TIMEOUT_MS).finally(() => {
      me.answerWaiter = null;
    });
    if (me.subscriber !== handle) return;
    await timed(handle.start({ jsep }), 'start');
  }

  async answer(roomId: string, participantId: string, answer: Jsep): Promise<void> {
    const me = this.rooms.get(roomId)?.members.get(participantId);
    if (!me?.answerWaiter) throw new Error('No subscriber offer is waiting for an answer');
    me.answerWaiter.resolve(answer);
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
    me.answerWaiter?.reject(new Error('left'));
    await Promise.all([me.publisher, me.subscriber].map((h) => (h ? detach(h) : undefined)));
    if (room.members.size === 0) await this.closeRoom(roomId);
  }

  async closeRoom(roomId: string): Promise<void> {
    const room = this.rooms.get(roomId);
    if (!room) return;
    this.rooms.delete(roomId);
    for (const m of room.members.values()) {
      m.answerWaiter?.reject(new Error('room closed'));
      for (const h of [m.publisher, m.subscriber]) if (h) await detach(h);
    }
    try {
      await room.ready;
      const control = await this.controlHandle();
      await timed(control.destroy({ room: room.janusId, secret: room.secret }), 'destroy room');
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

function detach(handle: VideoRoomHandle): Promise<void> {
  return timed(handle.detach(), 'detach', 3000).catch(() => undefined);
}

function toSfuStream(s: SubscriberStream): SfuStream {
  return {
    mid: String(s.mid),
    participantId: s.feed_id === undefined ? null : String(s.feed_id),
    kind: s.type,
    active: s.active !== false,
  };
}
