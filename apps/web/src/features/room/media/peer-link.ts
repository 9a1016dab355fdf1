import { ICE_CANDIDATE_POOL_SIZE, VIDEO_BITRATE_CAP } from '@parley/protocol/constants';

/**
 * One RTCPeerConnection to one remote participant, negotiated with the "perfect negotiation"
 * pattern (W3C WebRTC 1.0 §10.7): both sides may offer at any time; on a collision the polite
 * side rolls back and takes the other's offer, the impolite side ignores the incoming offer.
 * Which side is polite is decided by the caller from the two participant ids, so it is the same
 * rule on both ends.
 */

export type SessionDescription = { type: 'offer' | 'answer' | 'pranswer' | 'rollback'; sdp: string };
export type IceCandidate = {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
} | null;

export interface PeerLinkSignals {
  offer(desc: SessionDescription): void;
  answer(desc: SessionDescription): void;
  candidate(c: IceCandidate): void;
}

export interface LocalTracks {
  stream: MediaStream;
  audio: MediaStreamTrack | null;
  /** The track to send as video: the camera, or the screen while sharing. */
  video: MediaStreamTrack | null;
}

/**
 * What a new connection is for: `offer` when this side starts the negotiation (the newcomer, a
 * rebuild), `answer` when it takes the other side's offer. The reserve hands out a connection
 * that already holds an offer (`primeOffer`) for the first, a plain settled one for the second.
 */
export type PeerConnectionUse = 'offer' | 'answer';

export interface PeerLinkOptions {
  remoteId: string;
  polite: boolean;
  /** True when this side starts the negotiation (the newcomer); false waits for the offer. */
  initiator: boolean;
  iceServers: RTCIceServer[];
  local: LocalTracks;
  signals: PeerLinkSignals;
  onChange: () => void;
  /** Called when this connection cannot work and must be replaced by a fresh one. */
  onStuck?: () => void;
  log?: (msg: string, extra?: unknown) => void;
  createPeerConnection?: (config: RTCConfiguration, use: PeerConnectionUse) => RTCPeerConnection;
}

/** How long an unanswered offer waits before it is sent again (a lost relay must not stall a pair). */
const OFFER_RESEND_MS = 3000;
const MAX_OFFER_RESENDS = 5;
/** A 'disconnected' connection that does not come back within this time gets an ICE restart. */
const DISCONNECTED_RESTART_MS = 4000;
/** A negotiated pair that is not connected by then gets an ICE restart. */
const CONNECT_TIMEOUT_MS = 8000;
/** A connection without a single local candidate by then is rebuilt. */
const NO_CANDIDATE_TIMEOUT_MS = 3000;
const MAX_STUCK_RESTARTS = 3;

export class PeerLink {
  readonly pc: RTCPeerConnection;
  readonly remoteId: string;
  readonly polite: boolean;
  readonly remoteStream: MediaStream;
  private makingOffer = false;
  private ignoreOffer = false;
  private isSettingRemoteAnswerPending = false;
  private closed = false;
  private offerTimer: ReturnType<typeof setTimeout> | null = null;
  private offerResends = 0;
  private disconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private local: LocalTracks;
  /** The o= session id of the remote connection: a new one means the other side reloaded. */
  remoteSessionId: string | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private stuckRestarts = 0;
  /** Local candidates gathered so far (none after a while: a broken connection). */
  localCandidates = 0;
  private holdCandidates = false;
  private readonly outgoingCandidates: IceCandidate[] = [];
  private readonly incomingCandidates: IceCandidate[] = [];
  /** Counts ICE restarts, for the debugging handle. */
  iceRestarts = 0;

  constructor(private readonly opts: PeerLinkOptions) {
    this.remoteId = opts.remoteId;
    this.polite = opts.polite;
    this.local = opts.local;
    this.remoteStream = new MediaStream();
    const config = peerConnectionConfig(opts.iceServers);
    this.pc = opts.createPeerConnection
      ? opts.createPeerConnection(config, opts.initiator ? 'offer' : 'answer')
      : new RTCPeerConnection(config);
    this.wire();
    if (opts.initiator) {
      const primed = priming.get(this.pc);
      if (primed) this.adoptPrimedOffer(primed);
      else addSendTransceivers(this.pc, this.local);
    }
  }

