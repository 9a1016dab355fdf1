import { EXISTING_CONNECTIONS_DELAY_MS } from '@parley/protocol/constants';
import type { ChatMessage, RecordingState } from '@parley/protocol';
import { RECORDING_TEXTS } from '@parley/protocol/texts';
import type { RoomParticipant, ServerMessageOf } from '@parley/protocol/ws';
import { TEST_ROOM_ID } from '@parley/protocol/constants';
import { Store } from '@/lib/store';
import { Captions } from './ai/captions';
import { SpeakingMeter } from '@/features/report/speaking';
import type { LocalMedia } from './media/local-media';
import type { PeerLink } from './media/peer-link';
import { PeerMesh, type PeerMeshOptions } from './media/peer-mesh';
import { RemoteMedia } from './media/remote-media';
import { SfuSession, type VideoWant } from './media/sfu-session';
import { SignalClient, newRequestId, type SignalSnapshot, type WebSocketLike } from './signal-client';
import { FreeTimeClient } from '@/features/billing/free-time';

/**
 * One joined meeting: the SignalClient, the PeerMesh and the LocalMedia wired together, plus the
 * room's state (participants, chat, the host's waiting list, Mute All). Each incoming message type
 * has its own small handler below. React reads `getSnapshot()` through useSyncExternalStore; media
 * objects stay here. Whether this participant is still waiting, in the room or reconnecting is the
 * signal's state (`signal.state`); the RoomController turns it into the page's phase.
 */

export interface Notice {
  title: string;
  description?: string;
  variant?: 'destructive' | 'success';
  duration?: number;
}

export interface RoomSnapshot {
  signal: SignalSnapshot;
  /** This participant as the server knows it; null until the first `joined`. */
  self: RoomParticipant | null;
  /** Everyone else, in join order. */
  participants: RoomParticipant[];
  chat: ChatMessage[];
  waitingList: { id: string; name: string }[];
  /** To hosts: the people they removed, who cannot join again until a host allows them back. */
  removedList: { id: string; name: string }[];
  meeting: { meetingId: string; title: string; startedAt: string } | null;
  /**
   * The host's Mute All is on: room state kept by the server, read from `joined.allMuted` and every
   * `mute_all` (the host's own change from the server's answer to it), never toggled locally.
   */
  allMuted: boolean;
  /** How the room's media flows, as the server last said (`media_mode`; p2p when it never does). */
  mediaMode: 'p2p' | 'sfu';
  /** The room's active speaker as the SFU hears it (`active_speaker`); null on the mesh or none yet. */
  activeSpeakerId: string | null;
  /** The meeting's recording (room state, `recording_state`); null until the server says. */
  recording: RecordingState | null;
  /**
   * The room waits a moment before it is first shown: from the first `joined` on the SFU until our
   * answer to the SFU's first offer and our subscriber connection's first ICE candidate are out,
   * at most ROOM_HOLD_MAX_MS. The room's first render is one main-thread task (75–150 ms
   * traced on 2 cores), during which no socket message or connection callback runs: rendered at
   * `joined` it held the SFU's offer back by as much (handled 100–290 ms after `joined`, against
   * 25–110 with the hold), and rendered right after the answer it held back our candidate (150–190
   * ms after the answer instead of about 20); in those traces ICE connected 27–37 ms after that
   * candidate went out.
   */
  holdRoom: boolean;
}

/** How long the room's first render waits for our SFU subscriber connection to be under way. */
export const ROOM_HOLD_MAX_MS = 250;

export interface RoomSessionOptions {
  meetingId: string;
  participantId: string;
  joinToken: string;
  socketUrl: string;
  media: LocalMedia;
  /** The billing join form's e-mail, if one was given (the payment card starts with it). */
  billingEmail?: string | null;
  notify: (n: Notice) => void;
  createSocket?: (url: string) => WebSocketLike;
  /** Where peer connections come from (the room page's PeerConnectionReserve). */
  createPeerConnection?: PeerMeshOptions['createPeerConnection'];
  log?: (msg: string, extra?: unknown) => void;
}

