import { JOINED_TOAST_MS, MEETING_ID_PATTERN, TEST_ROOM_ID } from '@parley/protocol/constants';
import type { JoinRequest, JoinResponse } from '@parley/protocol/ws';
import { ApiError } from '@/lib/api';
import { Store } from '@/lib/store';
import { browserId, classifyJoinError, joinChoiceStore, meetingSessionId, resumeTokenStore } from './api';
import { installDebugHandle } from './debug';
import { PeerConnectionReserve, mediaPermissionGranted } from './media/connection-reserve';
import { LocalMedia } from './media/local-media';
import { loadPreferences } from './preferences';
import { RoomSession, type Notice } from './room-session';
import { linkJoinChoice, type EndKind, type JoinChoice, type RoomState } from './room-state';
import { signalUrl, type CloseReason, type WebSocketLike } from './signal-client';

export type { JoinChoice, RoomPhase, RoomState } from './room-state';

/**
 * The meeting page's state machine, outside React: it owns the local media, the REST join, the
 * RoomSession and the peer-connection reserve, and moves through the phases of `RoomState`. The
 * page renders `getSnapshot()`; nothing here touches the DOM. Every way out (leave, a refusal, a
 * lost connection, the page going away) releases through `release()`.
 */

export interface RoomControllerOptions {
  meetingId: string;
  /** `name` from the query: a valid one skips the pre-join dialog (spec §2). */
  queryName: string;
  /** `host=true` in the link (the server decides whether this person really is the host). */
  wantsHost: boolean;
  /**
   * The REST join (POST /join): the one door for everyone, a name and the media choice. No
   * e-mail is asked up front (issue 37 item 2): the payment setup card asks for one when the
   * free time needs it.
   */
  join: (meetingId: string, body: JoinRequest) => Promise<JoinResponse>;
  notify: (n: Notice) => void;
  /** The room socket (tests pass a fake). */
  createSocket?: (url: string) => WebSocketLike;
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
  free_time: 'free_time',
};

export class RoomController {
  private readonly store = new Store<RoomState>({ phase: 'idle' });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;
  /** The last join's name and settings: the password retry and Rejoin use them again. */
  private choice: JoinChoice | null = null;
  /** Counts join calls, so the answer to an abandoned one is ignored. */
  private attempt = 0;
  /** Unhooks what enterRoom hooked onto the session and the media. */
  private detach: (() => void) | null = null;
  /** Peer connections made ahead of the links that use them (see connection-reserve.ts). */
  private reserve: PeerConnectionReserve | null = null;

  constructor(private readonly opts: RoomControllerOptions) {}

  private get state(): RoomState {
    return this.store.getSnapshot();
  }

