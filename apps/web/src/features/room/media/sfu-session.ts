import { SFU_VIEW } from '@parley/protocol/constants';
import type { ClientMessage, ServerMessage, ServerMessageOf } from '@parley/protocol/ws';
import type { Readable } from '@/lib/store';
import type { IceCandidate, LocalTracks, PeerConnectionUse, SessionDescription } from './peer-link';
import { relayOnly } from './peer-link';

/**
 * This browser's two connections to the room's SFU (Janus, reached only through our server's
 * socket): a send-only publisher with our microphone and camera (simulcast: three layers), and
 * one receive-only subscriber carrying everyone else, whose m-lines the server maps to
 * participants (`sfu_offer.streams`). Connections live here, never in React state; the UI reads
 * each participant's stream through `subscribe`/`getVersion`, like the mesh.
 */

export interface SfuSignal {
  send(msg: ClientMessage): void;
  request(msg: Extract<ClientMessage, { requestId?: string }>, timeoutMs?: number): Promise<ServerMessage>;
}

export interface SfuSessionOptions {
  signal: SfuSignal;
  local: LocalTracks;
  iceServers: RTCIceServer[];
  log?: (msg: string, extra?: unknown) => void;
  /**
   * Where connections come from: the page's reserve (connection-reserve.ts), asked for plain ones
   * (`answer`: no transceivers, no offer), made ahead of the join so their candidate gathering
   * already sees the network (a connection made and offered at once can gather nothing, ever).
   */
  createPeerConnection?: (config: RTCConfiguration, use: PeerConnectionUse) => RTCPeerConnection;
  /**
   * Whether the participant sends video now (camera or screen on): only such a shown video that
   * decodes nothing is a stall worth a key frame request. Everyone, when not given.
   */
  sendsVideo?: (participantId: string) => boolean;
  /**
   * The remote videos the page shows, each with its tile's quality (null: not said yet). The room
   * holds it, so a session that replaces another starts from it; this one sends it once
   * subscribed, and on each change.
   */
  view: Readable<VideoWant[] | null>;
}

/**
 * The three simulcast layers (rid h/m/l, as Janus's own client names them): full, half and
 * quarter resolution. The SFU forwards to each subscriber the layer it asks for (the top one by
 * default); a sender whose picture is too small for a layer leaves that layer out.
 */
export const SIMULCAST_ENCODINGS: RTCRtpEncodingParameters[] = [
  { rid: 'h', maxBitrate: 900_000 },
  { rid: 'm', maxBitrate: 300_000, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 100_000, scaleResolutionDownBy: 4 },
];

type StreamInfo = ServerMessageOf<'sfu_offer'>['streams'][number];

/** How often a received video is checked for its first decoded frames, and for how long at most. */
const DECODE_POLL_MS = 100;
const DECODE_WAIT_MS = 10_000;
/**
 * Frames of a participant's SFU video decoded before the page shows it in place of the mesh link
 * (and that link may close). One was not enough: in CI a stream decoded its first key frame and
 * then nothing for 2.3 s, while the tile had already left the mesh video that was still playing.
 */
export const FLOWING_FRAMES = 3;
/** A participant whose audio flows but whose video decodes nothing (camera off) flows after this. */
export const VIDEO_WAIT_MS = 4000;
/** How often the shown videos are checked for decoding progress (see `checkStalls`). */
export const STALL_CHECK_MS = 1000;
/**
 * A shown participant who sends video but whose video is not in our subscription this long after
 * the view was last sent has the view sent again (`sfu_view` is idempotent on the server): the
 * message may have gone out on a socket that was dying, or the server's update of the
 * subscription may have failed for good.
 */
export const VIEW_RESEND_MS = 5000;

async function framesDecoded(receiver: RTCRtpReceiver): Promise<number> {
  let n = 0;
  (await receiver.getStats()).forEach((s: { type: string; framesDecoded?: number }) => {
    if (s.type === 'inbound-rtp') n = Math.max(n, s.framesDecoded ?? 0);
  });
  return n;
}

/** A remote video this page shows, and the quality its tile needs (`sfu_view`). */
export type VideoWant = Extract<ClientMessage, { type: 'sfu_view' }>['videos'][number];