  get connectionState(): RTCPeerConnectionState {
    return this.pc.connectionState;
  }

  private wire(): void {
    const pc = this.pc;
    pc.onnegotiationneeded = () => void this.negotiate();
    pc.onicecandidate = ({ candidate }) => {
      let out: IceCandidate = null;
      if (candidate) {
        if (candidate.candidate) this.localCandidates += 1;
        const c = candidate.toJSON();
        out = {
          candidate: c.candidate ?? '',
          sdpMid: c.sdpMid ?? null,
          sdpMLineIndex: c.sdpMLineIndex ?? null,
          usernameFragment: c.usernameFragment ?? null,
        };
      }
      // Candidates can fire before the description that announces them has been sent (pooled
      // candidates arrive at once); the other side would drop them, so they wait for it.
      if (this.holdCandidates) this.outgoingCandidates.push(out);
      else this.opts.signals.candidate(out);
    };
    pc.ontrack = ({ track }) => {
      for (const t of this.remoteStream.getTracks()) {
        if (t.kind === track.kind && t !== track) this.remoteStream.removeTrack(t);
      }
      if (!this.remoteStream.getTracks().includes(track)) this.remoteStream.addTrack(track);
      track.onunmute = () => this.opts.onChange();
      this.opts.onChange();
    };
    pc.onsignalingstatechange = () => {
      if (pc.signalingState === 'stable') {
        this.clearOfferTimer();
        void this.applyBitrateCap();
        this.watchConnect();
      }
    };
    pc.onconnectionstatechange = () => {
      const state = pc.connectionState;
      if (state === 'failed') this.restartIce('failed');
      if (state === 'disconnected') {
        if (!this.disconnectTimer) {
          this.disconnectTimer = setTimeout(() => {
            this.disconnectTimer = null;
            if (pc.connectionState === 'disconnected') this.restartIce('disconnected');
          }, DISCONNECTED_RESTART_MS);
        }
      } else if (this.disconnectTimer) {
        clearTimeout(this.disconnectTimer);
        this.disconnectTimer = null;
      }
      this.opts.onChange();
    };
  }

  private async negotiate(): Promise<void> {
    // Chromium fires negotiationneeded when setConfiguration changes the ICE servers, also on a
    // connection that has no transceiver yet (a reserve's spare taken before its priming started,
    // as on Rejoin). The offer would have no m-line, which setLocalDescription refuses under
    // max-bundle ("session description has no BUNDLE group"), and that error sticks: every later
    // description on the connection fails the same way. The real offer follows when the
    // transceivers are added (by this link, or by the priming it adopted).
    if (this.pc.getTransceivers().length === 0) {
      this.opts.log?.(`peer ${this.remoteId}: negotiationneeded without transceivers, no offer yet`);
      return;
    }
    try {
      this.makingOffer = true;
      this.holdCandidates = true;
      await this.pc.setLocalDescription();
      if (this.pc.localDescription) this.sendOffer();
    } catch (err) {
      this.opts.log?.(`peer ${this.remoteId}: offer failed`, err);
      this.brokenUnlessConnected('its offer failed');
    } finally {
      this.makingOffer = false;
      this.releaseCandidates();
    }
  }

  /**
   * A connection the reserve primes (see `primeOffer`): once its offer is set (at once when it
   * already is), the offer, with the candidates gathered meanwhile, goes out, and our tracks go onto
   * its transceivers without renegotiating. Primed with other ICE servers than the room's (TURN
   * credentials come with `joined`), it makes a new offer on the same settled connection instead,
   * so the candidates use the room's servers. If priming failed, it negotiates the ordinary way.
   */
  private adoptPrimedOffer(primed: Priming): void {
    const pc = this.pc;
    this.makingOffer = true;
    this.holdCandidates = true;
    const finish = () => {
      this.localCandidates = Math.max(this.localCandidates, countCandidates(pc.localDescription?.sdp));
      this.sendOffer();
      this.makingOffer = false;
      this.releaseCandidates();
    };
    void this.setLocal(this.local);
    const servers = serversKey(this.opts.iceServers);
    if (primed.state === 'done' && primed.servers === servers) {
      finish();
      return;
    }
    void (async () => {
      try {
        await primed.promise;
        if (this.closed) return;
        void this.setLocal(this.local);
        if (primed.servers !== servers) {
          await pc.setLocalDescription({ type: 'rollback' });
          await pc.setLocalDescription();
        }
        finish();
      } catch (err) {
        this.makingOffer = false;
        this.releaseCandidates();
        if (this.closed) return;
        this.opts.log?.(`peer ${this.remoteId}: primed offer failed, negotiating afresh`, err);
        if (pc.getTransceivers().length === 0) addSendTransceivers(pc, this.local);
        else void this.negotiate();
      }
    })();
  }

