import { MEETING_ID_PATTERN } from '@parley/protocol/constants';
import { TEST_ROOM_ID, type JoinRequest, type JoinResponse } from '@parley/protocol/ws';
import { classifyJoinError, joinChoiceStore, meetingSessionId } from './api';
import type { EndKind } from './components/StatusScreens';
import { installDebugHandle } from './debug';
import { PeerConnectionReserve, mediaPermissionGranted } from './media/connection-reserve';
import { LocalMedia } from './media/local-media';
import { loadPreferences } from './preferences';
import { RoomSession, type Notice } from './room-session';
import { signalUrl, type CloseReason } from './signal-client';

/**
 * The page's flow, outside React: local media for the preview, the REST join, the RoomSession,
 * and every end state. The page renders `getSnapshot()`; nothing here touches the DOM.
 */

export interface JoinChoice {
  name: string;
  audio: boolean;
  video: boolean;
}

export type RoomPhase =
  | { k: 'prejoin' }
  | { k: 'joining' }
  | { k: 'password'; wrong: boolean }
  | { k: 'room' }
  | { k: 'end'; kind: EndKind; detail: string | null };

export interface ControllerSnapshot {
  phase: RoomPhase;
  media: LocalMedia | null;
  session: RoomSession | null;
}

export interface RoomControllerOptions {
  meetingId: string;
  /** `name` from the query; with `host=true` it joins at once (spec §2). */
  queryName: string;
  wantsHost: boolean;
  autoJoin: boolean;
  join: (meetingId: string, body: JoinRequest) => Promise<JoinResponse>;
  notify: (n: Notice) => void;
}

const CLOSE_TO_END: Record<CloseReason, EndKind> = {
  left: 'left',
  removed: 'removed',
  ended: 'ended',
  not_found: 'not_found',
  denied: 'denied',
  replaced: 'replaced',
  unauthorized: 'connection_lost',
  forbidden: 'error',
  expired: 'connection_lost',
  gave_up: 'connection_lost',
};

export class RoomController {
  private snapshot: ControllerSnapshot = { phase: { k: 'prejoin' }, media: null, session: null };
  private readonly listeners = new Set<() => void>();
  private choice: JoinChoice | null = null;
  private sessionCleanup: (() => void) | null = null;
  private running = false;
  private attempt = 0;
  /** Peer connections made ahead of the links that use them (see connection-reserve.ts). */
  private reserve: PeerConnectionReserve | null = null;

  constructor(private readonly opts: RoomControllerOptions) {}

  getSnapshot = (): ControllerSnapshot => this.snapshot;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<ControllerSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  /** Starts the camera preview (and the host's immediate join). Safe to call again after stop. */
  start(): void {
    if (this.running) return;
    this.running = true;
    // An id that cannot name a meeting is told at once, before the camera is turned on.
    if (!MEETING_ID_PATTERN.test(this.opts.meetingId) && this.opts.meetingId !== TEST_ROOM_ID) {
      this.set({ phase: { k: 'end', kind: 'not_found', detail: null }, media: null });
      return;
    }
    const prefs = loadPreferences();
    const auto = this.opts.autoJoin && this.attempt === 0;
    // A rejoin after leaving, or a reload of a room this tab was in.
    const rejoin = this.choice ?? joinChoiceStore.load(this.opts.meetingId);
    const audio = rejoin ? rejoin.audio : auto || !prefs.joinMuted;
    const video = rejoin ? rejoin.video : auto || !prefs.joinCameraOff;
    const media = new LocalMedia();
    const started = media.start({ audio, video });
    this.prepareConnections(media, started);
    this.set({ media, phase: { k: 'prejoin' } });
    if (rejoin) this.join(rejoin);
    else if (auto) this.join({ name: this.opts.queryName, audio: true, video: true });
  }

  /**
   * Makes the first peer connection ahead of the join (see connection-reserve.ts), as soon as the
   * page may use the camera or microphone: Chromium decides when a connection is made whether it
   * may see the network interfaces, so one made before a first-time permission prompt is answered
   * would stay without them.
   */
  private prepareConnections(media: LocalMedia, started: Promise<void>): void {
    if (typeof RTCPeerConnection !== 'function') return;
    const make = () => {
      if (this.running && this.snapshot.media === media && !this.reserve) {
        this.reserve = new PeerConnectionReserve();
      }
    };
    void mediaPermissionGranted().then((granted) => granted && make());
    void started.then(() => (media.audioTrack || media.cameraTrack) && make());
  }