export class RoomSession {
  readonly signal: SignalClient;
  readonly mesh: PeerMesh;
  /** The SFU path (meetings of three or more, when the server has one); null on the mesh. */
  sfu: SfuSession | null = null;
  /** Each remote participant's media, by the mesh or the SFU: what the tiles show. */
  readonly remote: RemoteMedia;
  /** How the room's media flows, as the server last said (`media_mode`; p2p when it never does). */
  private mediaMode: 'p2p' | 'sfu' = 'p2p';
  private iceServers: RTCIceServer[] = [];
  /** Live transcription and translation (room state, this listener's language, the microphone stream). */
  readonly captions: Captions;
  /** Tells the room when this participant speaks (talk time in the meeting report). */
  readonly speaking: SpeakingMeter | null;
  /** This participant's free-time clock, as the server reports it (`free_time`). */
  readonly freeTime: FreeTimeClient;
  readonly billingEmail: string | null;
  readonly media: LocalMedia;
  readonly joinToken: string;
  readonly meetingId: string;
  private readonly store: Store<RoomSnapshot>;
  readonly getSnapshot: Store<RoomSnapshot>['getSnapshot'];
  readonly subscribe: Store<RoomSnapshot>['subscribe'];
  private disposed = false;
  private readonly cleanups: (() => void)[] = [];
  private existingTimer: ReturnType<typeof setTimeout> | null = null;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  /** Who was connected when we joined: the people we offer to (the reconciliation's scope). */
  private connectedAtJoin = new Set<string>();
  /** The server said our arrival moved the room to the SFU (`media_mode.bridge`). */
  private bridgeAtJoin = false;
  private lastMediaState = '';
  /**
   * The remote videos the room's layout shows (for the SFU: only those are received). Held here
   * alone: each SFU session reads it, so one that replaces another starts from it.
   */
  private readonly videoView = new Store<VideoWant[] | null>(null);

  constructor(private readonly opts: RoomSessionOptions) {
    this.media = opts.media;
    this.joinToken = opts.joinToken;
    this.meetingId = opts.meetingId;
    this.signal = new SignalClient({
      url: opts.socketUrl,
      joinToken: opts.joinToken,
      createSocket: opts.createSocket,
      log: opts.log,
    });
    this.mesh = new PeerMesh({
      selfId: opts.participantId,
      iceServers: [],
      local: this.media.tracks(),
      send: (m) => this.signal.send(m),
      log: opts.log,
      createPeerConnection: opts.createPeerConnection,
    });
    this.remote = new RemoteMedia(this.mesh);
    this.captions = new Captions({ signal: this.signal, media: this.media, log: opts.log });
    this.freeTime = new FreeTimeClient(this.signal);
    // The test room (no meeting row) keeps no report.
    this.speaking =
      opts.meetingId === TEST_ROOM_ID
        ? null
        : new SpeakingMeter({ signal: this.signal, media: this.media, log: opts.log });
    this.billingEmail = opts.billingEmail ?? null;
    this.store = new Store<RoomSnapshot>({
      signal: this.signal.getSnapshot(),
      self: null,
      participants: [],
      chat: [],
      waitingList: [],
      removedList: [],
      meeting: null,
      allMuted: false,
      mediaMode: 'p2p',
      activeSpeakerId: null,
      recording: null,
      holdRoom: false,
    });
    this.getSnapshot = this.store.getSnapshot;
    this.subscribe = this.store.subscribe;
    this.wire();
  }

  private get snapshot(): RoomSnapshot {
    return this.store.getSnapshot();
  }

  private set(patch: Partial<RoomSnapshot>): void {
    this.store.patch(patch);
  }

