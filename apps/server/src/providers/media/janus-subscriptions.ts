import type { SubscriberStream, VideoRoomHandle } from 'janode/plugins/videoroom';
import { JanusTimeoutError, timed, type JanusClient } from './janus-client.js';
import { detach, flushEarly, type Member, type Room } from './janus-room.js';
import type { SupervisorLog } from './janus-supervisor.js';
import {
  activeStreams,
  feedOfKey,
  keyOf,
  kindOf,
  layerChanges,
  subscriptionChanges,
  toSfuStream,
  unsubscribeEntries,
} from './subscription-plan.js';
import type { Jsep, MediaEvents } from './types.js';

/** A failed subscription update is tried again this much later, this many times in a row at most. */
const SYNC_RETRY_MS = 1000;
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
const VideoRoomUpdated = 'videoroom_updated';

export interface JanusSubscriptionsDeps {
  client: JanusClient;
  events: Pick<MediaEvents, 'onOffer'>;
  log: SupervisorLog;
  /** Whether the room is still one this server holds in Janus (not closed, not lost with Janus). */
  isCurrent(room: Room): boolean;
}

/**
 * The participants' multistream subscriber handles in Janus: each brought up to its plan
 * (subscription-plan.ts) by `joinSubscriber` / `update`, its offers negotiated with the browser,
 * its simulcast layers configured. Negotiations of one subscriber run one at a time.
 */
export class JanusSubscriptions {
  /** The last subscriber offer's id (each negotiation gets the next). */
  private offers = 0;

  constructor(private readonly deps: JanusSubscriptionsDeps) {}

  /** Brings the participant's subscription up to the room's feeds (queued, one at a time). */
  sync(room: Room, me: Member): void {
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
          me.failedSyncs <= SYNC_RETRIES && this.deps.isCurrent(room) && room.members.get(me.id) === me;
        this.deps.log.warn({ err, participantId: me.id, again }, 'sfu subscription failed');
        if (again) setTimeout(() => this.sync(room, me), SYNC_RETRY_MS).unref();
      });
  }

  private async syncNow(room: Room, me: Member): Promise<void> {
    if (!room.members.has(me.id)) return;
    const { log } = this.deps;
    const { add, drop } = subscriptionChanges(room, me);
    if (add.length > 0 || drop.length > 0)
      log.debug(
        { participantId: me.id, add: add.map((a) => keyOf(a.feed, kindOf(room, a))), drop },
        'sfu subscription changes',
      );
    if (!me.subscriber) {
      if (add.length === 0) return;
      const handle = await this.deps.client.attach();
      handle.on(VideoRoomUpdated, (data: { jsep?: Jsep; streams?: SubscriberStream[] }) => {
        // Janus renegotiates by itself when a publisher we receive leaves (autoupdate).
        if (data.jsep && me.subscriber === handle) {
          me.queue = me.queue
            .then(() => this.negotiate(room, me, handle, data.jsep!, data.streams ?? []))
            .catch((err: unknown) => log.warn({ err }, 'sfu renegotiation failed'));
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
      await flushEarly(me, 'subscriber');
      await this.applyLayers(room, me, handle);
      return;
    }
    const handle = me.subscriber;
    if (add.length > 0 || drop.length > 0) {
      const request = handle.update({
        ...(add.length > 0 ? { subscribe: add } : {}),
        ...(drop.length > 0 ? { unsubscribe: unsubscribeEntries(room, drop) } : {}),
      });
      const res = await timed(request, 'update subscription').catch((err: unknown) => {
        if (!(err instanceof JanusTimeoutError)) throw err;
        log.warn({ participantId: me.id }, 'sfu subscription update is late: still waiting for it');
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
    const { changes, feeds, current } = layerChanges(me.streams, me.view, me.layers);
    if (changes.length > 0) {
      this.deps.log.debug({ participantId: me.id, changes }, 'sfu layers');
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
      if (!publisher || !this.deps.isCurrent(room)) return;
      timed(publisher.configure({ keyframe: true }), 'key frame after layer change').catch((err: unknown) =>
        this.deps.log.warn({ err, roomId: room.id }, 'could not ask for a key frame'),
      );
    }, LAYER_KEYFRAME_MS);
    timer.unref();
    room.layerKeyframes.set(feed, timer);
  }

  /** Janus's offer to the browser, its answer back to Janus. */
  private async negotiate(
    room: Room,
    me: Member,
    handle: VideoRoomHandle,
    offer: Jsep,
    streams: SubscriberStream[],
  ): Promise<void> {
    const active = activeStreams(streams);
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
        this.deps.events.onOffer(room.id, me.id, pending.id, offer, pending.streams);
        this.deps.log.debug(
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
    this.deps.log.debug({ participantId: me.id }, 'sfu subscriber started');
  }
}