  /** Releases everything (unmount): the socket, the peer connections, the camera. */
  stop(): void {
    this.running = false;
    this.endSession();
    this.reserve?.dispose();
    this.reserve = null;
    this.snapshot.media?.stop();
    this.set({ media: null });
  }

  join(choice: JoinChoice, password?: string): void {
    this.choice = choice;
    this.attempt += 1;
    const attempt = this.attempt;
    this.set({ phase: { k: 'joining' } });
    const body: JoinRequest = {
      name: choice.name,
      isHost: this.opts.wantsHost,
      isMuted: !choice.audio,
      isVideoOn: choice.video,
      sessionId: meetingSessionId(this.opts.meetingId),
      ...(password ? { password } : {}),
    };
    this.opts.join(this.opts.meetingId, body).then(
      (res) => {
        if (attempt === this.attempt && this.running) this.enterRoom(res, choice);
      },
      (err: unknown) => {
        if (attempt !== this.attempt || !this.running) return;
        console.error('Failed to join meeting', err);
        const f = classifyJoinError(err, !!password);
        if (f.kind === 'password') this.set({ phase: { k: 'password', wrong: f.wrong } });
        else this.end(f.kind, f.kind === 'error' ? f.message : null);
      },
    );
  }

  submitPassword(password: string): void {
    if (this.choice) this.join(this.choice, password);
  }

  private enterRoom(res: JoinResponse, choice: JoinChoice): void {
    const media = this.snapshot.media;
    if (!media) return;
    joinChoiceStore.save(this.opts.meetingId, choice);
    media.setMuted(!choice.audio);
    media.setVideoOn(choice.video);
    const session = new RoomSession({
      meetingId: this.opts.meetingId,
      participantId: res.id,
      joinToken: res.joinToken,
      socketUrl: signalUrl(window.location, {
        meetingId: this.opts.meetingId,
        name: choice.name,
        host: res.isHost,
      }),
      media,
      notify: this.opts.notify,
      createPeerConnection: (config) => this.reserve?.take(config) ?? new RTCPeerConnection(config),
      log: (msg, extra) => console.info(`[room] ${msg}`, extra ?? ''),
    });
    const uninstall = installDebugHandle(session);
    const unsubscribe = session.subscribe(() => {
      const sig = session.getSnapshot().signal;
      if (sig.state === 'closed' && sig.closeReason && this.snapshot.session === session) {
        this.end(CLOSE_TO_END[sig.closeReason], sig.closeMessage);
      }
    });
    // A reload rejoins with the microphone and camera as they are now, not as they were.
    const unwatchMedia = media.subscribe(() => {
      const m = media.getSnapshot();
      if (!media.isStopped)
        joinChoiceStore.save(this.opts.meetingId, {
          name: choice.name,
          audio: !m.isMuted,
          video: m.isVideoOn,
        });
    });
    this.sessionCleanup = () => {
      unwatchMedia();
      unsubscribe();
      uninstall();
      session.dispose();
    };
    this.set({ session, phase: { k: 'room' } });
    session.connect();
  }

  private endSession(): void {
    const c = this.sessionCleanup;
    this.sessionCleanup = null;
    c?.();
    if (this.snapshot.session) this.set({ session: null });
  }

  private end(kind: EndKind, detail: string | null): void {
    if (kind !== 'connection_lost') joinChoiceStore.clear(this.opts.meetingId);
    this.endSession();
    this.reserve?.dispose();
    this.reserve = null;
    this.snapshot.media?.stop();
    this.set({ phase: { k: 'end', kind, detail }, media: null });
  }

  leave(): void {
    joinChoiceStore.clear(this.opts.meetingId);
    this.snapshot.session?.leave();
    this.end('left', null);
  }

  /** Joins again with the same name and settings (after leaving or losing the connection). */
  rejoin(): void {
    this.running = false;
    this.start();
  }
}
