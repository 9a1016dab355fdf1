import type { RoomParticipant, ServerMessageOf } from '@parley/protocol/ws';
import { Store } from '@/lib/store';
import type { LocalMedia } from './media/local-media';
import type { PeerLink } from './media/peer-link';
import { PeerMesh, type PeerMeshOptions } from './media/peer-mesh';
import { RemoteMedia } from './media/remote-media';
import { SfuSession, type VideoWant } from './media/sfu-session';
import type { Notice, RoomSnapshot } from './room-session';
import type { SignalClient } from './signal-client';

/**
 * The way the room's media reaches this page: the peer-to-peer mesh, or the SFU as the server
 * says (`media_mode`), and both for a while when one replaces the other, so the switch shows no
 * gap: the mesh stays as a bridge while the SFU comes up, the SFU while the mesh comes back. It
 * also holds the room's first render back until our SFU subscriber connection is under way, and
 * keeps the page's view of the SFU. The room session hands it the room's news about connections
 * (`beginJoin`/`finishJoin`, `reconcile`, `forget`); the route keeps the media mode, the active
 * speaker's reset and the hold in the room's state.
 */

/**
 * How long at most the room's first render waits (the room's `holdRoom`): from the first `joined`
 * on the SFU until our answer to the SFU's first offer and our subscriber connection's first ICE
 * candidate are out. The room's first render is one main-thread task (75–150 ms traced on 2
 * cores), during which no socket message or connection callback runs: rendered at `joined` it
 * held the SFU's offer back by as much (handled 100–290 ms after `joined`, against 25–110 with the
 * hold), and rendered right after the answer it held back our candidate (150–190 ms after the
 * answer instead of about 20); in those traces ICE connected 27–37 ms after that candidate went out.
 */
export const ROOM_HOLD_MAX_MS = 250;

/** The room's state as the route sees it: who is here, and the fields it keeps. */
export interface RouteRoom {
  getSnapshot(): Pick<RoomSnapshot, 'self' | 'participants' | 'holdRoom'>;
  patch(fields: Partial<Pick<RoomSnapshot, 'mediaMode' | 'activeSpeakerId' | 'holdRoom'>>): void;
}

export interface MediaRouteOptions {
  participantId: string;
  signal: SignalClient;
  media: LocalMedia;
  room: RouteRoom;
  notify: (n: Notice) => void;
  /** Where peer connections come from (the room page's PeerConnectionReserve). */
  createPeerConnection?: PeerMeshOptions['createPeerConnection'];
  log?: (msg: string, extra?: unknown) => void;
}

export class MediaRoute {
  readonly mesh: PeerMesh;
  /** The SFU path (meetings of three or more, when the server has one); null on the mesh. */
  sfu: SfuSession | null = null;
  /** Each remote participant's media, by the mesh or the SFU: what the tiles show. */
  readonly remote: RemoteMedia;
  /** How the room's media flows, as the server last said (`media_mode`; p2p when it never does). */
  private mode: 'p2p' | 'sfu' = 'p2p';
  private iceServers: RTCIceServer[] = [];
  /** Who was connected when we joined: the people we offer to (the reconciliation's scope). */
  private connectedAtJoin = new Set<string>();
  /** The server said our arrival moved the room to the SFU (`media_mode.bridge`). */
  private bridgeAtJoin = false;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * The remote videos the room's layout shows (for the SFU: only those are received). Held here
   * alone: each SFU session reads it, so one that replaces another starts from it.
   */
  private readonly videoView = new Store<VideoWant[] | null>(null);
  private readonly cleanups: (() => void)[] = [];