  /** After taking an offer: send our tracks on the transceivers the offer created. */
  private attachLocalToRemoteTransceivers(): void {
    for (const kind of ['audio', 'video'] as const) {
      const tr = this.transceiver(kind);
      if (!tr) continue;
      if (tr.direction === 'recvonly' || tr.direction === 'inactive') tr.direction = 'sendrecv';
      const track = kind === 'audio' ? this.local.audio : this.local.video;
      if (tr.sender.track !== track) void tr.sender.replaceTrack(track).catch(() => undefined);
      try {
        tr.sender.setStreams(this.local.stream);
      } catch {
        // setStreams is missing in old browsers; the msid then defaults
      }
    }
  }

  private transceiver(kind: 'audio' | 'video'): RTCRtpTransceiver | undefined {
    return this.pc
      .getTransceivers()
      .find(
        (t) =>
          t.currentDirection !== 'stopped' &&
          (t.receiver.track?.kind === kind || t.sender.track?.kind === kind),
      );
  }

  /** Handles an offer or answer from the remote side (perfect negotiation). */
  async handleDescription(description: SessionDescription): Promise<void> {
    if (this.closed) return;
    const pc = this.pc;
    const readyForOffer =
      !this.makingOffer && (pc.signalingState === 'stable' || this.isSettingRemoteAnswerPending);
    const offerCollision = description.type === 'offer' && !readyForOffer;
    this.ignoreOffer = !this.polite && offerCollision;
    if (this.ignoreOffer) {
      this.opts.log?.(`peer ${this.remoteId}: ignored a colliding offer (impolite)`);
      // The polite side takes our offer instead, if it ever got it: it may have been lost (its
      // resends run out after 15 s, and a Retry on the other side offers long after), so it goes
      // again now, or both would wait for an answer forever.
      if (pc.signalingState === 'have-local-offer' && !this.makingOffer) this.sendOffer();
      return;
    }
    this.isSettingRemoteAnswerPending = description.type === 'answer';
    this.remoteSessionId ??= sdpSessionId(description.sdp);
    try {
      await pc.setRemoteDescription(description as RTCSessionDescriptionInit);
    } finally {
      this.isSettingRemoteAnswerPending = false;
    }
    this.flushIncomingCandidates();
    if (description.type === 'offer') {
      this.attachLocalToRemoteTransceivers();
      this.holdCandidates = true;
      try {
        await pc.setLocalDescription();
        const answer = pc.localDescription;
        if (answer) this.opts.signals.answer({ type: 'answer', sdp: answer.sdp });
      } finally {
        this.releaseCandidates();
      }
    }
  }

  /** Sends the candidates held back while our description was on its way. */
  private releaseCandidates(): void {
    this.holdCandidates = false;
    const held = this.outgoingCandidates.splice(0);
    for (const c of held) this.opts.signals.candidate(c);
  }

  private flushIncomingCandidates(): void {
    const pending = this.incomingCandidates.splice(0);
    for (const c of pending) void this.handleCandidate(c);
  }

  async handleCandidate(candidate: IceCandidate): Promise<void> {
    if (this.closed) return;
    if (!this.pc.remoteDescription) {
      // Not ready for candidates yet (the description is still being applied): keep them.
      if (this.incomingCandidates.length < 200) this.incomingCandidates.push(candidate);
      return;
    }
    try {
      await this.pc.addIceCandidate(candidate ?? undefined);
    } catch (err) {
      if (!this.ignoreOffer) this.opts.log?.(`peer ${this.remoteId}: bad ICE candidate`, err);
    }
  }

  /** Swaps what we send (device switch, screen share) without renegotiation. */
  async setLocal(local: LocalTracks): Promise<void> {
    this.local = local;
    for (const kind of ['audio', 'video'] as const) {
      const tr = this.transceiver(kind);
      const track = kind === 'audio' ? local.audio : local.video;
      if (tr && tr.sender.track !== track) await tr.sender.replaceTrack(track).catch(() => undefined);
    }
  }

