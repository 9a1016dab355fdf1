import {
  PeerLink,
  isPolite,
  sdpSessionId,
  type IceCandidate,
  type LocalTracks,
  type PeerLinkOptions,
  type SessionDescription,
} from './peer-link';

/**
 * The full mesh: one PeerLink per remote participant. The mesh knows nothing about the socket: it
 * gets a `send` for outgoing signals and is fed incoming ones. Links live here, never in React
 * state; the UI reads streams and states through `subscribe`/`getVersion`.
 */

export type MeshSignal =
  | { type: 'offer'; targetParticipant: string; offer: SessionDescription }
  | { type: 'answer'; targetParticipant: string; answer: SessionDescription }
  | { type: 'ice-candidate'; targetParticipant: string; candidate: IceCandidate };

export interface PeerMeshOptions {
  selfId: string;
  iceServers: RTCIceServer[];
  local: LocalTracks;
  send: (signal: MeshSignal) => void;
  log?: (msg: string, extra?: unknown) => void;
  createPeerConnection?: PeerLinkOptions['createPeerConnection'];
}

const MAX_REBUILDS = 5;

export class PeerMesh {
  private readonly links = new Map<string, PeerLink>();
  /** Fresh connections made because one could not gather candidates, per participant. */
  private readonly rebuilds = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private local: LocalTracks;
  private iceServers: RTCIceServer[];
  private selfId: string;

  constructor(private readonly opts: PeerMeshOptions) {
    this.local = opts.local;
    this.iceServers = opts.iceServers;
    this.selfId = opts.selfId;
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getVersion = (): number => this.version;

  private changed = (): void => {
    this.version += 1;
    for (const l of this.listeners) l();
  };

  /** A new self id or ICE servers after a fresh join (a resume keeps both). */
  reset(selfId: string, iceServers: RTCIceServer[]): void {
    if (selfId !== this.selfId) this.closeAll();
    this.selfId = selfId;
    this.iceServers = iceServers;
  }

  get(remoteId: string): PeerLink | undefined {
    return this.links.get(remoteId);
  }

  ids(): string[] {
    return [...this.links.keys()];
  }

  all(): PeerLink[] {
    return [...this.links.values()];
  }

  /** Starts a connection to a participant (we offer). No-op when one exists. */
  connect(remoteId: string): PeerLink {
    return this.links.get(remoteId) ?? this.create(remoteId, true);
  }

  /**
   * The person asked to try again (a tile's Retry after "Could not connect"): a fresh connection
   * offered by us, with the automatic rebuilds counted from zero again. The other side sees a new
   * SDP session and rebuilds its end too.
   */
  retry(remoteId: string): void {
    this.rebuilds.delete(remoteId);
    this.forget(remoteId);
    this.connect(remoteId);
  }

  /** Drops any old connection to this participant (it rejoined with a fresh page). */
  forget(remoteId: string): void {
    const link = this.links.get(remoteId);
    if (!link) return;
    link.close();
    this.links.delete(remoteId);
    this.changed();
  }

  private create(remoteId: string, initiator: boolean): PeerLink {
    const link = new PeerLink({
      remoteId,
      polite: isPolite(this.selfId, remoteId),
      initiator,
      iceServers: this.iceServers,
      local: this.local,
      log: this.opts.log,
      createPeerConnection: this.opts.createPeerConnection,
      onChange: this.changed,
      onStuck: () => {
        if (this.links.get(remoteId) !== link) return;
        const n = (this.rebuilds.get(remoteId) ?? 0) + 1;
        if (n > MAX_REBUILDS) return;
        this.rebuilds.set(remoteId, n);
        // A fresh connection, offered by us; the other side sees a new SDP session and follows.
        this.forget(remoteId);
        this.connect(remoteId);
      },
      signals: {
        offer: (offer) => this.opts.send({ type: 'offer', targetParticipant: remoteId, offer }),
        answer: (answer) => this.opts.send({ type: 'answer', targetParticipant: remoteId, answer }),
        candidate: (candidate) =>
          this.opts.send({ type: 'ice-candidate', targetParticipant: remoteId, candidate }),
      },
    });
    this.links.set(remoteId, link);
    this.changed();
    return link;
  }

  async handleOffer(from: string, offer: SessionDescription): Promise<void> {
    const existing = this.links.get(from);
    const session = sdpSessionId(offer.sdp);
    if (existing?.remoteSessionId && session && existing.remoteSessionId !== session) {
      // The other side has a brand-new connection (it reloaded or rejoined): start over.
      this.forget(from);
    }
    const link = this.links.get(from) ?? this.create(from, false);
    try {
      await link.handleDescription(offer);
    } catch (err) {
      // An offer our connection cannot take (the other side reloaded and has a new connection,
      // new DTLS identity): start over with a fresh connection and take it there.
      this.opts.log?.(`mesh: offer from ${from} failed, rebuilding the connection`, err);
      this.forget(from);
      await this.create(from, false)
        .handleDescription(offer)
        .catch((e: unknown) => this.opts.log?.(`mesh: offer from ${from} failed again`, e));
    }
  }

  async handleAnswer(from: string, answer: SessionDescription): Promise<void> {
    const link = this.links.get(from);
    if (!link) return;
    await link
      .handleDescription(answer)
      .catch((err: unknown) => this.opts.log?.(`mesh: answer from ${from}`, err));
  }

  async handleCandidate(from: string, candidate: IceCandidate): Promise<void> {
    await this.links.get(from)?.handleCandidate(candidate);
  }

  /** New local tracks (device switch, screen share, camera started late). */
  async setLocal(local: LocalTracks): Promise<void> {
    this.local = local;
    await Promise.all(this.all().map((l) => l.setLocal(local)));
  }

  closeAll(): void {
    for (const l of this.links.values()) l.close();
    this.links.clear();
    this.changed();
  }
}
