import { ICE_CANDIDATE_POOL_SIZE } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeerConnectionReserve } from './connection-reserve';
import { PeerMesh } from './peer-mesh';

/** Just what the reserve and a PeerLink's constructor touch. */
class FakePC {
  static made: FakePC[] = [];
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  closed = false;
  rejectConfig = false;
  onnegotiationneeded: unknown = null;
  onicecandidate: unknown = null;
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
    this.config = config;
  }
  addTransceiver(): unknown {
    return { sender: {}, receiver: {} };
  }
  getTransceivers(): unknown[] {
    return [];
  }
  close(): void {
    this.closed = true;
    this.signalingState = 'closed';
    this.connectionState = 'closed';
  }
}

const create = (config: RTCConfiguration) => new FakePC(config) as unknown as RTCPeerConnection;
const stun = [{ urls: 'stun:stun.example.com:3478' }];

beforeEach(() => {
  FakePC.made = [];
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
  it('gives a new link the connection made when the page opened, and makes the next one after', () => {
    const reserve = new PeerConnectionReserve(create);
    expect(FakePC.made).toHaveLength(1);
    const spare = FakePC.made[0]!;
    expect(spare.config).toMatchObject({
      iceCandidatePoolSize: ICE_CANDIDATE_POOL_SIZE,
      bundlePolicy: 'max-bundle',
    });

    // A guest's offer arrives: the mesh builds its link on the spare, not on a brand-new connection.
    const mesh = new PeerMesh({
      selfId: 'b',
      iceServers: [],
      local: { stream: {} as MediaStream, audio: null, video: null },
      send: () => undefined,
      createPeerConnection: reserve.take,
    });
    const link = mesh.connect('a');
    expect(link.pc).toBe(spare);
    expect(FakePC.made).toHaveLength(1);

    vi.runAllTimers();
    expect(FakePC.made).toHaveLength(2);
    expect(mesh.connect('c').pc).toBe(FakePC.made[1]);
    reserve.dispose();
  });

  it("hands the spare over with the room's ICE servers and keeps them for the next spare", () => {
    const reserve = new PeerConnectionReserve(create);
    const pc = reserve.take({ iceServers: stun, iceCandidatePoolSize: ICE_CANDIDATE_POOL_SIZE });
    expect(pc).toBe(FakePC.made[0]);
    expect(FakePC.made[0]!.config).toMatchObject({ iceServers: stun, bundlePolicy: 'max-bundle' });
    vi.runAllTimers();
    expect(FakePC.made[1]!.config.iceServers).toEqual(stun);
    reserve.dispose();
  });

  it('falls back to a fresh connection when the spare is unusable, and stops after dispose', () => {
    const reserve = new PeerConnectionReserve(create);
    FakePC.made[0]!.rejectConfig = true;
    const pc = reserve.take({ iceServers: stun });
    expect(FakePC.made[0]!.closed).toBe(true);
    expect(pc).toBe(FakePC.made[1]);

    vi.runAllTimers();
    const spare = FakePC.made[2]!;
    reserve.dispose();
    expect(spare.closed).toBe(true);
    const late = reserve.take({ iceServers: [] });
    vi.runAllTimers();
    expect(late).toBe(FakePC.made[3]);
    expect(FakePC.made).toHaveLength(4);
  });
});