export class SfuSession {
  publisher: RTCPeerConnection | null = null;
  subscriber: RTCPeerConnection | null = null;
  private audioSender: RTCRtpSender | null = null;
  private videoSender: RTCRtpSender | null = null;
  private local: LocalTracks;
  private closed = false;
  /** mid → whose media it carries (the last offer's map). */
  private mids = new Map<string, StreamInfo>();
  /** Each remote participant's stream, rebuilt when its tracks change. */
  private readonly streams = new Map<string, MediaStream>();
  /** Participants whose video or audio has delivered media through the SFU. */
  private readonly flowing = new Set<string>();
  /**
   * Each remote track watched, polled, or seen decoding, for whom (Janus reuses an m-line, and so
   * its track, for the next publisher it carries).
   */
  private readonly watched = new WeakMap<MediaStreamTrack, string>();
  private readonly polling = new WeakMap<MediaStreamTrack, string>();
  private readonly decodedVideo = new WeakMap<MediaStreamTrack, string>();
  /** Each watched video's decoded-frame count when it was given to its participant. */
  private readonly baselines = new WeakMap<MediaStreamTrack, Promise<number>>();
  /** Each remote track in a participant's stream now, and whose. */
  private active = new Map<MediaStreamTrack, string>();
  private readonly listeners = new Set<() => void>();
  /** Each shown video's decoded frames when they last grew (participant → its mid, count, when). */
  private readonly progress = new Map<string, { mid: string; frames: number; since: number }>();
  private stallTimer: ReturnType<typeof setInterval> | null = null;
  private checking = false;
  private version = 0;
  private readonly unsubscribeView: () => void;
  private viewSent = '';
  private viewSentAt = 0;
  private subscribed = false;
  /** Subscriber offers are taken one at a time, in order. */
  private offers: Promise<void> = Promise.resolve();
  /** The last subscriber offer answered (the same offer sent again gets the same answer). */
  private lastAnswer: { offerId: number; offerSdp: string; answer: { type: 'answer'; sdp: string } } | null =
    null;
  /** Called when a participant's SFU media first flows (the mesh link to them may close). */
  onFlowing: (participantId: string) => void = () => undefined;
  /**
   * Called once when a connection to the SFU has failed (ICE gave up: the network was gone too
   * long, or the address changed). The connections are not repaired in place: the room starts a
   * fresh session, which the server puts in place of this one.
   */
  onFailed: () => void = () => undefined;
  private failedOnce = false;
  /**
   * Called once, when our answer to the first subscriber offer and the subscriber connection's
   * first ICE candidate (or its end of candidates) have gone out: the connection is under way.
   */
  onUnderWay: () => void = () => undefined;
  private answerSent = false;
  private candidateSent = false;

