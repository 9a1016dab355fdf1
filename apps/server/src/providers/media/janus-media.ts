import { SFU_VIEW } from '@parley/protocol/constants';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';
import type { Janode } from './janode-loader.js';
import { JanusClient, timed } from './janus-client.js';
import { JanusRecordings, nextFile } from './janus-recording.js';
import { detach, flushEarly, newMember, newRoom, type Member, type Room } from './janus-room.js';
import { TALKING, TALKING_LEVEL, TALKING_PACKETS } from './janus-speakers.js';
import { JanusSubscriptions } from './janus-subscriptions.js';
import type { SupervisorLog } from './janus-supervisor.js';
import { forgetFeed, keyOf, midsOf } from './subscription-plan.js';
import type { IceCandidateInit, Jsep, MediaEvents, MediaProvider, SfuTarget, SfuVideoWant } from './types.js';

/** ICE candidates kept for a handle not made yet (a browser gathers a few dozen at most). */
const MAX_EARLY_CANDIDATES = 64;
/** A republished feed id Janus still holds (436) is tried again this often, this many times. */
const FEED_TAKEN_RETRY_MS = 150;
const FEED_TAKEN_RETRIES = 10;
/** Publishers a Janus room takes: Pro's largest meeting (spec §1: 100). */
const MAX_PUBLISHERS = 100;
/** janode's event for Janus's `webrtcup` on a handle (its PeerConnection is up). */
const WEBRTC_UP = 'handle_webrtcup';

/**
 * The Janus VideoRoom SFU through janode. One Janus room per meeting room, created on first use
 * with a secret and a pin only this server knows; one publisher handle and one multistream
 * subscriber handle per participant. Every Janus request is `timed`.
 */
export class JanusMedia implements MediaProvider {
  readonly kind = 'janus' as const;
  readonly sfuOff = null;
  private readonly rooms = new Map<string, Room>();
  private control: Promise<VideoRoomHandle> | null = null;
  readonly client: JanusClient;
  readonly recordingDir: string | null;
  private readonly recordings: JanusRecordings;
  private readonly subscriptions: JanusSubscriptions;

  constructor(
    opts: {
      /** janode, already loaded (janode-loader.ts). */
      janode: Janode;
      url: string;
      apiSecret: string;
      adminKey?: string;
      recDir?: string | null;
      log: SupervisorLog;
    },
    private readonly events: MediaEvents,
  ) {
    this.adminKey = opts.adminKey;
    this.recordingDir = opts.recDir ?? null;
    this.log = opts.log;
    this.client = new JanusClient({
      janode: opts.janode,
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
    this.recordings = new JanusRecordings(this.recordingDir, this.rooms, opts.log);
    this.subscriptions = new JanusSubscriptions({
      client: this.client,
      events,
      log: opts.log,
      isCurrent: (room) => this.rooms.get(room.id) === room,
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
    const created = newRoom(roomId);
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
      m = newMember(id);
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
        if (other.id !== participantId && other.wantsSubscription) this.subscriptions.sync(room, other);
      }
    });
    await flushEarly(me, 'publisher');
    try {
      const rec = this.recordings.of(roomId);
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
    this.subscriptions.sync(room, me);
  }

  /** Janus heard a publisher start or stop talking: the active speaker, and last-N audio. */
  private talking(room: Room, feed: string, talking: boolean): void {
    if (!room.feeds.has(feed)) return;
    const heard = room.speakers.heard(feed, talking);
    if (heard.speakerChanged) this.events.onActiveSpeaker(room.id, feed);
    // In a large room a new speaker's audio is added to everyone's subscription (last-N).
    if (heard.started && room.feeds.size - 1 > SFU_VIEW.audioLastN) {
      for (const m of room.members.values()) if (m.wantsSubscription) this.subscriptions.sync(room, m);
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
    if (me.wantsSubscription) this.subscriptions.sync(room, me);
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
    return this.rooms.get(roomId)?.speakers.speaker ?? null;
  }

  startRecording(roomId: string, name: string): Promise<void> {
    return this.recordings.start(roomId, name);
  }

  stopRecording(roomId: string): Promise<void> {
    return this.recordings.stop(roomId);
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

  async leave(roomId: string, participantId: string): Promise<void> {
    const room = this.rooms.get(roomId);
    const me = room?.members.get(participantId);
    if (!room || !me) return;
    room.members.delete(participantId);
    room.feeds.delete(participantId);
    room.mids.delete(participantId);
    if (room.speakers.left(participantId)) this.events.onActiveSpeaker(roomId, room.speakers.speaker);
    me.pendingOffer?.reject(new Error('left'));
    await Promise.all([me.publisher, me.subscriber].map((h) => (h ? detach(h) : undefined)));
    if (room.members.size === 0) await this.closeRoom(roomId);
  }

  async closeRoom(roomId: string): Promise<void> {
    // The room is over: so is its recording (its publishers' files close with their handles).
    this.recordings.ended(roomId);
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
