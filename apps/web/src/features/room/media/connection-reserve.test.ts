import { ICE_CANDIDATE_POOL_SIZE } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeerConnectionReserve } from './connection-reserve';
import { PeerMesh, type MeshSignal } from './peer-mesh';

/** Just what the reserve, priming and a PeerLink's constructor touch. */
class FakePC {
  static made: FakePC[] = [];
  /** When set, new connections gather no candidates (Chromium's connection without networks). */
  static silent = false;
  readonly silent = FakePC.silent;
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: { type: string; sdp: string } | null = null;
  remoteDescription: unknown = null;
  closed = false;
  rejectConfig = false;
  descriptions: string[] = [];
  transceivers: { kind: string; sender: { track: unknown; replaceTrack: (t: unknown) => Promise<void> } }[] =
    [];
  onnegotiationneeded: (() => void) | null = null;
  /** Chromium: a failed description leaves the connection in an error every later one repeats. */
  sessionError: Error | null = null;
  onicecandidate:
    ((e: { candidate: { candidate: string; toJSON: () => RTCIceCandidateInit } | null }) => void) | null =
    null;
  ontrack: unknown = null;
  onsignalingstatechange: unknown = null;
  onconnectionstatechange: unknown = null;
  constructor(public config: RTCConfiguration) {
    FakePC.made.push(this);
  }
  getConfiguration(): RTCConfiguration {
    return { ...this.config };
  }
  setConfiguration(config: RTCConfiguration): void {
    if (this.rejectConfig) throw new Error('InvalidModificationError');
    const changed = JSON.stringify(config.iceServers ?? []) !== JSON.stringify(this.config.iceServers ?? []);
    this.config = config;
    // As Chromium does (seen in room-rejoin.spec.ts's runs): new ICE servers fire
    // negotiationneeded, also on a connection without any transceiver.
    if (changed) setTimeout(() => this.onnegotiationneeded?.(), 10);
  }
  addTransceiver(kind: string): unknown {
    const t = {
      kind,
      currentDirection: null,
      receiver: { track: { kind } },
      sender: {
        track: null as unknown,
        replaceTrack: async (tr: unknown) => {
          t.sender.track = tr;
        },
        getParameters: () => ({ encodings: [] }),
      },
    };
    this.transceivers.push(t);
    return t;
  }
  getTransceivers(): unknown[] {
    return this.transceivers;
  }
  async setLocalDescription(d?: { type: string }): Promise<void> {
    if (d?.type === 'rollback') {
      this.descriptions.push('rollback');
      this.signalingState = 'stable';
      this.localDescription = null;
      return;
    }
    if (this.sessionError) throw this.sessionError;
    if (this.transceivers.length === 0 && this.config.bundlePolicy === 'max-bundle') {
      this.sessionError = new Error('max-bundle configured but session description has no BUNDLE group');
      throw this.sessionError;
    }
    const servers = JSON.stringify(this.config.iceServers ?? []);
    const candidate = this.silent ? '' : 'a=candidate:1 1 udp 1 127.0.0.1 5000 typ host\r\n';
    this.localDescription = { type: 'offer', sdp: `v=0\r\ns=${servers}\r\n${candidate}` };
    this.descriptions.push(`offer ${servers}`);
    this.signalingState = 'have-local-offer';
    const c = { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 };
    if (!this.silent) this.onicecandidate?.({ candidate: { ...c, toJSON: () => c } });
  }
  close(): void {
    this.closed = true;
    this.signalingState = 'closed';
    this.connectionState = 'closed';
  }
}

const create = (config: RTCConfiguration) => new FakePC(config) as unknown as RTCPeerConnection;
const stun = [{ urls: 'stun:stun.example.com:3478' }];
const local = {
  stream: {} as MediaStream,
  audio: { kind: 'audio' } as MediaStreamTrack,
  video: { kind: 'video' } as MediaStreamTrack,
};

function meshOn(reserve: PeerConnectionReserve, out: MeshSignal[] = [], iceServers: RTCIceServer[] = []) {
  return new PeerMesh({
    selfId: 'b',
    iceServers,
    local,
    send: (m) => out.push(m),
    createPeerConnection: reserve.take,
  });
}

