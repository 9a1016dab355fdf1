import type { ClientMessage, ServerMessage, ServerMessageOf } from '@parley/protocol/ws';
import { Store } from '@/lib/store';
import { FLOWING_FRAMES, SfuSession, type SfuSessionOptions, type VideoWant } from './sfu-session';

/**
 * Stand-ins for the SFU session's tests: remote tracks and receivers whose decoded frames a test
 * sets, and enough of RTCPeerConnection (transceivers, descriptions, stats) and of the socket.
 * Each test file stubs the global MediaStream with FakeStream and resets FakePC.made.
 */

/** A remote track that can be told RTP arrived (`unmute`), and whether a frame was decoded. */
export class FakeTrack extends EventTarget {
  muted = true;
  readyState = 'live';
  framesDecoded = 0;
  constructor(readonly kind: string) {
    super();
  }
  /** RTP arrives; a video's first frames (enough to show) are decoded too unless `decoded` is false. */
  arrive({ decoded = true }: { decoded?: boolean } = {}) {
    this.muted = false;
    if (decoded && this.kind === 'video') this.framesDecoded += FLOWING_FRAMES;
    this.dispatchEvent(new Event('unmute'));
  }
}

/** A receiver whose stats say how many frames its track decoded. */
export function fakeReceiver(track: FakeTrack) {
  return {
    track,
    getStats: async () =>
      new Map([['in', { type: 'inbound-rtp', kind: track.kind, framesDecoded: track.framesDecoded }]]),
  };
}

export class FakeStream {
  constructor(private readonly tracks: FakeTrack[] = []) {}
  getTracks = () => this.tracks;
  getVideoTracks = () => this.tracks.filter((t) => t.kind === 'video');
}

/** Enough of RTCPeerConnection for the SFU session: transceivers, descriptions, state. */
export class FakePC {
  static made: FakePC[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  transceivers: {
    mid: string | null;
    direction: string;
    currentDirection: string | null;
    sendEncodings?: RTCRtpEncodingParameters[];
    sender: { track: unknown; replaceTrack: (t: unknown) => Promise<void> };
    receiver: ReturnType<typeof fakeReceiver>;
  }[] = [];
  remote: RTCSessionDescriptionInit | null = null;
  onicecandidate: unknown = null;
  ontrack: (() => void) | null = null;
  onconnectionstatechange: unknown = null;
  closed = false;
  constructor(readonly config: RTCConfiguration) {
    FakePC.made.push(this);
  }
  addTransceiver(
    trackOrKind: unknown,
    init: { direction: string; sendEncodings?: RTCRtpEncodingParameters[] },
  ) {
    const kind = typeof trackOrKind === 'string' ? trackOrKind : (trackOrKind as { kind: string }).kind;
    const t = {
      mid: String(this.transceivers.length),
      direction: init.direction,
      currentDirection: null as string | null,
      sendEncodings: init.sendEncodings,
      sender: {
        track: typeof trackOrKind === 'string' ? null : trackOrKind,
        replaceTrack: async (tr: unknown) => {
          t.sender.track = tr;
        },
      },
      receiver: fakeReceiver(new FakeTrack(kind)),
    };
    this.transceivers.push(t);
    return t;
  }
  getTransceivers() {
    return this.transceivers;
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 publisher' };
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'v=0 subscriber answer' };
  }
  async setLocalDescription() {}
  /** A subscriber offer's m-lines: one receive transceiver per `m=` kind in the fake SDP. */
  async setRemoteDescription(d: RTCSessionDescriptionInit) {
    this.remote = d;
    if (d.type !== 'offer') return;
    const kinds = (d.sdp ?? '').split(' ').filter((w) => w === 'audio' || w === 'video');
    while (this.transceivers.length < kinds.length) {
      const kind = kinds[this.transceivers.length]!;
      const t = this.addTransceiver(kind, { direction: 'recvonly' });
      t.currentDirection = 'recvonly';
    }
  }
  /** One inbound-rtp a received m-line, with its track's decoded frames. */
  async getStats() {
    return new Map(
      this.transceivers
        .filter((t) => t.direction === 'recvonly')
        .map((t) => [
          `in-${t.mid}`,
          {
            type: 'inbound-rtp',
            kind: t.receiver.track.kind,
            mid: t.mid,
            framesDecoded: t.receiver.track.framesDecoded,
          },
        ]),
    );
  }
  close() {
    this.closed = true;
  }
}

export function fakeSignal() {
  const sent: ClientMessage[] = [];
  return {
    sent,
    send: (m: ClientMessage) => void sent.push(m),
    request: async (m: ClientMessage): Promise<ServerMessage> => {
      sent.push(m);
      if (m.type === 'sfu_publish')
        return { type: 'sfu_answer', answer: { type: 'answer', sdp: 'v=0 janus' } };
      return { type: 'ack' };
    },
  };
}

export const local = () => ({
  stream: new FakeStream() as unknown as MediaStream,
  audio: new FakeTrack('audio') as unknown as MediaStreamTrack,
  video: new FakeTrack('video') as unknown as MediaStreamTrack,
});

let offerIds = 0;

/** An SFU offer with a new `offerId` (a test sends one again by sending the same object). */
export const offer = (
  streams: ServerMessageOf<'sfu_offer'>['streams'],
  kinds = streams.map((s) => s.kind),
): ServerMessageOf<'sfu_offer'> => ({
  type: 'sfu_offer',
  offerId: ++offerIds,
  offer: { type: 'offer', sdp: `v=0 ${kinds.join(' ')}` },
  streams,
});

export const settle = () => new Promise((r) => setTimeout(r, 0));

/** An SFU session on a fake signal; `view` is the page's view it reads (the room holds it). */
export function session(more: Partial<SfuSessionOptions> = {}) {
  const signal = fakeSignal();
  const view = new Store<VideoWant[] | null>(null);
  const sfu = new SfuSession({
    signal,
    local: local(),
    iceServers: [],
    createPeerConnection: (c) => new FakePC(c) as unknown as RTCPeerConnection,
    view,
    ...more,
  });
  return { sfu, signal, view };
}
