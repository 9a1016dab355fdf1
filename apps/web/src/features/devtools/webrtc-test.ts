import { ApiError } from '@/lib/api';
import { joinMeeting, meetingSessionId } from '@/features/room/api';
import { PeerMesh, type MeshSignal } from '@/features/room/media/peer-mesh';
import { SignalClient, signalUrl } from '@/features/room/signal-client';

/**
 * The /webrtc-test page's engine: the local camera, one peer connection to the other tab, and
 * signaling for the room `test-room` (spec §7). It uses the real server (`POST /join` + `/ws`)
 * when the server offers the test room; otherwise the two tabs of this browser signal each other
 * over a BroadcastChannel, which still exercises the browser's WebRTC end to end.
 */

export const TEST_ROOM_ID = 'test-room';

export interface WebRtcTestSnapshot {
  transport: 'server' | 'this browser' | null;
  signaling: string;
  connection: RTCPeerConnectionState | 'waiting for the other tab';
  remoteId: string | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  error: string | null;
  log: string[];
}

type Local = { stream: MediaStream; audio: MediaStreamTrack | null; video: MediaStreamTrack | null };

type ChannelMessage =
  | { type: 'hello'; from: string }
  | { type: 'welcome'; from: string; to: string }
  | { type: 'bye'; from: string }
  | { type: 'signal'; from: string; to: string; signal: MeshSignal };

