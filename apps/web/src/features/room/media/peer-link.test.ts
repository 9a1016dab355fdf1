import { VIDEO_BITRATE_CAP } from '@parley/protocol/constants';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PeerLink,
  isPolite,
  peerConnectionConfig,
  relayOnly,
  sdpSessionId,
  type IceCandidate,
  type SessionDescription,
} from './peer-link';
import { PeerMesh, type MeshSignal } from './peer-mesh';

/**
 * A scripted RTCPeerConnection: enough of the API for the negotiation logic. Like Chrome with a
 * candidate pool, it fires a candidate *before* setLocalDescription's promise settles.
 */
class FakePC {
  static sessions = 0;
  /** When set, new connections gather no candidates (the failure the watchdog repairs). */
  static silent = false;
  /** Offers that fail to be set, on the next connections made (a broken connection). */
  static failingOffers = 0;
  readonly silent = FakePC.silent;
  readonly failsOffers = FakePC.failingOffers > 0 ? (FakePC.failingOffers--, true) : false;
  closed = false;
  readonly session = String(1000 + FakePC.sessions++);
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: SessionDescription | null = null;
  remoteDescription: SessionDescription | null = null;
  added: IceCandidate[] = [];
  transceivers: {
    direction: string;
    sender: { track: unknown; replaceTrack: (t: unknown) => Promise<void>; setStreams: () => void };
    receiver: { track: { kind: string } };
    currentDirection: string | null;
    sendEncodings?: unknown;
  }[] = [];
  onnegotiationneeded: (() => void) | null = null;
  onicecandidate:
    ((e: { candidate: { candidate: string; toJSON: () => RTCIceCandidateInit } | null }) => void) | null =
    null;
  ontrack: unknown = null;
  onsignalingstatechange: (() => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  restarts = 0;
  private negotiationQueued = false;

  constructor(readonly config: RTCConfiguration) {}

  private sdp(type: string) {
    return `v=0\r\no=- ${this.session} 2 IN IP4 127.0.0.1\r\ns=${type}\r\n`;
  }
  addTransceiver(trackOrKind: unknown, init: { direction: string; sendEncodings?: unknown }) {
    const kind = typeof trackOrKind === 'string' ? trackOrKind : (trackOrKind as { kind: string }).kind;
    const t = {
      direction: init.direction,
      currentDirection: null,
      sendEncodings: init.sendEncodings,
      receiver: { track: { kind } },
      sender: {
        track: typeof trackOrKind === 'string' ? null : trackOrKind,
        replaceTrack: async (tr: unknown) => {
          t.sender.track = tr;
        },
        setStreams: () => undefined,
      },
    };
    this.transceivers.push(t);
    if (!this.negotiationQueued) {
      // Browsers coalesce negotiationneeded into one event per batch of changes.
      this.negotiationQueued = true;
      queueMicrotask(() => {
        this.negotiationQueued = false;
        this.onnegotiationneeded?.();
      });
    }
    return t;
  }
  getTransceivers() {
    return this.transceivers;
  }
  private fireCandidate() {
    if (this.silent) return;
    this.onicecandidate?.({
      candidate: {
        candidate: `candidate:${this.session}`,
        toJSON: () => ({ candidate: `candidate:${this.session}`, sdpMid: '0', sdpMLineIndex: 0 }),
      },
    });
  }
  async setLocalDescription() {
    const type = this.signalingState === 'have-remote-offer' ? 'answer' : 'offer';
    if (type === 'offer' && this.failsOffers) throw new Error('OperationError: session error');
    this.localDescription = { type, sdp: this.sdp(type) };
    this.signalingState = type === 'offer' ? 'have-local-offer' : 'stable';
    this.fireCandidate(); // before the promise settles, as pooled candidates do
    this.onsignalingstatechange?.();
  }
  async setRemoteDescription(d: SessionDescription) {
    if (d.type === 'offer' && this.signalingState === 'have-local-offer') this.signalingState = 'stable'; // implicit rollback
    this.remoteDescription = d;
    if (d.type === 'offer') {
      this.signalingState = 'have-remote-offer';
      if (this.transceivers.length === 0) {
        for (const kind of ['audio', 'video']) this.addTransceiverFromRemote(kind);
      }
    } else this.signalingState = 'stable';
    this.onsignalingstatechange?.();
  }
  private addTransceiverFromRemote(kind: string) {
    const t = {
      direction: 'recvonly',
      currentDirection: null,
      receiver: { track: { kind } },
      sender: {
        track: null as unknown,
        replaceTrack: async (tr: unknown) => {
          t.sender.track = tr;
        },
        setStreams: () => undefined,
      },
    };
    this.transceivers.push(t);
  }
  async addIceCandidate(c?: IceCandidate) {
    if (!this.remoteDescription) throw new Error('remote description is null');
    this.added.push(c ?? null);
  }
  restartIce() {
    this.restarts += 1;
  }
  close() {
    this.closed = true;
  }
}

beforeAll(() => {
  class FakeStream {
    private tracks: unknown[] = [];
    getTracks() {
      return this.tracks;
    }
    getVideoTracks() {
      return [];
    }
    addTrack(t: unknown) {
      this.tracks.push(t);
    }
    removeTrack() {}
  }
  (globalThis as unknown as { MediaStream: unknown }).MediaStream = FakeStream;
});

const tick = () => new Promise((r) => setTimeout(r, 0));

function pair() {
  const pcs: FakePC[] = [];
  const create = (config: RTCConfiguration) => {
    const pc = new FakePC(config);
    pcs.push(pc);
    return pc as unknown as RTCPeerConnection;
  };
  const outA: MeshSignal[] = [];
  const outB: MeshSignal[] = [];
  const local = {
    stream: new MediaStream(),
    audio: { kind: 'audio' } as MediaStreamTrack,
    video: { kind: 'video' } as MediaStreamTrack,
  };
  const a = new PeerMesh({
    selfId: 'a',
    iceServers: [],
    local,
    send: (m) => outA.push(m),
    createPeerConnection: create,
  });
  const b = new PeerMesh({
    selfId: 'b',
    iceServers: [],
    local,
    send: (m) => outB.push(m),
    createPeerConnection: create,
  });
  /** Delivers queued signals in order, like one ordered WebSocket each way. */
  const deliver = async (from: 'a' | 'b') => {
    const [queue, to, fromId] = from === 'a' ? [outA, b, 'a'] : [outB, a, 'b'];
    while (queue.length) {
      const m = queue.shift()!;
      if (m.type === 'offer') await to.handleOffer(fromId, m.offer);
      else if (m.type === 'answer') await to.handleAnswer(fromId, m.answer);
      else await to.handleCandidate(fromId, m.candidate);
    }
  };
  return { a, b, outA, outB, pcs, deliver };
}

describe('peer negotiation', () => {
  it('picks exactly one polite side for every pair', () => {
    expect(isPolite('b', 'a')).toBe(true);
    expect(isPolite('a', 'b')).toBe(false);
  });

  it('reads the SDP session id that tells a reloaded peer from a renegotiation', () => {
    expect(sdpSessionId('v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\n')).toBe('4611731400430051336');
    expect(sdpSessionId('garbage')).toBeNull();
  });

  it('sends the offer before any candidate, and the answer before the answerer’s candidates', async () => {
    const { a, b, outA, outB, pcs, deliver } = pair();
    a.connect('b');
    await tick();
    expect(outA.map((m) => m.type)).toEqual(['offer', 'ice-candidate']);
    await deliver('a');
    await tick();
    expect(outB.map((m) => m.type)).toEqual(['answer', 'ice-candidate']);
    await deliver('b');
    const [pcA, pcB] = pcs;
    expect(pcA!.signalingState).toBe('stable');
    expect(pcB!.signalingState).toBe('stable');
    // Every candidate reached the other side's connection.
    expect(pcB!.added).toHaveLength(1);
    expect(pcA!.added).toHaveLength(1);
    expect(b.get('a')).toBeDefined();
  });

  it('configures the candidate pool, the bitrate cap, and sends tracks on both sides', async () => {
    const { a, outA, pcs, deliver } = pair();
    a.connect('b');
    await tick();
    const pcA = pcs[0]!;
    expect(pcA.config.iceCandidatePoolSize).toBe(10);
    const video = pcA.transceivers.find((t) => t.receiver.track.kind === 'video')!;
    expect(video.sendEncodings).toEqual([{ maxBitrate: VIDEO_BITRATE_CAP }]);
    expect(outA[0]!.type).toBe('offer');
    await deliver('a');
    await tick();
    const pcB = pcs[1]!;
    expect(pcB.transceivers.every((t) => t.direction === 'sendrecv' && t.sender.track)).toBe(true);
  });

  it('keeps candidates that arrive before the remote description and applies them after', async () => {
    const pc = new FakePC({});
    const link = new PeerLink({
      remoteId: 'x',
      polite: true,
      initiator: false,
      iceServers: [],
      local: { stream: new MediaStream(), audio: null, video: null },
      signals: { offer: () => undefined, answer: () => undefined, candidate: () => undefined },
      onChange: () => undefined,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    await link.handleCandidate({ candidate: 'candidate:early', sdpMid: '0', sdpMLineIndex: 0 });
    expect(pc.added).toEqual([]);
    await link.handleDescription({ type: 'offer', sdp: 'v=0\r\no=- 77 2 IN IP4 127.0.0.1\r\n' });
    await tick();
    expect(pc.added).toHaveLength(1);
  });

  it('survives simultaneous offers: the polite side yields, the pair ends stable', async () => {
    const { a, b, outA, outB, pcs, deliver } = pair();
    a.connect('b');
    b.connect('a');
    await tick();
    expect(outA[0]!.type).toBe('offer');
    expect(outB[0]!.type).toBe('offer');
    // Both offers cross on the wire.
    await Promise.all([deliver('a'), deliver('b')]);
    await tick();
    await Promise.all([deliver('a'), deliver('b')]);
    await tick();
    await Promise.all([deliver('a'), deliver('b')]);
    expect(pcs.map((p) => p.signalingState)).toEqual(['stable', 'stable']);
  });

  it('restarts ICE from the impolite side when a negotiated pair never connects', async () => {
    vi.useFakeTimers();
    try {
      const { a, pcs, deliver } = pair();
      a.connect('b');
      await vi.advanceTimersByTimeAsync(0);
      await deliver('a');
      await vi.advanceTimersByTimeAsync(0);
      await deliver('b');
      await vi.advanceTimersByTimeAsync(7000);
      expect(pcs.map((p) => p.restarts)).toEqual([0, 0]);
      await vi.advanceTimersByTimeAsync(3000);
      // "a" < "b": a is the impolite side and the only one to restart.
      expect(pcs.map((p) => p.restarts)).toEqual([1, 0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('replaces a connection that gathers no ICE candidate at all, and the other side follows', async () => {
    vi.useFakeTimers();
    try {
      FakePC.silent = true;
      const { a, b, pcs, deliver } = pair();
      a.connect('b');
      await vi.advanceTimersByTimeAsync(0);
      await deliver('a');
      await vi.advanceTimersByTimeAsync(0);
      await deliver('b');
      const first = a.get('b');
      FakePC.silent = false;
      await vi.advanceTimersByTimeAsync(3100);
      // Both sides found themselves without candidates: "a" offers from a fresh connection.
      expect(a.get('b')).not.toBe(first);
      await vi.advanceTimersByTimeAsync(0);
      await deliver('a');
      await deliver('b');
      await vi.advanceTimersByTimeAsync(0);
      await deliver('a');
      await deliver('b');
      const live = pcs.filter((p) => !p.closed);
      expect(live).toHaveLength(2);
      expect(live.every((p) => p.signalingState === 'stable')).toBe(true);
      expect(b.get('a')).toBeDefined();
    } finally {
      FakePC.silent = false;
      vi.useRealTimers();
    }
  });

  it('rebuilds the connection when the other side comes back with a new one (a reload)', async () => {
    const { a, b, pcs, deliver } = pair();
    a.connect('b');
    await tick();
    await deliver('a');
    await tick();
    await deliver('b');
    const first = b.get('a');
    // "a" reloads: a brand-new mesh and connection with a new SDP session id.
    a.closeAll();
    a.connect('b');
    await tick();
    await deliver('a');
    expect(b.get('a')).not.toBe(first);
    expect(pcs).toHaveLength(4);
  });
});

describe('a link that cannot get its offer through', () => {
  it('whose offer fails (a connection in error) is rebuilt, and the fresh one connects', async () => {
    FakePC.failingOffers = 1;
    try {
      const { a, b, outA, pcs, deliver } = pair();
      a.connect('b');
      await tick();
      await tick();
      // The first connection could not set its offer; a fresh one offered instead.
      expect(pcs[0]!.closed).toBe(true);
      expect(outA.filter((m) => m.type === 'offer')).toHaveLength(1);
      await deliver('a');
      await tick();
      await deliver('b');
      expect(a.get('b')!.pc).toBe(pcs[1]);
      expect([pcs[1]!.signalingState, pcs[2]!.signalingState]).toEqual(['stable', 'stable']);
      expect(b.get('a')).toBeDefined();
    } finally {
      FakePC.failingOffers = 0;
    }
  });

  it('whose offers are never answered offers again from a fresh connection after its resends', async () => {
    vi.useFakeTimers();
    try {
      const { a, outA, pcs } = pair();
      a.connect('b');
      await vi.advanceTimersByTimeAsync(0);
      const offers = () => outA.filter((m) => m.type === 'offer').length;
      expect(offers()).toBe(1);
      // Resent every 3 s, five times, on the same connection.
      await vi.advanceTimersByTimeAsync(15_000);
      expect(offers()).toBe(6);
      expect(pcs).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(pcs[0]!.closed).toBe(true);
      expect(pcs).toHaveLength(2);
      expect(offers()).toBe(7);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the impolite side sends its lost offer again when it ignores the polite one, and the pair meets', async () => {
    const { a, b, outA, pcs, deliver } = pair();
    // "a" (impolite) offers, and its offer is lost on the way.
    a.connect('b');
    await tick();
    outA.splice(0);
    // "b" offers later (its Retry); "a" ignores the colliding offer, but sends its own again.
    b.connect('a');
    await tick();
    await deliver('b');
    expect(outA.map((m) => m.type)).toContain('offer');
    await deliver('a');
    await tick();
    await deliver('b');
    await tick();
    await deliver('a');
    expect(pcs.map((p) => p.signalingState)).toEqual(['stable', 'stable']);
    expect(a.get('b')!.pc.remoteDescription).not.toBeNull();
  });

  it('Retry makes a fresh connection that offers, and the other side follows it', async () => {
    const { a, b, outA, pcs, deliver } = pair();
    b.connect('a');
    await tick();
    await deliver('b');
    await tick();
    await deliver('a');
    const before = a.get('b');
    a.retry('b');
    await tick();
    expect(a.get('b')).not.toBe(before);
    expect(pcs[1]!.closed).toBe(true);
    expect(outA.map((m) => m.type)).toEqual(['offer', 'ice-candidate']);
    await deliver('a');
    // A new SDP session: "b" drops its old connection and answers on a fresh one.
    expect(pcs[0]!.closed).toBe(true);
    expect(pcs.filter((p) => !p.closed)).toHaveLength(2);
  });
});

describe('relay only', () => {
  it('is this browser’s setting, read from local storage; anything else means every candidate', () => {
    const storage = (v: string | null) => ({ getItem: () => v }) as unknown as Storage;
    expect(relayOnly(storage('relay'))).toBe(true);
    expect(relayOnly(storage('all'))).toBe(false);
    expect(relayOnly(storage(null))).toBe(false);
    expect(relayOnly(undefined)).toBe(false);
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    expect(relayOnly(throwing)).toBe(false);
    expect(peerConnectionConfig([]).iceTransportPolicy).toBeUndefined();
    localStorage.setItem('parley.iceTransportPolicy', 'relay');
    try {
      expect(peerConnectionConfig([]).iceTransportPolicy).toBe('relay');
    } finally {
      localStorage.removeItem('parley.iceTransportPolicy');
    }
  });
});