  private wire(): void {
    const s = this.signal;
    this.cleanups.push(
      s.subscribe(() => this.set({ signal: s.getSnapshot() })),
      s.on('joined', (m) => this.onJoined(m)),
      s.on('existing_connections', (m) => this.onExisting(m.participants)),
      s.on('participant_joined', (m) => this.onParticipantJoined(m.participant)),
      s.on('participant_updated', (m) => this.upsert(m.participant)),
      s.on('participant_left', (m) => this.onParticipantLeft(m)),
      s.on('offer', (m) => {
        // On the SFU, a mesh link that was replaced is not rebuilt from the other side's retries.
        if (this.mediaMode === 'sfu' && this.sfu?.isFlowing(m.fromParticipant)) return;
        void this.mesh.handleOffer(m.fromParticipant, m.offer);
      }),
      s.on('media_mode', (m) => {
        this.bridgeAtJoin = m.bridge === true;
        this.onMediaMode(m.mode, m.restart === true);
      }),
      s.on('sfu_offer', (m) => this.sfu?.handleOffer(m)),
      s.on('active_speaker', (m) => this.set({ activeSpeakerId: m.participantId })),
      s.on('recording_state', (m) => this.onRecordingState(m.recording)),
      s.on('answer', (m) => void this.mesh.handleAnswer(m.fromParticipant, m.answer)),
      s.on('ice-candidate', (m) => void this.mesh.handleCandidate(m.fromParticipant, m.candidate)),
      s.on('chat_message', (m) => this.onChat(m)),
      s.on('mute_all', (m) => this.onMuteAll(m.muted)),
      s.on('mute_participant', (m) => this.onMuteParticipant(m)),
      s.on('waiting_room', (m) => this.set({ waitingList: m.waiting })),
      s.on('removed_list', (m) => this.set({ removedList: m.removed })),
      s.on('error', (m) => {
        if (!m.requestId) this.opts.log?.(`server error ${m.code}: ${m.message}`);
      }),
      this.media.onTracksChanged((t) => {
        void this.mesh.setLocal(t);
        void this.sfu?.setLocal(t);
      }),
      this.media.subscribe(() => this.sendMediaState()),
      // Back on the mesh: the SFU session goes once every link carries media.
      this.mesh.subscribe(() => this.retireSfu()),
    );
  }

  connect(): void {
    this.signal.connect();
  }

  // ------------------------------------------------------------------ handlers

  private onJoined(m: ServerMessageOf<'joined'>): void {
    this.mesh.reset(m.self.id, m.iceServers as RTCIceServer[]);
    this.iceServers = m.iceServers as RTCIceServer[];
    const others = m.participants.filter((p) => p.id !== m.self.id);
    // Connections to people who are gone while we were away are closed; a resume keeps the rest.
    for (const id of this.mesh.ids()) if (!others.some((p) => p.id === id)) this.mesh.forget(id);
    // The first `joined` on the SFU: the room is shown once our SFU subscriber is under way (holdRoom),
    // unless our arrival moved the room there: then the first frames come over the mesh bridge.
    const hold = this.snapshot.self === null && this.mediaMode === 'sfu' && !this.bridgeAtJoin;
    this.set({
      self: m.self,
      participants: others,
      chat: mergeChat(this.snapshot.chat, m.chatHistory),
      meeting: m.meeting,
      allMuted: m.allMuted,
      ...(hold ? { holdRoom: true } : {}),
    });
    if (hold) this.holdTimer = setTimeout(() => this.showRoom(), ROOM_HOLD_MAX_MS);
    // The newcomer offers to everyone already here, at once (the 1 s request below reconciles).
    // On the SFU (the server said so before `joined`) nobody is offered a mesh link, except by
    // the newcomer whose arrival moved the room there (`bridge`): the others are still on the
    // mesh, and its first frames come from them as fast as a mesh join's while the SFU comes up.
    const mesh = this.mediaMode !== 'sfu' || this.bridgeAtJoin;
    this.bridgeAtJoin = false;
    this.connectedAtJoin = mesh ? new Set(others.filter((p) => p.isConnected).map((p) => p.id)) : new Set();
    // A resume keeps the SFU connections, unless one failed while we were away (a long drop).
    if (this.mediaMode === 'sfu') {
      const fresh = !m.resumed || this.sfu?.failed === true;
      if (!fresh) this.sfu?.resumed();
      this.startSfu(fresh);
    }
    for (const id of this.connectedAtJoin) this.mesh.connect(id);
    this.lastMediaState = '';
    // Joined (or came back) while Mute All is on: the server counts us muted, so the microphone
    // is, too. Someone who unmuted after Mute All is not muted again (their isMuted is false).
    if (m.allMuted && m.self.isMuted && !m.self.isHost && !this.media.getSnapshot().isMuted) {
      this.media.setMuted(true);
      this.opts.notify({ title: 'The host muted everyone', description: 'Your microphone is off.' });
    }
    this.sendMediaState();
    if (this.existingTimer) clearTimeout(this.existingTimer);
    this.existingTimer = setTimeout(() => {
      this.signal.send({ type: 'request_existing_connections', requestId: newRequestId() });
    }, EXISTING_CONNECTIONS_DELAY_MS);
  }