  /**
   * idle/ended → prejoin: starts the camera preview. A rejoin (after Rejoin, or a reload of a room
   * this tab was in) or a valid `?name=` goes on to join at once.
   */
  start(): void {
    if (this.state.phase !== 'idle' && this.state.phase !== 'ended') return;
    // An id that cannot name a meeting is told at once, before the camera is turned on.
    if (!MEETING_ID_PATTERN.test(this.opts.meetingId) && this.opts.meetingId !== TEST_ROOM_ID) {
      this.store.set({ phase: 'ended', reason: 'not_found', detail: null });
      return;
    }
    const prefs = loadPreferences();
    const choice =
      this.choice ??
      joinChoiceStore.load(this.opts.meetingId) ??
      linkJoinChoice(this.opts.queryName, this.opts.wantsHost, prefs);
    const media = new LocalMedia();
    const started = media.start(
      choice
        ? { audio: choice.audio, video: choice.video }
        : { audio: !prefs.joinMuted, video: !prefs.joinCameraOff },
    );
    this.store.set({ phase: 'prejoin', media });
    this.prepareConnections(media, started);
    if (choice) this.join(choice);
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
      const s = this.state;
      if ('media' in s && s.media === media && !this.reserve) this.reserve = PeerConnectionReserve.forPage();
    };
    void mediaPermissionGranted().then((granted) => granted && make());
    void started.then(() => (media.audioTrack || media.cameraTrack) && make());
  }

  /** prejoin/password → joining: the REST join; its answer leads to the room, a password or an end. */
  join(choice: JoinChoice, password?: string): void {
    const s = this.state;
    if (s.phase !== 'prejoin' && s.phase !== 'password') return;
    const { media } = s;
    this.choice = choice;
    this.attempt += 1;
    const attempt = this.attempt;
    this.store.set({ phase: 'joining', media, session: null });
    const resumeToken = resumeTokenStore.load(this.opts.meetingId);
    const body: JoinRequest = {
      name: choice.name,
      isHost: this.opts.wantsHost,
      isMuted: !choice.audio,
      isVideoOn: choice.video,
      sessionId: meetingSessionId(this.opts.meetingId),
      browserId: browserId(),
      ...(password ? { password } : {}),
      ...(resumeToken ? { resumeToken } : {}),
    };
    const current = () => attempt === this.attempt && this.state.phase === 'joining';
    this.opts.join(this.opts.meetingId, body).then(
      (res) => {
        if (current()) this.enterRoom(res, choice, media);
      },
      (err: unknown) => {
        if (!current()) return;
        // The server saying no (not found, ended, full, password, removed, limits) is an answer the
        // screen shows, not a fault; only a failed call or a server error is logged as one.
        if (err instanceof ApiError && err.status < 500)
          console.info(`Join refused: ${err.status} ${err.serverMessage}`);
        else console.error('Failed to join meeting', err);
        const f = classifyJoinError(err, !!password);
        if (f.kind === 'password') this.store.set({ phase: 'password', media, wrong: f.wrong });
        else this.end(f.kind, 'message' in f && f.message ? f.message : null);
      },
    );
  }

  submitPassword(password: string): void {
    if (this.choice) this.join(this.choice, password);
  }

  /** joining (call answered) → joining with a session; the session's socket takes it from there. */
  private enterRoom(res: JoinResponse, choice: JoinChoice, media: LocalMedia): void {
    joinChoiceStore.save(this.opts.meetingId, choice);
    resumeTokenStore.save(this.opts.meetingId, res.joinToken);
    // Headed for the SFU: its two connections are made while the socket connects.
    if (res.mediaMode === 'sfu') this.reserve?.expectSfu();
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
      createSocket: this.opts.createSocket,
      createPeerConnection: (config, use) => this.reserve?.take(config, use) ?? new RTCPeerConnection(config),
      log: (msg, extra) => console.info(`[room] ${msg}`, extra ?? ''),
    });
    const unhooks = [
      installDebugHandle(session),
      session.subscribe(() => this.follow(session)),
      // A reload rejoins with the microphone and camera as they are now, not as they were.
      media.subscribe(() => {
        const m = media.getSnapshot();
        if (!media.isStopped)
          joinChoiceStore.save(this.opts.meetingId, {
            name: choice.name,
            audio: !m.isMuted,
            video: m.isVideoOn,
          });
      }),
    ];
    this.detach = () => unhooks.forEach((u) => u());
    this.store.set({ phase: 'joining', media, session });
    session.connect();
  }

  /**
   * The session's socket moves the phase: waiting → waiting, joined → in-room, a drop after being
   * in → reconnecting (before that the joining or waiting screen stays), closed → ended.
   */
  private follow(session: RoomSession): void {
    const s = this.state;
    if (!('session' in s) || s.session !== session) return;
    const { signal, self, holdRoom } = session.getSnapshot();
    if (signal.state === 'closed') {
      if (signal.closeReason) this.end(CLOSE_TO_END[signal.closeReason], signal.closeMessage);
      return;
    }
    let next = s.phase;
    if (signal.state === 'waiting') next = 'waiting';
    // In once `joined` is handled (self known), so the room never renders without its participant,
    // and, the first time, once the session no longer holds the room back (holdRoom: on the SFU
    // our subscriber connection gets under way first).
    else if (signal.state === 'joined' && self && (s.phase === 'reconnecting' || !holdRoom)) next = 'in-room';
    else if (signal.state === 'reconnecting' && s.phase === 'in-room') next = 'reconnecting';
    if (next === s.phase) return;
    if (next === 'in-room') {
      this.opts.notify(
        s.phase === 'reconnecting'
          ? { title: 'Reconnected', duration: JOINED_TOAST_MS }
          : {
              title: 'You joined the meeting',
              description: `Meeting ${this.opts.meetingId}`,
              variant: 'success',
              duration: JOINED_TOAST_MS,
            },
      );
    }
    this.store.set({ phase: next, media: s.media, session });
  }

  /** Leaves from any phase: the server is told, the page shows 'You left the meeting'. */
  leave(): void {
    this.end('left', null);
  }

  /** Joins again with the same name and settings (after leaving or losing the connection). */
  rejoin(): void {
    if (this.state.phase === 'ended') this.start();
  }

  /** Any phase → idle (the page unmounts): everything is released. start() may run again. */
  stop(): void {
    this.release();
    this.store.set({ phase: 'idle' });
  }

  private end(reason: EndKind, detail: string | null): void {
    // A lost connection may be rejoined after a reload; any other end forgets this tab's join.
    if (reason !== 'connection_lost') {
      joinChoiceStore.clear(this.opts.meetingId);
      resumeTokenStore.clear(this.opts.meetingId);
    }
    this.release();
    this.store.set({ phase: 'ended', reason, detail });
  }

  /**
   * The one dispose path: unhooks first (so the session closing cannot re-enter), then the
   * session (a socket still open leaves politely), the spare peer connections, and the camera and
   * microphone. What the current phase does not hold is simply not there.
   */
  private release(): void {
    const detach = this.detach;
    this.detach = null;
    detach?.();
    const s = this.state;
    if ('session' in s) s.session?.dispose();
    this.reserve?.dispose();
    this.reserve = null;
    if ('media' in s) s.media.stop();
  }
}
