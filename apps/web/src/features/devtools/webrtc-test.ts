import { DEMO_CAMERA } from '@parley/protocol/constants';
import { TEST_ROOM_ID } from '@parley/protocol/constants';
import { ApiError } from '@/lib/api';
import { Store } from '@/lib/store';
import { joinMeeting, meetingSessionId } from '@/features/room/api';
import { PeerMesh, type MeshSignal } from '@/features/room/media/peer-mesh';
import { SignalClient, signalUrl } from '@/features/room/signal-client';

/**
 * The /webrtc-test page's engine: the local camera, one peer connection to the other page, and
 * signaling through the server's test room `test-room` (spec §7: `POST /join` + `/ws`, the same
 * path as a meeting). The server offers the test room outside production only; elsewhere the page
 * says so.
 */

export interface WebRtcTestSnapshot {
  transport: 'server' | null;
  signaling: string;
  connection: RTCPeerConnectionState | 'waiting for the other tab' | 'not started';
  remoteId: string | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  error: string | null;
  log: string[];
}

type Local = { stream: MediaStream; audio: MediaStreamTrack | null; video: MediaStreamTrack | null };

export const INITIAL_WEBRTC_TEST: WebRtcTestSnapshot = {
  transport: null,
  signaling: 'starting',
  connection: 'waiting for the other tab',
  remoteId: null,
  localStream: null,
  remoteStream: null,
  error: null,
  log: [],
};

/** One run of the test: start() once, stop() for good (a new run is a new instance). */
export class WebRtcTest {
  private readonly store = new Store<WebRtcTestSnapshot>(INITIAL_WEBRTC_TEST);
  private mesh: PeerMesh | null = null;
  private signal: SignalClient | null = null;
  private stream: MediaStream | null = null;
  private stopped = false;
  private readonly tabId = `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;

  private set(patch: Partial<WebRtcTestSnapshot>): void {
    this.store.patch(patch);
  }

  private note(line: string): void {
    const stamp = new Date().toLocaleTimeString();
    this.set({ log: [...this.getSnapshot().log.slice(-30), `${stamp} ${line}`] });
  }

  private readonly onPageHide = () => this.stop();

  async start(): Promise<void> {
    // Closing the tab tells the others at once through the server (no React cleanup runs on a closing page).
    window.addEventListener('pagehide', this.onPageHide);
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: DEMO_CAMERA.width }, height: { ideal: DEMO_CAMERA.height } },
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
    await this.joinTestRoom(local);
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

  /** Joins `test-room` like a meeting, then signals over /ws. */
  private async joinTestRoom(local: Local): Promise<void> {
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
      const why = err instanceof ApiError ? err.serverMessage : (err as Error).message;
      const hint =
        err instanceof ApiError && err.status === 404
          ? ' The test room is available on development servers only.'
          : '';
      this.set({
        signaling: 'failed',
        connection: 'not started',
        error: `Could not join ${TEST_ROOM_ID}: ${why}.${hint}`,
      });
      return;
    }
    if (this.stopped) return;
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
      this.note(`the other page left`);
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
  }

  private stopMedia(): void {
    this.stream?.getTracks().forEach((t) => t.stop());
  }

  stop(): void {
    if (this.stopped) return;
    window.removeEventListener('pagehide', this.onPageHide);
    this.stopped = true;
    this.signal?.leave();
    this.mesh?.closeAll();
    this.stopMedia();
  }
}