  /**
   * The room's media mode. `sfu`: publish and subscribe through the SFU; each mesh link closes once
   * that participant's media flows through the SFU (the new path flows before the old one closes).
   */
  private onMediaMode(mode: 'p2p' | 'sfu', restart: boolean): void {
    const was = this.mediaMode;
    this.mediaMode = mode;
    this.set({ mediaMode: mode });
    // `restart`: the SFU came back after a failure: our old connections to it are dead.
    if (mode === 'sfu' && this.signal.state === 'joined') this.startSfu(restart);
    if (mode === 'p2p' && was === 'sfu' && this.signal.state === 'joined') this.backToMesh();
  }

  /**
   * The room went back to peer-to-peer (two or one left): each pair meshes again, the one with the
   * smaller id offering (the other answers), while the SFU keeps carrying the media; the SFU
   * session closes once every link carries media (`retireSfu`), so the switch shows no gap.
   */
  private backToMesh(): void {
    const selfId = this.snapshot.self?.id;
    if (!selfId) return;
    this.set({ activeSpeakerId: null });
    for (const p of this.snapshot.participants) {
      if (p.isConnected && selfId < p.id && !this.mesh.get(p.id)) this.mesh.connect(p.id);
    }
    this.retireSfu();
  }

  /** On the mesh again, the SFU session closes once each connected participant's link carries media. */
  private retireSfu(): void {
    const sfu = this.sfu;
    if (!sfu || this.mediaMode !== 'p2p' || this.signal.state !== 'joined') return;
    const others = this.snapshot.participants.filter((p) => p.isConnected);
    if (!others.every((p) => carriesMedia(this.mesh.get(p.id)))) return;
    sfu.close();
    this.sfu = null;
    this.remote.setSfu(null);
    this.signal.request({ type: 'sfu_leave' }).catch((err: unknown) => this.opts.log?.('sfu: leave', err));
  }

  /** The room may be shown (our SFU subscriber connection is under way, or that took too long). */
  private showRoom(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (this.snapshot.holdRoom) this.set({ holdRoom: false });
  }