  constructor(private readonly opts: SfuSessionOptions) {
    this.local = opts.local;
    // The server has the SFU send only the videos in the view, at the fitting simulcast layer
    // (other participants' video stops).
    this.unsubscribeView = opts.view.subscribe(() => this.sendView());
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getVersion = (): number => this.version;

  private changed(): void {
    this.version += 1;
    for (const l of this.listeners) l();
  }

  private newPc(): RTCPeerConnection {
    const config: RTCConfiguration = { iceServers: this.opts.iceServers, bundlePolicy: 'max-bundle' };
    if (relayOnly()) config.iceTransportPolicy = 'relay';
    return this.opts.createPeerConnection?.(config, 'answer') ?? new RTCPeerConnection(config);
  }

  /** Whether a connection to the SFU has failed (this session cannot carry media any more). */
  get failed(): boolean {
    return [this.publisher, this.subscriber].some((pc) => pc?.connectionState === 'failed');
  }

  private stateChanged(): void {
    this.changed();
    if (this.closed || this.failedOnce || !this.failed) return;
    this.failedOnce = true;
    this.opts.log?.('sfu: a connection to the video server failed');
    this.onFailed();
  }

  /** Publishes our tracks and asks for everyone else's. */
  async start(): Promise<void> {
    await Promise.all([this.publish(), this.requestSubscription()]);
  }

  private async publish(): Promise<void> {
    const pc = this.newPc();
    this.publisher = pc;
    const streams = [this.local.stream];
    this.audioSender = pc.addTransceiver(this.local.audio ?? 'audio', {
      direction: 'sendonly',
      streams,
    }).sender;
    this.videoSender = pc.addTransceiver(this.local.video ?? 'video', {
      direction: 'sendonly',
      streams,
      sendEncodings: SIMULCAST_ENCODINGS,
    }).sender;
    pc.onicecandidate = (e) =>
      this.opts.signal.send({
        type: 'sfu_trickle',
        target: 'publisher',
        candidate: toCandidate(e.candidate),
      });
    pc.onconnectionstatechange = () => this.stateChanged();
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const reply = await this.opts.signal.request({
      type: 'sfu_publish',
      offer: { type: 'offer', sdp: offer.sdp ?? '' },
    });
    if (this.closed || reply.type !== 'sfu_answer') return;
    await pc.setRemoteDescription(reply.answer as RTCSessionDescriptionInit);
    this.opts.log?.('sfu: publishing');
  }

  private async requestSubscription(): Promise<void> {
    await this.opts.signal.request({ type: 'sfu_subscribe' });
    this.subscribed = true;
    this.sendView();
    if (!this.closed && !this.stallTimer)
      this.stallTimer = setInterval(() => {
        // One check at a time: on a starved machine getStats can take longer than the interval.
        if (this.checking) return;
        this.checking = true;
        this.checkStalls()
          .catch((err: unknown) => this.opts.log?.('sfu: stall check', err))
          .finally(() => (this.checking = false));
      }, STALL_CHECK_MS);
  }

  /**
   * Asks for a key frame (`sfu_keyframe`) for each shown video of a participant who sends video
   * but has decoded no new frame for SFU_VIEW.stallMs, and again each stallMs while it lasts.
   * Janus forwards a new stream only from a key frame; the one it asks the sender for can be
   * lost (Chromium drops a request within 300 ms of another, and four pages subscribing to a new
   * speaker at once ask together), and nothing else would ever send one: the tile would stay
   * black. Decoding that stops later (a frozen sender, a lost packet the decoder cannot pass)
   * is covered the same way.
   */
  private async checkStalls(): Promise<void> {
    const pc = this.subscriber;
    const view = this.opts.view.getSnapshot();
    if (this.closed || !pc || pc.connectionState !== 'connected' || !view) return;
    const sends = this.opts.sendsVideo ?? (() => true);
    const shown = new Set(view.map((v) => v.participantId).filter(sends));
    const midOf = new Map<string, string>();
    for (const s of this.mids.values())
      if (s.active && s.kind === 'video' && s.participantId && shown.has(s.participantId))
        midOf.set(s.participantId, s.mid);
    for (const id of [...this.progress.keys()]) if (!midOf.has(id)) this.progress.delete(id);
    const missing = [...shown].filter((id) => !midOf.has(id));
    if (missing.length > 0 && Date.now() - this.viewSentAt >= VIEW_RESEND_MS) {
      this.opts.log?.('sfu: shown videos not received, view sent again', missing);
      this.sendView(true);
    }
    if (midOf.size === 0) return;
    const frames = new Map<string, number>();
    (await pc.getStats()).forEach(
      (r: { type: string; kind?: string; mid?: string; framesDecoded?: number }) => {
        if (r.type === 'inbound-rtp' && r.kind === 'video' && r.mid !== undefined)
          frames.set(r.mid, r.framesDecoded ?? 0);
      },
    );
    if (this.closed || this.subscriber !== pc) return;
    const now = Date.now();
    for (const [id, mid] of midOf) {
      const n = frames.get(mid) ?? 0;
      const seen = this.progress.get(id);
      if (!seen || seen.mid !== mid || n > seen.frames) {
        this.progress.set(id, { mid, frames: n, since: now });
        continue;
      }
      if (now - seen.since < SFU_VIEW.stallMs) continue;
      seen.since = now;
      this.opts.log?.('sfu: no frames decoded, asking for a key frame', id);
      this.opts.signal.send({ type: 'sfu_keyframe', participantId: id });
    }
  }

  /**
   * The page's socket came back (a resume keeps this session): what it sent on the old socket may
   * never have arrived, so the view goes again.
   */
  resumed(): void {
    this.sendView(true);
  }

  private sendView(force = false): void {
    const view = this.opts.view.getSnapshot();
    if (this.closed || !this.subscribed || !view) return;
    const key = JSON.stringify(view);
    if (key === this.viewSent && !force) return;
    this.viewSent = key;
    this.viewSentAt = Date.now();
    this.opts.log?.('sfu: view', key);
    this.opts.signal.send({ type: 'sfu_view', videos: view });
  }

  /** The SFU's offer for our subscriber connection (first, or a change of who is in it). */
  handleOffer(m: ServerMessageOf<'sfu_offer'>): void {
    this.offers = this.offers
      .then(() => this.takeOffer(m))
      .catch((err: unknown) => this.opts.log?.('sfu: subscriber offer failed', err));
  }

  private async takeOffer(m: ServerMessageOf<'sfu_offer'>): Promise<void> {
    if (this.closed) return;
    const last = this.lastAnswer;
    if (last && last.offerId === m.offerId && last.offerSdp === m.offer.sdp) {
      // The server sent this offer again because our answer was late (a busy machine), or went out
      // on a socket that died: the answer we made is the one it waits for.
      this.opts.signal.send({ type: 'sfu_answer', offerId: m.offerId, answer: last.answer });
      this.opts.log?.('sfu: offer sent again, answered again', m.offerId);
      return;
    }
    let pc = this.subscriber;
    if (!pc) {
      pc = this.newPc();
      this.subscriber = pc;
      pc.onicecandidate = (e) => {
        this.opts.signal.send({
          type: 'sfu_trickle',
          target: 'subscriber',
          candidate: toCandidate(e.candidate),
        });
        this.candidateSent = true;
        this.underWay();
      };
      pc.onconnectionstatechange = () => this.stateChanged();
    }
    this.mids = new Map(m.streams.map((s) => [s.mid, s]));
    // The tracks are regrouped once the answer is out, not on each `track` event: each regroup
    // re-renders the tiles, and traces showed such renders (tasks of 16-41 ms started by `track`
    // events) between the offer and our answer, holding the answer back.
    await pc.setRemoteDescription(m.offer as SessionDescription as RTCSessionDescriptionInit);
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    const sent = { type: 'answer' as const, sdp: answer.sdp ?? '' };
    this.lastAnswer = { offerId: m.offerId, offerSdp: m.offer.sdp, answer: sent };
    this.opts.signal.send({ type: 'sfu_answer', offerId: m.offerId, answer: sent });
    this.answerSent = true;
    this.underWay();
    this.opts.log?.(
      'sfu: offer answered',
      m.streams
        .filter((x) => x.active && x.participantId)
        .map((x) => `${x.mid}:${x.participantId!.slice(0, 8)}/${x.kind}`)
        .join(' '),
    );
    this.rebuild();
  }

  private underWay(): void {
    if (!this.answerSent || !this.candidateSent) return;
    const call = this.onUnderWay;
    this.onUnderWay = () => undefined;
    call();
  }

  /** Regroups the subscriber's tracks by participant, from the current mid map. */
  private rebuild(): void {
    const pc = this.subscriber;
    if (!pc) return;
    const tracks = new Map<string, MediaStreamTrack[]>();
    for (const t of pc.getTransceivers()) {
      const info = t.mid ? this.mids.get(t.mid) : undefined;
      if (!info?.participantId || !info.active || t.currentDirection === 'inactive') continue;
      const list = tracks.get(info.participantId) ?? [];
      list.push(t.receiver.track);
      tracks.set(info.participantId, list);
    }
    let changed = false;
    for (const [id, list] of tracks) {
      const current = this.streams.get(id);
      const same =
        current &&
        current.getTracks().length === list.length &&
        list.every((t) => current.getTracks().includes(t));
      if (!same) {
        this.streams.set(id, new MediaStream(list));
        changed = true;
      }
    }
    for (const id of [...this.streams.keys()]) {
      if (!tracks.has(id)) {
        this.streams.delete(id);
        this.flowing.delete(id);
        changed = true;
      }
    }
    if (changed) this.changed();
    // A track that left its participant's stream (the m-line went inactive, or now carries
    // someone else, or the same person's new feed after a reload) is watched afresh.
    const active = new Map<MediaStreamTrack, string>();
    for (const [id, list] of tracks) for (const t of list) active.set(t, id);
    for (const [t, id] of this.active) {
      if (active.get(t) === id) continue;
      this.watched.delete(t);
      this.polling.delete(t);
      this.decodedVideo.delete(t);
    }
    this.active = active;
    for (const t of pc.getTransceivers()) {
      const id = active.get(t.receiver.track);
      if (id) this.watch(id, t.receiver.track, t.receiver);
    }
  }

  /**
   * Watches a remote track for media. A participant's SFU media flows (the page shows it, and the
   * mesh link to them may close) once FLOWING_FRAMES frames of their video have been decoded: RTP
   * arriving is not enough, the decoder waits for a key frame, which took 2.4 s under load in CI
   * while the tile stood still. A participant with no video here flows with their first audio;
   * one whose video decodes nothing (camera off) flows VIDEO_WAIT_MS after their audio.
   */
  private watch(participantId: string, track: MediaStreamTrack, receiver: RTCRtpReceiver): void {
    if (this.watched.get(track) === participantId) return;
    this.watched.set(track, participantId);
    // The receiver's count goes on across feeds when Janus reuses its m-line: only frames decoded
    // from now on are this feed's.
    if (track.kind === 'video')
      this.baselines.set(
        track,
        framesDecoded(receiver).catch(() => 0),
      );
    const arrived = () => {
      if (this.closed || this.flowing.has(participantId)) return;
      if (track.kind === 'video') {
        void this.awaitFirstFrame(participantId, track, receiver);
        return;
      }
      this.check(participantId);
      setTimeout(() => this.check(participantId, true), VIDEO_WAIT_MS);
    };
    if (!track.muted && this.subscriber?.connectionState === 'connected') queueMicrotask(arrived);
    track.addEventListener('unmute', arrived, { once: true });
  }

  private async awaitFirstFrame(participantId: string, track: MediaStreamTrack, receiver: RTCRtpReceiver) {
    if (this.polling.get(track) === participantId) return;
    this.polling.set(track, participantId);
    const deadline = Date.now() + DECODE_WAIT_MS;
    const before = await (this.baselines.get(track) ?? Promise.resolve(0));
    const current = () =>
      !this.closed &&
      !this.flowing.has(participantId) &&
      !!this.streams.get(participantId)?.getTracks().includes(track);
    while (current() && Date.now() < deadline) {
      const decoded = await framesDecoded(receiver).catch(() => 0);
      if (decoded >= before + FLOWING_FRAMES) {
        this.decodedVideo.set(track, participantId);
        this.check(participantId);
        return;
      }
      await new Promise((r) => setTimeout(r, DECODE_POLL_MS));
    }
    if (this.polling.get(track) === participantId) this.polling.delete(track);
    if (current()) this.check(participantId, true);
  }

  /** Marks the participant flowing once their media is showable (see `watch`); `late`: waited enough. */
  private check(participantId: string, late = false): void {
    if (this.closed || this.flowing.has(participantId)) return;
    const tracks = this.streams.get(participantId)?.getTracks() ?? [];
    const videos = tracks.filter((t) => t.kind === 'video' && t.readyState === 'live');
    const unmuted = tracks.some((t) => !t.muted);
    const ready =
      videos.some((t) => this.decodedVideo.get(t) === participantId) ||
      (unmuted && (videos.length === 0 || late));
    if (!ready) return;
    this.flowing.add(participantId);
    this.changed();
    this.onFlowing(participantId);
  }

  streamOf(participantId: string): MediaStream | null {
    return this.streams.get(participantId) ?? null;
  }

  isFlowing(participantId: string): boolean {
    return this.flowing.has(participantId);
  }

  /** Whose media comes through the SFU now (for diagnostics and tests). */
  streamMap(): { participantId: string; mid: string; kind: string }[] {
    return [...this.mids.values()]
      .filter((s) => s.active && s.participantId)
      .map((s) => ({ participantId: s.participantId!, mid: s.mid, kind: s.kind }));
  }

  /** New local tracks (device switch, background effect, screen share). */
  async setLocal(local: LocalTracks): Promise<void> {
    this.local = local;
    await Promise.all([
      this.audioSender?.replaceTrack(local.audio).catch(() => undefined),
      this.videoSender?.replaceTrack(local.video).catch(() => undefined),
    ]);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeView();
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
    this.publisher?.close();
    this.subscriber?.close();
    this.publisher = null;
    this.subscriber = null;
    this.streams.clear();
    this.flowing.clear();
    this.changed();
  }
}

function toCandidate(c: RTCIceCandidate | null): IceCandidate {
  if (!c) return null;
  return { candidate: c.candidate, sdpMid: c.sdpMid, sdpMLineIndex: c.sdpMLineIndex };
}