  constructor(private readonly opts: MediaRouteOptions) {
    const s = opts.signal;
    this.mesh = new PeerMesh({
      selfId: opts.participantId,
      iceServers: [],
      local: opts.media.tracks(),
      send: (m) => s.send(m),
      log: opts.log,
      createPeerConnection: opts.createPeerConnection,
    });
    this.remote = new RemoteMedia(this.mesh);
    this.remote.onRetry = (id) => this.retry(id);
    this.cleanups.push(
      s.on('offer', (m) => {
        // On the SFU, a mesh link that was replaced is not rebuilt from the other side's retries.
        if (this.mode === 'sfu' && this.sfu?.isFlowing(m.fromParticipant)) return;
        void this.mesh.handleOffer(m.fromParticipant, m.offer);
      }),
      s.on('media_mode', (m) => {
        this.bridgeAtJoin = m.bridge === true;
        this.onMediaMode(m.mode, m.restart === true);
      }),
      s.on('sfu_offer', (m) => this.sfu?.handleOffer(m)),
      s.on('answer', (m) => void this.mesh.handleAnswer(m.fromParticipant, m.answer)),
      s.on('ice-candidate', (m) => void this.mesh.handleCandidate(m.fromParticipant, m.candidate)),
      opts.media.onTracksChanged((t) => {
        void this.mesh.setLocal(t);
        void this.sfu?.setLocal(t);
      }),
      // Back on the mesh: the SFU session goes once every link carries media.
      this.mesh.subscribe(() => this.retireSfu()),
    );
  }

  /**
   * A `joined`, before the room takes its state: the mesh starts over for who is here. Returns
   * whether the room's first render waits (`holdRoom`, see ROOM_HOLD_MAX_MS).
   */
  beginJoin(m: ServerMessageOf<'joined'>, others: RoomParticipant[], first: boolean): boolean {
    this.mesh.reset(m.self.id, m.iceServers as RTCIceServer[]);
    this.iceServers = m.iceServers as RTCIceServer[];
    // Connections to people who are gone while we were away are closed; a resume keeps the rest.
    for (const id of this.mesh.ids()) if (!others.some((p) => p.id === id)) this.mesh.forget(id);
    // The first `joined` on the SFU: the room is shown once our SFU subscriber is under way (holdRoom),
    // unless our arrival moved the room there: then the first frames come over the mesh bridge.
    const hold = first && this.mode === 'sfu' && !this.bridgeAtJoin;
    if (hold) this.holdTimer = setTimeout(() => this.showRoom(), ROOM_HOLD_MAX_MS);
    return hold;
  }

  /** A `joined`, once the room has its state: mesh links are offered, the SFU path (re)starts. */
  finishJoin(m: ServerMessageOf<'joined'>, others: RoomParticipant[]): void {
    // The newcomer offers to everyone already here, at once (the 1 s request reconciles: see
    // `reconcile`). On the SFU (the server said so before `joined`) nobody is offered a mesh link,
    // except by the newcomer whose arrival moved the room there (`bridge`): the others are still
    // on the mesh, and its first frames come from them as fast as a mesh join's while the SFU
    // comes up.
    const mesh = this.mode !== 'sfu' || this.bridgeAtJoin;
    this.bridgeAtJoin = false;
    this.connectedAtJoin = mesh ? new Set(others.filter((p) => p.isConnected).map((p) => p.id)) : new Set();
    // A resume keeps the SFU connections, unless one failed while we were away (a long drop).
    if (this.mode === 'sfu') {
      const fresh = !m.resumed || this.sfu?.failed === true;
      if (!fresh) this.sfu?.resumed();
      this.startSfu(fresh);
    }
    for (const id of this.connectedAtJoin) this.mesh.connect(id);
  }

  /** One of those connected by the server's account, 1 s after the join (`existing_connections`). */
  reconcile(p: RoomParticipant): void {
    // Only those we were to offer to: anyone who connected after us offers to us, and offering
    // too collided with their offer whenever they arrived about 1 s after our join (glare).
    if (
      p.isConnected &&
      !this.mesh.get(p.id) &&
      this.connectedAtJoin.has(p.id) &&
      // A bridge link the SFU already replaced is not made again.
      !(this.mode === 'sfu' && this.sfu?.isFlowing(p.id))
    )
      this.mesh.connect(p.id);
  }

  /** Someone left the room: the link to them closes. */
  forget(participantId: string): void {
    this.mesh.forget(participantId);
  }

  /**
   * A person's Retry on a tile that could not connect: on the SFU a fresh SFU session (its
   * connections carry everyone), on the mesh a fresh link to that participant, offered by us.
   */
  retry(participantId: string): void {
    this.opts.log?.(`retry: media from ${participantId}`);
    if (this.mode === 'sfu' && this.sfu && !this.mesh.get(participantId)) this.startSfu(true);
    else this.mesh.retry(participantId);
  }

  /** The layout shows these remote videos now (each tile's quality); the SFU sends only those. */
  setVideoView(videos: VideoWant[]): void {
    this.videoView.set(videos);
  }