  /** Starts the SFU path (again after a fresh join: the server's SFU state is per participant). */
  private startSfu(fresh: boolean): void {
    if (this.sfu && !fresh) return;
    this.sfu?.close();
    const sfu = new SfuSession({
      signal: this.signal,
      local: this.media.tracks(),
      iceServers: this.iceServers,
      log: this.opts.log,
      createPeerConnection: this.opts.createPeerConnection,
      sendsVideo: (id) => {
        const p = this.snapshot.participants.find((x) => x.id === id);
        return !p || p.isVideoOn || p.isScreenSharing;
      },
      view: this.videoView,
    });
    sfu.onFlowing = (id) => {
      if (this.mediaMode === 'sfu') this.mesh.forget(id);
    };
    // A failed connection: a fresh session now if the socket is up, else at the resume's `joined`.
    sfu.onFailed = () => {
      if (this.sfu === sfu && this.mediaMode === 'sfu' && this.signal.state === 'joined') this.startSfu(true);
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

  private onExisting(list: RoomParticipant[]): void {
    const selfId = this.snapshot.self?.id;
    for (const p of list) {
      if (p.id === selfId) continue;
      this.upsert(p);
      // Only those we were to offer to: anyone who connected after us offers to us, and offering
      // too collided with their offer whenever they arrived about 1 s after our join (glare).
      if (
        p.isConnected &&
        !this.mesh.get(p.id) &&
        this.connectedAtJoin.has(p.id) &&
        // A bridge link the SFU already replaced is not made again.
        !(this.mediaMode === 'sfu' && this.sfu?.isFlowing(p.id))
      )
        this.mesh.connect(p.id);
    }
  }

  private onParticipantJoined(p: RoomParticipant): void {
    if (p.id === this.snapshot.self?.id) return;
    // Someone we know joining again (a reload) offers from a fresh connection; the mesh notices
    // the new SDP session and rebuilds the link, so nothing is torn down here.
    const known = this.snapshot.participants.some((x) => x.id === p.id);
    this.upsert(p);
    if (!known) this.opts.notify({ title: `${p.name} joined the meeting` });
  }

  private upsert(p: RoomParticipant): void {
    if (p.id === this.snapshot.self?.id) {
      this.set({ self: p });
      return;
    }
    const list = this.snapshot.participants;
    const i = list.findIndex((x) => x.id === p.id);
    this.set({ participants: i < 0 ? [...list, p] : list.map((x) => (x.id === p.id ? p : x)) });
  }

  private onParticipantLeft(m: ServerMessageOf<'participant_left'>): void {
    const gone = this.snapshot.participants.find((p) => p.id === m.participantId);
    this.mesh.forget(m.participantId);
    this.set({ participants: this.snapshot.participants.filter((p) => p.id !== m.participantId) });
    if (gone) {
      const how = m.reason === 'removed' ? 'was removed' : 'left the meeting';
      this.opts.notify({ title: `${gone.name} ${how}` });
    }
  }

  private onChat(m: ServerMessageOf<'chat_message'>): void {
    const { type: _t, requestId: _r, ...msg } = m;
    this.set({ chat: mergeChat(this.snapshot.chat, [msg]) });
  }

  private onMuteAll(muted: boolean): void {
    this.set({ allMuted: muted });
    if (this.snapshot.self?.isHost) return;
    if (muted) {
      this.media.setMuted(true);
      this.opts.notify({ title: 'The host muted everyone', description: 'Your microphone is off.' });
    } else {
      this.opts.notify({
        title: 'The host lifted Mute All',
        description: 'You can unmute yourself (press M).',
      });
    }
  }

  /** Everyone is told when the recording starts or stops (not on the first state after joining). */
  private onRecordingState(recording: RecordingState): void {
    const before = this.snapshot.recording;
    this.set({ recording });
    if (!before || before.active === recording.active) return;
    this.opts.notify({
      title: recording.active ? RECORDING_TEXTS.startedNotice : RECORDING_TEXTS.stoppedNotice,
    });
  }

  private onMuteParticipant(m: ServerMessageOf<'mute_participant'>): void {
    const selfId = this.snapshot.self?.id;
    if (m.targetParticipantId !== selfId) return;
    if (m.muted) {
      this.media.setMuted(true);
      this.opts.notify({
        title: 'The host muted you',
        description: 'Press M or the microphone button to unmute.',
      });
    } else {
      this.opts.notify({ title: 'The host asked you to unmute', description: 'Press M to unmute.' });
    }
  }

  private sendMediaState(): void {
    const m = this.media.getSnapshot();
    const state = {
      type: 'media_state' as const,
      isMuted: m.isMuted,
      isVideoOn: m.isVideoOn,
      isScreenSharing: m.isScreenSharing,
    };
    const key = JSON.stringify(state);
    if (key === this.lastMediaState || this.signal.state !== 'joined') return;
    this.lastMediaState = key;
    this.signal.send(state);
    if (this.snapshot.self) {
      this.set({
        self: {
          ...this.snapshot.self,
          isMuted: m.isMuted,
          isVideoOn: m.isVideoOn,
          isScreenSharing: m.isScreenSharing,
        },
      });
    }
  }

  // ------------------------------------------------------------------ actions

  /** The layout shows these remote videos now (each tile's quality); the SFU sends only those. */
  setVideoView(videos: VideoWant[]): void {
    this.videoView.set(videos);
  }

  sendChat(content: string, fileId?: string): void {
    if (!content.trim() && !fileId) return;
    this.signal.send({
      type: 'chat_message',
      requestId: newRequestId(),
      content: content.trim(),
      ...(fileId ? { fileId } : {}),
    });
  }

  private async hostAction(msg: Parameters<SignalClient['request']>[0], failTitle: string): Promise<boolean> {
    try {
      await this.signal.request(msg);
      return true;
    } catch (err) {
      this.opts.notify({ title: failTitle, description: (err as Error).message, variant: 'destructive' });
      return false;
    }
  }

  /** Turns the room's Mute All on or off (host only); the state follows the server's answer. */
  async muteAll(muted: boolean): Promise<void> {
    const ok = await this.hostAction(
      { type: 'mute_all', muted },
      muted ? 'Could not mute everyone' : 'Could not unmute everyone',
    );
    // The server tells everyone else with `mute_all`; its ack is the sender's copy of that news.
    if (ok && !this.disposed) this.set({ allMuted: muted });
  }

  async muteParticipant(targetParticipantId: string, muted: boolean): Promise<void> {
    await this.hostAction(
      { type: 'mute_participant', targetParticipantId, muted },
      'Could not change their microphone',
    );
  }

  async removeParticipant(targetParticipantId: string): Promise<void> {
    await this.hostAction(
      { type: 'remove_participant', targetParticipantId },
      'Could not remove the participant',
    );
  }

  async admit(targetParticipantId: string): Promise<void> {
    await this.hostAction({ type: 'admit_participant', targetParticipantId }, 'Could not admit the guest');
  }

  async deny(targetParticipantId: string): Promise<void> {
    await this.hostAction({ type: 'deny_participant', targetParticipantId }, 'Could not deny the guest');
  }

  /** Starts or stops the meeting's recording (host); the state follows `recording_state`. */
  async setRecording(on: boolean): Promise<void> {
    await this.hostAction(
      { type: 'set_recording', on },
      on ? 'Could not start recording' : 'Could not stop recording',
    );
  }

  /** Takes a removed person off the deny list (host): they may join again. */
  async allowRejoin(removedId: string): Promise<void> {
    await this.hostAction({ type: 'allow_rejoin', removedId }, 'Could not allow them back');
  }

  /** Leaves for good: the server hears `leave_meeting`, then everything is released. */
  leave(): void {
    this.dispose();
  }

  /**
   * Releases the socket and the peer connections; idempotent. A socket still open leaves politely
   * (the server drops us at once instead of keeping a ghost for the grace period).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.existingTimer) clearTimeout(this.existingTimer);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    for (const c of this.cleanups.splice(0)) c();
    this.captions.dispose();
    this.speaking?.dispose();
    this.freeTime.dispose();
    this.mesh.closeAll();
    this.sfu?.close();
    if (this.signal.state !== 'closed') this.signal.leave();
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

/** Adds messages by id, keeping time order (history and live messages may overlap). */
export function mergeChat(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}