  /**
   * A pair that negotiated but does not connect. With no local ICE candidate at all, this
   * connection can never work (Chromium: a connection that never learnt its network list, see
   * connection-reserve.ts; restarts do not help): the link asks to be rebuilt, and the other side
   * rebuilds too when it sees the new SDP session. The room takes its connections from a reserve
   * so this stays a safety net. With candidates but no connection (signals
   * lost while a socket was down), the impolite side restarts ICE, a few times at most.
   */
  private watchConnect(): void {
    if (this.connectTimer) return;
    const startedAt = Date.now();
    const check = () => {
      this.connectTimer = null;
      if (this.closed) return;
      const state = this.pc.connectionState;
      if (state === 'connected') {
        this.stuckRestarts = 0;
        return;
      }
      if (state !== 'new' && state !== 'connecting') return;
      if (this.localCandidates === 0 && this.opts.onStuck) {
        this.opts.log?.(`peer ${this.remoteId}: no ICE candidates gathered, rebuilding the connection`);
        this.opts.onStuck();
        return;
      }
      if (Date.now() - startedAt < CONNECT_TIMEOUT_MS) {
        this.connectTimer = setTimeout(check, NO_CANDIDATE_TIMEOUT_MS);
        return;
      }
      if (!this.polite && this.stuckRestarts < MAX_STUCK_RESTARTS) {
        this.stuckRestarts += 1;
        this.restartIce(`still ${state}`);
      }
    };
    this.connectTimer = setTimeout(check, NO_CANDIDATE_TIMEOUT_MS);
  }

  /**
   * This connection cannot negotiate any more (a failed description leaves Chromium's connection
   * in an error state that every later one repeats): unless media already flows on it, the mesh
   * replaces it with a fresh one (`onStuck`, a few times at most), instead of leaving the pair
   * without an offer for good.
   */
  private brokenUnlessConnected(why: string): void {
    if (this.closed || this.pc.connectionState === 'connected' || !this.opts.onStuck) return;
    this.opts.log?.(`peer ${this.remoteId}: ${why}, rebuilding the connection`);
    this.opts.onStuck();
  }

  restartIce(why: string): void {
    if (this.closed) return;
    this.opts.log?.(`peer ${this.remoteId}: ICE restart (${why})`);
    this.iceRestarts += 1;
    this.pc.restartIce();
  }

  private sendOffer(): void {
    const desc = this.pc.localDescription;
    if (!desc || desc.type !== 'offer') return;
    this.opts.signals.offer({ type: 'offer', sdp: desc.sdp });
    this.releaseCandidates();
    this.clearOfferTimer();
    this.offerTimer = setTimeout(() => {
      this.offerTimer = null;
      if (this.closed || this.pc.signalingState !== 'have-local-offer') return;
      if (this.offerResends >= MAX_OFFER_RESENDS) {
        // No answer to any of them: a fresh connection offers again (the other side follows it).
        this.brokenUnlessConnected('its offer was never answered');
        return;
      }
      this.offerResends += 1;
      this.sendOffer();
    }, OFFER_RESEND_MS);
  }

  private clearOfferTimer(): void {
    if (this.offerTimer) clearTimeout(this.offerTimer);
    this.offerTimer = null;
    if (this.pc.signalingState === 'stable') this.offerResends = 0;
  }