  /**
   * The room's media mode. `sfu`: publish and subscribe through the SFU; each mesh link closes once
   * that participant's media flows through the SFU (the new path flows before the old one closes).
   */
  private onMediaMode(mode: 'p2p' | 'sfu', restart: boolean): void {
    const was = this.mode;
    this.mode = mode;
    this.opts.room.patch({ mediaMode: mode });
    // `restart`: the SFU came back after a failure: our old connections to it are dead.
    if (mode === 'sfu' && this.opts.signal.state === 'joined') this.startSfu(restart);
    if (mode === 'p2p' && was === 'sfu' && this.opts.signal.state === 'joined') this.backToMesh();
  }

  /**
   * The room went back to peer-to-peer (two or one left): each pair meshes again, the one with the
   * smaller id offering (the other answers), while the SFU keeps carrying the media; the SFU
   * session closes once every link carries media (`retireSfu`), so the switch shows no gap.
   */
  private backToMesh(): void {
    const selfId = this.opts.room.getSnapshot().self?.id;
    if (!selfId) return;
    this.opts.room.patch({ activeSpeakerId: null });
    for (const p of this.opts.room.getSnapshot().participants) {
      if (p.isConnected && selfId < p.id && !this.mesh.get(p.id)) this.mesh.connect(p.id);
    }
    this.retireSfu();
  }

  /** On the mesh again, the SFU session closes once each connected participant's link carries media. */
  private retireSfu(): void {
    const sfu = this.sfu;
    if (!sfu || this.mode !== 'p2p' || this.opts.signal.state !== 'joined') return;
    const others = this.opts.room.getSnapshot().participants.filter((p) => p.isConnected);
    if (!others.every((p) => carriesMedia(this.mesh.get(p.id)))) return;
    sfu.close();
    this.sfu = null;
    this.remote.setSfu(null);
    this.opts.signal
      .request({ type: 'sfu_leave' })
      .catch((err: unknown) => this.opts.log?.('sfu: leave', err));
  }

  /** The room may be shown (our SFU subscriber connection is under way, or that took too long). */
  private showRoom(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (this.opts.room.getSnapshot().holdRoom) this.opts.room.patch({ holdRoom: false });
  }

  /** Starts the SFU path (again after a fresh join: the server's SFU state is per participant). */
  private startSfu(fresh: boolean): void {
    if (this.sfu && !fresh) return;
    this.sfu?.close();
    const sfu = new SfuSession({
      signal: this.opts.signal,
      local: this.opts.media.tracks(),
      iceServers: this.iceServers,
      log: this.opts.log,
      createPeerConnection: this.opts.createPeerConnection,
      sendsVideo: (id) => {
        const p = this.opts.room.getSnapshot().participants.find((x) => x.id === id);
        return !p || p.isVideoOn || p.isScreenSharing;
      },
      view: this.videoView,
    });
    sfu.onFlowing = (id) => {
      if (this.mode === 'sfu') this.mesh.forget(id);
    };
    // A failed connection: a fresh session now if the socket is up, else at the resume's `joined`.
    sfu.onFailed = () => {
      if (this.sfu === sfu && this.mode === 'sfu' && this.opts.signal.state === 'joined') this.startSfu(true);
    };
    sfu.onUnderWay = () => this.showRoom();
    this.sfu = sfu;
    this.remote.setSfu(sfu);
    sfu.start().catch((err: unknown) => {
      this.showRoom();
      // The mesh stays as it is: those already connected keep talking peer-to-peer.
      this.opts.log?.('sfu: could not start', err);
      this.opts.notify({
        title: 'Could not connect to the video server',
        description: (err as Error).message,
        variant: 'destructive',
      });
    });
  }

  /** Closes every connection and stops listening; idempotent. */
  dispose(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    for (const c of this.cleanups.splice(0)) c();
    this.mesh.closeAll();
    this.sfu?.close();
  }
}

/** Whether a mesh link is up and has delivered media (a remote track unmuted). */
function carriesMedia(link: PeerLink | undefined): boolean {
  return (
    !!link &&
    link.connectionState === 'connected' &&
    link.remoteStream.getTracks().some((t) => t.readyState === 'live' && !t.muted)
  );
}