export class WebRtcTest {
  private snapshot: WebRtcTestSnapshot = {
    transport: null,
    signaling: 'starting',
    connection: 'waiting for the other tab',
    remoteId: null,
    localStream: null,
    remoteStream: null,
    error: null,
    log: [],
  };
  private readonly listeners = new Set<() => void>();
  private mesh: PeerMesh | null = null;
  private signal: SignalClient | null = null;
  private channel: BroadcastChannel | null = null;
  private stream: MediaStream | null = null;
  private stopped = false;
  private readonly tabId = `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

  getSnapshot = (): WebRtcTestSnapshot => this.snapshot;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<WebRtcTestSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  private note(line: string): void {
    const stamp = new Date().toLocaleTimeString();
    this.set({ log: [...this.snapshot.log.slice(-30), `${stamp} ${line}`] });
  }

  private readonly onPageHide = () => this.stop();

  async start(): Promise<void> {
    // Closing the tab tells the other one at once (no React cleanup runs on a closing page).
    window.addEventListener('pagehide', this.onPageHide);
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 640 }, height: { ideal: 480 } },
        audio: true,
      });
    } catch (err) {
      this.set({ error: `Camera/microphone: ${(err as Error).message}` });
      this.stream = new MediaStream();
    }
    if (this.stopped) return this.stopMedia();
    const local: Local = {
      stream: this.stream,
      audio: this.stream.getAudioTracks()[0] ?? null,
      video: this.stream.getVideoTracks()[0] ?? null,
    };
    this.set({ localStream: this.stream });
    const viaServer = await this.tryServer(local);
    if (!viaServer && !this.stopped) this.useBroadcastChannel(local);
  }

  private makeMesh(selfId: string, iceServers: RTCIceServer[], local: Local, send: (s: MeshSignal) => void) {
    const mesh = new PeerMesh({ selfId, iceServers, local, send, log: (m) => this.note(m) });
    mesh.subscribe(() => {
      const link = mesh.all()[0];
      this.set({
        remoteId: link?.remoteId ?? null,
        remoteStream: link?.remoteStream ?? null,
        connection: link ? link.connectionState : 'waiting for the other tab',
      });
    });
    this.mesh = mesh;
    return mesh;
  }

  private route(from: string, s: MeshSignal): void {
    const mesh = this.mesh;
    if (!mesh) return;
    if (s.type === 'offer') void mesh.handleOffer(from, s.offer);
    else if (s.type === 'answer') void mesh.handleAnswer(from, s.answer);
    else void mesh.handleCandidate(from, s.candidate);
  }

  /** The real server: join `test-room` like a meeting, then signal over /ws. */
  private async tryServer(local: Local): Promise<boolean> {
    let res;
    try {
      res = await joinMeeting(TEST_ROOM_ID, {
        name: `Test ${this.tabId.slice(-5)}`,
        isHost: false,
        isMuted: false,
        isVideoOn: true,
        sessionId: `${meetingSessionId(TEST_ROOM_ID)}-${this.tabId}`,
      });
    } catch (err) {
      const why = err instanceof ApiError ? err.message : (err as Error).message;
      this.note(`server test room unavailable (${why}); signaling between the tabs of this browser`);
      return false;
    }
    if (this.stopped) return true;
    this.set({ transport: 'server', signaling: 'connecting' });
    const signal = new SignalClient({
      url: signalUrl(window.location, {
        meetingId: TEST_ROOM_ID,
        name: `Test ${this.tabId.slice(-5)}`,
        host: false,
      }),
      joinToken: res.joinToken,
      log: (m) => this.note(m),
    });
    this.signal = signal;
    const mesh = this.makeMesh(res.id, [], local, (s) => signal.send(s));
    signal.subscribe(() => this.set({ signaling: signal.state }));
    signal.on('joined', (m) => {
      mesh.reset(m.self.id, m.iceServers as RTCIceServer[]);
      this.note(`joined ${TEST_ROOM_ID} as ${m.self.id.slice(0, 8)}; ${m.participants.length} other(s) here`);
      for (const p of m.participants) if (p.isConnected) mesh.connect(p.id);
    });
    signal.on('participant_joined', (m) => this.note(`${m.participant.name} opened the page`));
    signal.on('participant_left', (m) => {
      this.note(`the other tab left`);
      mesh.forget(m.participantId);
    });
    signal.on('offer', (m) =>
      this.route(m.fromParticipant, { type: 'offer', targetParticipant: '', offer: m.offer }),
    );
    signal.on('answer', (m) =>
      this.route(m.fromParticipant, { type: 'answer', targetParticipant: '', answer: m.answer }),
    );
    signal.on('ice-candidate', (m) =>
      this.route(m.fromParticipant, { type: 'ice-candidate', targetParticipant: '', candidate: m.candidate }),
    );
    signal.connect();
    return true;
  }

  /** Fallback: the tabs of this browser find each other on a BroadcastChannel. */
  private useBroadcastChannel(local: Local): void {
    if (typeof BroadcastChannel === 'undefined') {
      this.set({ error: 'This browser cannot signal between tabs (no BroadcastChannel).' });
      return;
    }
    const channel = new BroadcastChannel(`parley-webrtc-${TEST_ROOM_ID}`);
    this.channel = channel;
    const me = this.tabId;
    const post = (m: ChannelMessage) => channel.postMessage(m);
    const mesh = this.makeMesh(me, [], local, (signal) =>
      post({ type: 'signal', from: me, to: signal.targetParticipant, signal }),
    );
    channel.onmessage = (ev: MessageEvent<ChannelMessage>) => {
      const m = ev.data;
      if (m.from === me) return;
      if (m.type === 'hello') {
        this.note(`another tab opened the page`);
        post({ type: 'welcome', from: me, to: m.from });
      } else if (m.type === 'welcome' && m.to === me) {
        this.note(`found the other tab; calling it`);
        mesh.connect(m.from);
      } else if (m.type === 'bye') {
        this.note(`the other tab left`);
        mesh.forget(m.from);
      } else if (m.type === 'signal' && m.to === me) {
        this.route(m.from, m.signal);
      }
    };
    this.set({ transport: 'this browser', signaling: 'connected' });
    post({ type: 'hello', from: me });
  }

  private stopMedia(): void {
    this.stream?.getTracks().forEach((t) => t.stop());
  }

  stop(): void {
    if (this.stopped) return;
    window.removeEventListener('pagehide', this.onPageHide);
    this.stopped = true;
    this.channel?.postMessage({ type: 'bye', from: this.tabId } satisfies ChannelMessage);
    this.channel?.close();
    this.signal?.leave();
    this.mesh?.closeAll();
    this.stopMedia();
  }
}