  /** Caps the video sender at VIDEO_BITRATE_CAP (spec §9) once encodings exist. */
  private async applyBitrateCap(): Promise<void> {
    const sender = this.transceiver('video')?.sender;
    if (!sender) return;
    try {
      const params = sender.getParameters();
      if (!params.encodings || params.encodings.length === 0) return;
      if (params.encodings.every((e) => e.maxBitrate === VIDEO_BITRATE_CAP)) return;
      for (const e of params.encodings) e.maxBitrate = VIDEO_BITRATE_CAP;
      await sender.setParameters(params);
    } catch (err) {
      this.opts.log?.(`peer ${this.remoteId}: could not cap the bitrate`, err);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearOfferTimer();
    if (this.disconnectTimer) clearTimeout(this.disconnectTimer);
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.pc.onnegotiationneeded = null;
    this.pc.onicecandidate = null;
    this.pc.ontrack = null;
    this.pc.onconnectionstatechange = null;
    this.pc.onsignalingstatechange = null;
    this.pc.close();
  }
}

/** The initiator's transceivers: one sendrecv per kind, even without a local track. */
function addSendTransceivers(pc: RTCPeerConnection, local: LocalTracks | null): void {
  const streams = local ? [local.stream] : [];
  pc.addTransceiver(local?.audio ?? 'audio', { direction: 'sendrecv', streams });
  pc.addTransceiver(local?.video ?? 'video', {
    direction: 'sendrecv',
    streams,
    sendEncodings: [{ maxBitrate: VIDEO_BITRATE_CAP }],
  });
}

interface Priming {
  state: 'waiting' | 'priming' | 'done' | 'failed' | 'cancelled';
  /** The ICE servers the offer was made with. */
  servers: string | null;
  promise: Promise<void>;
}

/** Connections `primeOffer` is priming or has primed (a link that offers adopts them). */
const priming = new WeakMap<RTCPeerConnection, Priming>();
const serversKey = (servers: RTCIceServer[]) => JSON.stringify(servers);

/**
 * Makes a spare connection ready to offer before anyone asks (the reserve does this while the
 * pre-join dialog shows), `delayMs` from now: the transceivers a link offers with, without tracks
 * yet, and the offer set as local description, so ICE gathers now. A link that adopts it (even
 * before it is done) sends that offer as soon as it is set.
 */
export function primeOffer(pc: RTCPeerConnection, delayMs = 0): Promise<void> {
  const entry: Priming = { state: 'waiting', servers: null, promise: Promise.resolve() };
  entry.promise = (async () => {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (entry.state === 'cancelled') throw new Error('priming cancelled');
    if (pc.signalingState !== 'stable' || pc.getTransceivers().length > 0) {
      throw new Error('connection already in use');
    }
    entry.state = 'priming';
    addSendTransceivers(pc, null);
    entry.servers = serversKey(pc.getConfiguration().iceServers ?? []);
    await pc.setLocalDescription();
    entry.state = 'done';
  })();
  entry.promise.catch(() => {
    if (entry.state !== 'cancelled') entry.state = 'failed';
  });
  priming.set(pc, entry);
  return entry.promise;
}

/**
 * Stops a priming that has not started yet (the connection is wanted for an answer); false when
 * it has, and the connection already holds or is making an offer.
 */
export function cancelPriming(pc: RTCPeerConnection): boolean {
  const entry = priming.get(pc);
  if (!entry) return true;
  if (entry.state !== 'waiting') return false;
  entry.state = 'cancelled';
  priming.delete(pc);
  return true;
}

function countCandidates(sdp: string | undefined): number {
  return sdp ? (sdp.match(/^a=candidate:/gm)?.length ?? 0) : 0;
}

/**
 * This browser's "relay only" setting: with `localStorage['parley.iceTransportPolicy'] = 'relay'`
 * its peer connections offer only TURN relay candidates (`iceTransportPolicy: 'relay'`), so the
 * others never learn its addresses, and a TURN set-up can be checked from one browser (docs/media.md,
 * "Relay only"). Anything else, or no storage: every candidate.
 */
export const ICE_POLICY_KEY = 'parley.iceTransportPolicy';

export function relayOnly(storage: Storage | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(ICE_POLICY_KEY) === 'relay';
  } catch {
    return false;
  }
}

/** The configuration of every peer connection of the room (spec §9: the candidate pool). */
export function peerConnectionConfig(iceServers: RTCIceServer[]): RTCConfiguration {
  const config: RTCConfiguration = {
    iceServers,
    iceCandidatePoolSize: ICE_CANDIDATE_POOL_SIZE,
    bundlePolicy: 'max-bundle',
  };
  if (relayOnly()) config.iceTransportPolicy = 'relay';
  return config;
}

/** The pair rule: the participant with the larger id is polite. Both ends compute the same. */
export function isPolite(selfId: string, remoteId: string): boolean {
  return selfId > remoteId;
}

/** The session id of an SDP's o= line: stable across renegotiations of one RTCPeerConnection. */
export function sdpSessionId(sdp: string): string | null {
  const m = /^o=\S+ (\d+) /m.exec(sdp);
  return m ? m[1]! : null;
}
