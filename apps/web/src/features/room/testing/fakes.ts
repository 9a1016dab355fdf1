import type { LiveTranscript, RoomParticipant, ServerMessage, TranscriptionState } from '@parley/protocol/ws';
import type { WebSocketLike } from '../signal-client';

/**
 * Test doubles for the room's outside world: a WebSocket the test plays the server on, and camera,
 * microphone and MediaStream objects for jsdom (which has none). Used by the unit tests only.
 */

export class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: unknown[] = [];
  /** Binary frames the client sent (the microphone's PCM while transcription is on). */
  binary: Uint8Array[] = [];
  closedWith: number | null = null;
  autoPong = true;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string | ArrayBufferLike | ArrayBufferView) {
    if (typeof data !== 'string') {
      const view = ArrayBuffer.isView(data) ? data : new Uint8Array(data);
      this.binary.push(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
      return;
    }
    const msg = JSON.parse(data) as { type: string; requestId?: string };
    this.sent.push(msg);
    if (msg.type === 'ping' && this.autoPong) this.receive({ type: 'pong', requestId: msg.requestId });
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // server side helpers
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: ServerMessage | string) {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) });
  }
  drop(code = 1006, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  /** The messages the client sent, by type. */
  sentOf(type: string): { type: string; [k: string]: unknown }[] {
    return (this.sent as { type: string }[]).filter((m) => m.type === type);
  }
}

export class FakeTrack {
  readyState: 'live' | 'ended' = 'live';
  enabled = true;
  contentHint = '';
  onended: (() => void) | null = null;
  constructor(
    readonly kind: 'audio' | 'video',
    readonly deviceId = 'dev',
  ) {}
  stop() {
    this.readyState = 'ended';
  }
  getSettings() {
    return { deviceId: this.deviceId };
  }
}

export class FakeStream {
  private readonly list: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.list = [...tracks];
  }
  getTracks() {
    return [...this.list];
  }
  getAudioTracks() {
    return this.list.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.list.filter((t) => t.kind === 'video');
  }
  addTrack(t: FakeTrack) {
    if (!this.list.includes(t)) this.list.push(t);
  }
  removeTrack(t: FakeTrack) {
    const i = this.list.indexOf(t);
    if (i >= 0) this.list.splice(i, 1);
  }
}

/**
 * Installs a camera and microphone that always answer (MediaStream, navigator.mediaDevices) and
 * returns every track handed out, so a test can check that each one was stopped.
 */
export function installFakeDevices(stubGlobal: (name: string, value: unknown) => void): FakeTrack[] {
  const tracks: FakeTrack[] = [];
  stubGlobal('MediaStream', FakeStream);
  const getUserMedia = (c: { audio?: unknown; video?: unknown }) => {
    const got: FakeTrack[] = [];
    if (c.audio) got.push(new FakeTrack('audio', 'mic'));
    if (c.video) got.push(new FakeTrack('video', 'cam'));
    tracks.push(...got);
    return Promise.resolve(new FakeStream(got));
  };
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
  });
  return tracks;
}

export const participant = (
  id: string,
  name: string,
  extra: Partial<RoomParticipant> = {},
): RoomParticipant => ({
  id,
  name,
  isHost: false,
  isMuted: false,
  isVideoOn: true,
  isScreenSharing: false,
  isConnected: true,
  ...extra,
});

/** The server's `joined` for `self`, with everyone in `others`. */
export function joinedMessage(
  self: RoomParticipant,
  opts: {
    others?: RoomParticipant[];
    allMuted?: boolean;
    resumed?: boolean;
    transcription?: TranscriptionState;
    recentTranscripts?: LiveTranscript[];
  } = {},
): ServerMessage {
  return {
    type: 'joined',
    self,
    participants: opts.others ?? [],
    chatHistory: [],
    iceServers: [],
    meeting: { meetingId: '123-456-789', title: 't', startedAt: new Date().toISOString() },
    resumed: opts.resumed ?? false,
    allMuted: opts.allMuted ?? false,
    transcription: opts.transcription ?? { active: false, startedBy: null, startedAt: null },
    recentTranscripts: opts.recentTranscripts ?? [],
  };
}