beforeEach(() => {
  FakePC.made = [];
  FakePC.silent = false;
  vi.useFakeTimers();
  // A PeerLink keeps the remote tracks in a MediaStream, which jsdom lacks.
  vi.stubGlobal(
    'MediaStream',
    class {
      getTracks = () => [];
    },
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PeerConnectionReserve', () => {
  it('before the join, keeps two connections that already hold an offer, and a plain one', async () => {
    const reserve = new PeerConnectionReserve(create);
    expect(FakePC.made).toHaveLength(2);
    expect(FakePC.made[0]!.config).toMatchObject({
      iceCandidatePoolSize: ICE_CANDIDATE_POOL_SIZE,
      bundlePolicy: 'max-bundle',
    });
    // Not primed at once: a connection's permission answers arrive in its first 20-60 ms.
    expect(FakePC.made[0]!.descriptions).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(FakePC.made).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(200);
    // And a plain one, for answering a newcomer's offer (the first person in answers the second).
    expect(FakePC.made.map((pc) => pc.signalingState)).toEqual([
      'have-local-offer',
      'have-local-offer',
      'stable',
    ]);
    expect(FakePC.made[0]!.transceivers.map((t) => t.kind)).toEqual(['audio', 'video']);
    expect(FakePC.made[2]!.transceivers).toEqual([]);
    expect(reserve.sizes).toEqual({ offer: 2, answer: 1 });
    reserve.dispose();
    expect(FakePC.made.every((pc) => pc.closed)).toBe(true);
  });

  it("the newcomer's links send their primed offers at once, and our tracks go on without renegotiating", async () => {
    const reserve = new PeerConnectionReserve(create);
    await vi.advanceTimersByTimeAsync(500);
    const out: MeshSignal[] = [];
    const mesh = meshOn(reserve, out);
    const a = mesh.connect('a');
    const c = mesh.connect('c');
    // Sent synchronously, before the room's render or any event: no negotiationneeded round.
    expect(out.map((m) => `${m.type} ${m.targetParticipant}`)).toEqual(['offer a', 'offer c']);
    expect([a.pc, c.pc]).toEqual([FakePC.made[0], FakePC.made[1]]);
    expect(FakePC.made).toHaveLength(3);
    // The candidates gathered while waiting travel inside the offer.
    expect(out[0]!.type === 'offer' && out[0]!.offer.sdp).toContain('a=candidate:');
    expect(a.localCandidates).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    const senders = FakePC.made[0]!.transceivers.map((t) => t.sender.track);
    expect(senders).toEqual([local.audio, local.video]);
    expect(FakePC.made[0]!.transceivers).toHaveLength(2);
    reserve.dispose();
  });

  it('headed for the SFU, makes two more plain connections at once, for its publisher and subscriber', async () => {
    const reserve = new PeerConnectionReserve(create);
    await vi.advanceTimersByTimeAsync(300);
    expect(reserve.sizes).toEqual({ offer: 2, answer: 1 });
    reserve.expectSfu();
    await vi.advanceTimersByTimeAsync(100);
    expect(reserve.sizes).toEqual({ offer: 2, answer: 3 });
    const plain = FakePC.made.filter((pc) => pc.transceivers.length === 0);
    // SfuSession asks for plain ones: it adds its own send-only transceivers (simulcast) or
    // answers the SFU's offer; each is a settled spare, not a new connection.
    const publisher = reserve.take({ iceServers: stun, bundlePolicy: 'max-bundle' }, 'answer');
    const subscriber = reserve.take({ iceServers: stun, bundlePolicy: 'max-bundle' }, 'answer');
    expect(plain).toContain(publisher as unknown as FakePC);
    expect(plain).toContain(subscriber as unknown as FakePC);
    expect(publisher).not.toBe(subscriber);
    expect(FakePC.made).toHaveLength(5);
    // Once both are taken, the reserve keeps its usual single plain spare again.
    await vi.advanceTimersByTimeAsync(2000);
    expect(reserve.sizes).toEqual({ offer: 2, answer: 1 });
    reserve.dispose();
  });

  it('keeps a plain connection for answering newcomers, made again a second after it is taken', async () => {
    const reserve = new PeerConnectionReserve(create);
    await vi.advanceTimersByTimeAsync(500);
    meshOn(reserve).connect('a');
    expect(reserve.sizes).toEqual({ offer: 1, answer: 1 });
    const plain = FakePC.made[2]!;
    expect(plain.signalingState).toBe('stable');
    // A newcomer's offer is taken on the plain one (a primed one cannot answer).
    expect(reserve.take({ iceServers: [] }, 'answer')).toBe(plain);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakePC.made).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakePC.made).toHaveLength(4);
    // In the room, no more primed spares are made; the one left stays for a rebuild.
    expect(reserve.sizes).toEqual({ offer: 1, answer: 1 });
    reserve.dispose();
  });

  it("gives a primed spare the room's ICE servers, and then offers again on it with them", async () => {
    const reserve = new PeerConnectionReserve(create);
    await vi.advanceTimersByTimeAsync(500);
    const out: MeshSignal[] = [];
    const link = meshOn(reserve, out, stun).connect('a');
    expect(link.pc).toBe(FakePC.made[0]);
    expect(FakePC.made[0]!.config.iceServers).toEqual(stun);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakePC.made[0]!.descriptions).toEqual(['offer []', 'rollback', `offer ${JSON.stringify(stun)}`]);
    expect(out.filter((m) => m.type === 'offer')).toHaveLength(1);
    expect(out[0]!.type === 'offer' && out[0]!.offer.sdp).toContain(JSON.stringify(stun));
    // Later spares are made with the room's servers.
    reserve.take({ iceServers: stun }, 'answer');
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakePC.made.at(-1)!.config.iceServers).toEqual(stun);
    reserve.dispose();
  });

  it('replaces a primed spare that never gathers a candidate, before any link uses it', async () => {
    FakePC.silent = true;
    const reserve = new PeerConnectionReserve(create, { offers: 1, answers: 0 });
    await vi.advanceTimersByTimeAsync(500);
    expect(FakePC.made).toHaveLength(1);
    FakePC.silent = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakePC.made[0]!.closed).toBe(true);
    expect(FakePC.made).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(reserve.take({ iceServers: [] }, 'offer')).toBe(FakePC.made[1]);
    reserve.dispose();
  });

  it('in a relay-only browser, makes relay-only spares and keeps them while no TURN server is known', async () => {
    localStorage.setItem('parley.iceTransportPolicy', 'relay');
    try {
      // Relay only and no server yet: nothing to gather, as in Chromium.
      FakePC.silent = true;
      const reserve = new PeerConnectionReserve(create, { offers: 1, answers: 0 });
      await vi.advanceTimersByTimeAsync(5000);
      expect(FakePC.made).toHaveLength(1);
      expect(FakePC.made[0]!.closed).toBe(false);
      expect(FakePC.made[0]!.config.iceTransportPolicy).toBe('relay');
      const turn = [{ urls: 'turn:turn.example.com:3478', username: 'u', credential: 'c' }];
      const pc = reserve.take({ iceServers: turn }, 'offer') as unknown as FakePC;
      expect(pc).toBe(FakePC.made[0]);
      expect(pc.config).toMatchObject({ iceServers: turn, iceTransportPolicy: 'relay' });
      reserve.dispose();
    } finally {
      localStorage.removeItem('parley.iceTransportPolicy');
    }
  });

  it('a link that comes before the offer is primed takes it and sends it when set, with the room’s servers', async () => {
    const reserve = new PeerConnectionReserve(create);
    const out: MeshSignal[] = [];
    const link = meshOn(reserve, out, stun).connect('a');
    expect(link.pc).toBe(FakePC.made[0]);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    // Primed after the take: with the room's servers already, so no second offer.
    expect(FakePC.made[0]!.descriptions).toEqual([`offer ${JSON.stringify(stun)}`]);
    expect(FakePC.made[0]!.transceivers).toHaveLength(2);
    expect(out.map((m) => m.type)).toEqual(['offer', 'ice-candidate']);
    reserve.dispose();
  });

  it('an answer before the join takes a spare whose priming has not started, and stops it', async () => {
    const reserve = new PeerConnectionReserve(create);
    const pc = reserve.take({ iceServers: [] }, 'answer') as unknown as FakePC;
    expect(pc).toBe(FakePC.made[0]);
    await vi.advanceTimersByTimeAsync(500);
    expect(pc.descriptions).toEqual([]);
    expect(pc.transceivers).toHaveLength(0);
    reserve.dispose();
  });

  it('falls back to a fresh connection when the spare is unusable, and stops after dispose', async () => {
    const reserve = new PeerConnectionReserve(create, { offers: 1 });
    FakePC.made[0]!.rejectConfig = true;
    const pc = reserve.take({ iceServers: stun }, 'offer');
    expect(FakePC.made[0]!.closed).toBe(true);
    expect(pc).toBe(FakePC.made[1]);

    await vi.advanceTimersByTimeAsync(1000);
    const spare = FakePC.made[2]!;
    reserve.dispose();
    expect(spare.closed).toBe(true);
    const late = reserve.take({ iceServers: [] });
    await vi.advanceTimersByTimeAsync(5000);
    expect(late).toBe(FakePC.made[3]);
    expect(FakePC.made).toHaveLength(4);
  });

  it('is made when the room code loads if the page may already use the camera, and handed to the page', async () => {
    vi.resetModules();
    vi.stubGlobal('RTCPeerConnection', FakePC);
    vi.stubGlobal('navigator', {
      permissions: {
        query: async ({ name }: { name: string }) => ({ state: name === 'camera' ? 'granted' : 'prompt' }),
      },
    });
    const mod = await import('./connection-reserve');
    await vi.advanceTimersByTimeAsync(0);
    // Before any page asked: the spares are already made (and prime while React renders).
    expect(FakePC.made).toHaveLength(2);
    const reserve = mod.PeerConnectionReserve.forPage();
    expect(reserve.sizes.offer).toBe(2);
    expect(FakePC.made).toHaveLength(2);
    const later = mod.PeerConnectionReserve.forPage();
    expect(later).not.toBe(reserve);
    later.dispose();
    reserve.dispose();
  });
});
