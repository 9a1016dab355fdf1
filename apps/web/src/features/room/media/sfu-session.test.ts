import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeerMesh } from './peer-mesh';
import { RemoteMedia } from './remote-media';
import { FakePC, FakeStream, local, offer, session, settle } from './sfu-fakes';
import { FLOWING_FRAMES, SIMULCAST_ENCODINGS, VIDEO_WAIT_MS } from './sfu-session';

beforeEach(() => {
  FakePC.made = [];
  vi.stubGlobal('MediaStream', FakeStream);
});
afterEach(() => vi.unstubAllGlobals());

describe('SfuSession', () => {
  it('publishes audio and video send-only, video in three simulcast layers, and asks to subscribe', async () => {
    const { sfu, signal } = session();
    await sfu.start();
    const pub = FakePC.made[0]!;
    expect(pub.transceivers.map((t) => t.direction)).toEqual(['sendonly', 'sendonly']);
    expect(pub.transceivers[1]!.sendEncodings).toEqual(SIMULCAST_ENCODINGS);
    expect(SIMULCAST_ENCODINGS.map((e) => e.rid)).toEqual(['h', 'm', 'l']);
    expect(pub.remote).toEqual({ type: 'answer', sdp: 'v=0 janus' });
    expect(signal.sent.map((m) => m.type).sort()).toEqual(['sfu_publish', 'sfu_subscribe']);
  });

  it('answers each subscriber offer and groups the m-lines by participant; media counts once it flows', async () => {
    const { sfu, signal } = session();
    await sfu.start();
    const flowing: string[] = [];
    sfu.onFlowing = (id) => flowing.push(id);
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'audio', active: true },
        { mid: '1', participantId: 'ann', kind: 'video', active: true },
        { mid: '2', participantId: 'bob', kind: 'audio', active: true },
        { mid: '3', participantId: 'bob', kind: 'video', active: true },
      ]),
    );
    await settle();
    expect(signal.sent.at(-1)).toEqual({
      type: 'sfu_answer',
      offerId: expect.any(Number),
      answer: { type: 'answer', sdp: 'v=0 subscriber answer' },
    });
    expect(
      sfu
        .streamOf('ann')
        ?.getTracks()
        .map((t) => t.kind),
    ).toEqual(['audio', 'video']);
    expect(sfu.streamOf('bob')?.getTracks()).toHaveLength(2);
    // Not flowing until frames of the video are decoded: the mesh link stays until then.
    expect(sfu.isFlowing('ann')).toBe(false);
    const sub = FakePC.made[1]!;
    sub.transceivers[1]!.receiver.track.arrive({ decoded: false });
    sub.transceivers[0]!.receiver.track.arrive();
    await settle();
    // RTP and audio, but no decodable video frame yet (no key frame): still the mesh.
    expect(sfu.isFlowing('ann')).toBe(false);
    // One key frame decoded is not enough (a stream may stall right after it): a few are.
    sub.transceivers[1]!.receiver.track.framesDecoded = 1;
    await new Promise((r) => setTimeout(r, 150));
    expect(sfu.isFlowing('ann')).toBe(false);
    sub.transceivers[1]!.receiver.track.framesDecoded = FLOWING_FRAMES;
    await new Promise((r) => setTimeout(r, 150));
    expect(sfu.isFlowing('ann')).toBe(true);
    expect(sfu.isFlowing('bob')).toBe(false);
    expect(flowing).toEqual(['ann']);
    const bobVideo = sub.transceivers[3]!.receiver.track;
    bobVideo.arrive();
    await new Promise((r) => setTimeout(r, 150));
    expect(sfu.isFlowing('bob')).toBe(true);

    // Bob left: Janus's next offer marks his m-lines inactive; his stream goes.
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'audio', active: true },
        { mid: '1', participantId: 'ann', kind: 'video', active: true },
        { mid: '2', participantId: null, kind: 'audio', active: false },
        { mid: '3', participantId: null, kind: 'video', active: false },
      ]),
    );
    await settle();
    expect(sfu.streamOf('bob')).toBeNull();
    expect(sfu.streamMap().map((s) => s.participantId)).toEqual(['ann', 'ann']);

    // Bob again (his page reloaded: the same id, a new feed) on the m-lines Janus reuses: the
    // same receiver tracks, whose decoded count goes on. He counts once his new video decodes.
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'audio', active: true },
        { mid: '1', participantId: 'ann', kind: 'video', active: true },
        { mid: '2', participantId: 'bob', kind: 'audio', active: true },
        { mid: '3', participantId: 'bob', kind: 'video', active: true },
      ]),
    );
    await settle();
    expect(sfu.isFlowing('bob')).toBe(false);
    // RTP of the new feed, but no new frame decoded yet: not yet.
    bobVideo.muted = true;
    bobVideo.arrive({ decoded: false });
    await new Promise((r) => setTimeout(r, 150));
    expect(sfu.isFlowing('bob')).toBe(false);
    bobVideo.framesDecoded += FLOWING_FRAMES;
    await new Promise((r) => setTimeout(r, 150));
    expect(sfu.isFlowing('bob')).toBe(true);
  });

  it('counts one without video by their audio, and one whose camera sends nothing after a wait', async () => {
    const { sfu } = session();
    await sfu.start();
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'audio', active: true },
        { mid: '1', participantId: 'bob', kind: 'audio', active: true },
        { mid: '2', participantId: 'bob', kind: 'video', active: true },
      ]),
    );
    await settle();
    vi.useFakeTimers();
    try {
      const sub = FakePC.made[1]!;
      // Ann's video is not on this page (not in its view): her audio is her media.
      sub.transceivers[0]!.receiver.track.arrive();
      sub.transceivers[1]!.receiver.track.arrive();
      await vi.advanceTimersByTimeAsync(0);
      expect(sfu.isFlowing('ann')).toBe(true);
      // Bob's camera is off: his video m-line never brings a frame, his audio does.
      expect(sfu.isFlowing('bob')).toBe(false);
      await vi.advanceTimersByTimeAsync(VIDEO_WAIT_MS);
      expect(sfu.isFlowing('bob')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells the server which videos the page shows, once subscribed and on each change only', async () => {
    const { sfu, signal, view } = session();
    const views = () => signal.sent.filter((m) => m.type === 'sfu_view');
    view.set([{ participantId: 'ann', quality: 'high' }]);
    // Not before the subscription exists: the server would have nothing to apply it to.
    expect(views()).toEqual([]);
    await sfu.start();
    expect(views()).toEqual([{ type: 'sfu_view', videos: [{ participantId: 'ann', quality: 'high' }] }]);
    view.set([{ participantId: 'ann', quality: 'high' }]);
    expect(views()).toHaveLength(1);
    view.set([
      { participantId: 'bob', quality: 'high' },
      { participantId: 'ann', quality: 'low' },
    ]);
    expect(views()).toHaveLength(2);
    expect(views()[1]).toMatchObject({
      videos: [{ participantId: 'bob' }, { participantId: 'ann', quality: 'low' }],
    });
    sfu.close();
    view.set([]);
    expect(views()).toHaveLength(2);
  });

  it('replaces its sent tracks when the local tracks change, and closes both connections', async () => {
    const { sfu } = session();
    await sfu.start();
    const next = local();
    await sfu.setLocal(next);
    expect(FakePC.made[0]!.transceivers.map((t) => t.sender.track)).toEqual([next.audio, next.video]);
    sfu.close();
    expect(FakePC.made[0]!.closed).toBe(true);
  });

  it('answers an offer sent again with the answer it made, and names the offer in every answer', async () => {
    const { sfu, signal } = session();
    await sfu.start();
    const first = offer([{ mid: '0', participantId: 'ann', kind: 'audio', active: true }]);
    sfu.handleOffer(first);
    await settle();
    const sub = FakePC.made[1]!;
    const negotiated = vi.spyOn(sub, 'setRemoteDescription');
    // Our answer was late: the server sends the same offer again (same id, same SDP).
    sfu.handleOffer({ ...first });
    await settle();
    expect(negotiated).not.toHaveBeenCalled();
    const answers = () => signal.sent.filter((m) => m.type === 'sfu_answer');
    expect(answers()).toHaveLength(2);
    expect(answers()[1]).toEqual(answers()[0]);
    expect(answers()[0]).toMatchObject({ offerId: first.offerId });
    // A newer offer, and one with a used id but other SDP (another server's count), are negotiated.
    const next = offer([
      { mid: '0', participantId: 'ann', kind: 'audio', active: true },
      { mid: '1', participantId: 'ann', kind: 'video', active: true },
    ]);
    sfu.handleOffer(next);
    await settle();
    sfu.handleOffer({ ...next, offer: { type: 'offer', sdp: 'v=0 audio video audio' } });
    await settle();
    expect(negotiated).toHaveBeenCalledTimes(2);
    expect(answers().map((m) => (m as { offerId: number }).offerId)).toEqual([
      first.offerId,
      first.offerId,
      next.offerId,
      next.offerId,
    ]);
    sfu.close();
  });

  it('says once that it failed when a connection to the SFU fails, not when one is only disconnected', async () => {
    const { sfu } = session();
    await sfu.start();
    sfu.handleOffer(offer([{ mid: '0', participantId: 'ann', kind: 'audio', active: true }]));
    await settle();
    const [pub, sub] = FakePC.made as [FakePC, FakePC];
    const failures: number[] = [];
    sfu.onFailed = () => failures.push(1);
    const change = (pc: FakePC, state: RTCPeerConnectionState) => {
      pc.connectionState = state;
      (pc.onconnectionstatechange as () => void)();
    };
    change(sub, 'disconnected');
    expect(sfu.failed).toBe(false);
    expect(failures).toEqual([]);
    change(sub, 'connected');
    change(pub, 'failed');
    expect(sfu.failed).toBe(true);
    change(sub, 'failed');
    expect(failures).toEqual([1]);
    // A closed session says nothing: the room replaced it.
    const other = session();
    await other.sfu.start();
    const spy = vi.fn();
    other.sfu.onFailed = spy;
    other.sfu.close();
    change(FakePC.made.at(-1)!, 'failed');
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('RemoteMedia', () => {
  it('shows the mesh link until the SFU media flows, then the SFU stream', async () => {
    const mesh = new PeerMesh({
      selfId: 'me',
      iceServers: [],
      local: local(),
      send: () => undefined,
      createPeerConnection: (c) => new FakePC(c) as unknown as RTCPeerConnection,
    });
    const remote = new RemoteMedia(mesh);
    expect(remote.peer('ann')).toMatchObject({ stream: null, path: null });
    mesh.connect('ann');
    expect(remote.peer('ann').path).toBe('mesh');
    const { sfu } = session();
    remote.setSfu(sfu);
    await sfu.start();
    sfu.handleOffer(offer([{ mid: '0', participantId: 'ann', kind: 'video', active: true }]));
    await settle();
    // The switch shows no gap: the mesh link's picture stays until the SFU's has a frame.
    expect(remote.peer('ann').path).toBe('mesh');
    const before = remote.getVersion();
    const sub = FakePC.made.at(-1)!;
    sub.transceivers[0]!.receiver.track.arrive();
    await settle();
    expect(remote.getVersion()).toBeGreaterThan(before);
    expect(remote.peer('ann')).toMatchObject({ path: 'sfu', hasVideo: true });
  });

  it('with no mesh link to wait on, shows the SFU stream as soon as it exists', async () => {
    const mesh = new PeerMesh({ selfId: 'me', iceServers: [], local: local(), send: () => undefined });
    const remote = new RemoteMedia(mesh);
    const { sfu } = session();
    remote.setSfu(sfu);
    await sfu.start();
    const before = remote.getVersion();
    sfu.handleOffer(offer([{ mid: '0', participantId: 'ann', kind: 'video', active: true }]));
    await settle();
    // No media has arrived yet: the tile's video paints the first frame when it comes.
    expect(sfu.isFlowing('ann')).toBe(false);
    expect(remote.getVersion()).toBeGreaterThan(before);
    expect(remote.peer('ann')).toMatchObject({ path: 'sfu', hasVideo: true });
    expect(remote.peer('ann').stream).toBe(sfu.streamOf('ann'));
  });
});
