import type { JoinRequest, JoinResponse } from '@parley/protocol/ws';
import { WS_CLOSE } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { RoomController, type RoomState } from './room-controller';
import { FakePC, offer as sfuOffer } from './media/sfu-fakes';
import { ROOM_HOLD_MAX_MS } from './media-route';
import type { Notice } from './room-session';
import { FakeSocket, installFakeDevices, joinedMessage, participant, type FakeTrack } from './testing/fakes';

/**
 * The room page's state machine, driven through every transition with a fake join call, the fake
 * socket (the test plays the server) and fake camera and microphone.
 */

const MEETING = '123-456-789';
const admitted: JoinResponse = {
  id: 'p1',
  joinToken: 'token-0123456789abcdef',
  isHost: false,
  admission: 'admitted',
};
const ann = participant('p1', 'Ann');

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const passwordError = (status: number) =>
  new ApiError(status, 'password', { message: 'password', requiresPassword: true });

describe('RoomController', () => {
  let sockets: FakeSocket[];
  let tracks: FakeTrack[];
  let calls: { body: JoinRequest; answer: ReturnType<typeof deferred<JoinResponse>> }[];
  let notify: ReturnType<typeof vi.fn<(n: Notice) => void>>;
  let controller: RoomController;
  const socket = () => sockets[sockets.length - 1]!;
  const phase = () => controller.getSnapshot().phase;
  const lastCall = () => calls[calls.length - 1]!;

  function make(query: { name?: string; host?: boolean; meetingId?: string } = {}) {
    controller = new RoomController({
      meetingId: query.meetingId ?? MEETING,
      queryName: query.name ?? '',
      wantsHost: query.host ?? false,
      join: (_id, body) => {
        const answer = deferred<JoinResponse>();
        calls.push({ body, answer });
        return answer.promise;
      },
      notify,
      createSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
    });
    return controller;
  }

  /** Lets promises (getUserMedia, the join call) settle. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  /** prejoin → joining → (call answered, socket open, `joined`) → in-room. */
  async function enter(self = ann, res: JoinResponse = admitted, opts: { allMuted?: boolean } = {}) {
    make().start();
    await settle();
    controller.join({ name: self.name, audio: true, video: true });
    lastCall().answer.resolve(res);
    await settle();
    socket().open();
    socket().receive(joinedMessage(self, { allMuted: opts.allMuted }));
    expect(phase()).toBe('in-room');
  }

  function session() {
    const s = controller.getSnapshot();
    if (!('session' in s) || !s.session) throw new Error(`no session in ${s.phase}`);
    return s.session;
  }

  function media() {
    const s = controller.getSnapshot();
    if (!('media' in s)) throw new Error(`no media in ${s.phase}`);
    return s.media;
  }

  /** Every camera and microphone track ended, every socket closed (a leaving one after its delay). */
  async function expectReleased() {
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.map((t) => t.readyState)).toEqual(tracks.map(() => 'ended'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(sockets.map((s) => s.readyState)).toEqual(sockets.map(() => 3));
    const opened = sockets.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(opened);
    expect(window.__parley).toBeUndefined();
  }

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sessionStorage.clear();
    localStorage.clear();
    sockets = [];
    calls = [];
    notify = vi.fn<(n: Notice) => void>();
    tracks = installFakeDevices(vi.stubGlobal);
  });
  afterEach(() => {
    controller.stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('prejoin → joining → in-room: the dialog choice is sent, the socket joins, the person is told', async () => {
    make().start();
    expect(phase()).toBe('prejoin');
    await settle();
    expect(media().getSnapshot()).toMatchObject({ isMuted: true, isVideoOn: true });
    controller.join({ name: 'Ann', audio: false, video: true });
    expect(controller.getSnapshot()).toMatchObject({ phase: 'joining', session: null });
    expect(lastCall().body).toMatchObject({ name: 'Ann', isHost: false, isMuted: true, isVideoOn: true });
    lastCall().answer.resolve(admitted);
    await settle();
    expect(phase()).toBe('joining');
    expect(session().getSnapshot().signal.state).toBe('connecting');
    socket().open();
    expect(socket().sentOf('join_meeting')).toEqual([
      { type: 'join_meeting', joinToken: admitted.joinToken },
    ]);
    socket().receive(joinedMessage(ann));
    expect(phase()).toBe('in-room');
    expect(session().getSnapshot().self?.id).toBe('p1');
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'You joined the meeting' }));
    expect(window.__parley?.signalState()).toBe('joined');
  });

  describe('on the SFU the first render waits for our subscriber connection (holdRoom)', () => {
    const bo = participant('p2', 'Bo');
    /** Joined a room on the SFU with Bo in it; the page has asked to subscribe. */
    async function joinSfuRoom() {
      vi.stubGlobal('RTCPeerConnection', FakePC);
      make().start();
      await settle();
      controller.join({ name: 'Ann', audio: true, video: true });
      lastCall().answer.resolve({ ...admitted, mediaMode: 'sfu' });
      await settle();
      socket().open();
      socket().receive({ type: 'media_mode', mode: 'sfu' });
      socket().receive(joinedMessage(ann, { others: [bo] }));
      expect(socket().sentOf('sfu_subscribe')).toHaveLength(1);
    }

    it('shows the room once our answer to the first offer and a candidate are out, not before', async () => {
      await joinSfuRoom();
      expect(phase()).toBe('joining');
      expect(session().getSnapshot()).toMatchObject({ holdRoom: true, self: { id: 'p1' } });
      socket().receive(
        sfuOffer([
          { mid: '0', participantId: 'p2', kind: 'audio', active: true },
          { mid: '1', participantId: 'p2', kind: 'video', active: true },
        ]),
      );
      await settle();
      expect(socket().sentOf('sfu_answer')).toHaveLength(1);
      // The answer is out, but not yet a candidate of the subscriber connection.
      expect(phase()).toBe('joining');
      const subscriber = FakePC.made.at(-1)!;
      (subscriber.onicecandidate as (e: { candidate: null }) => void)({ candidate: null });
      expect(socket().sentOf('sfu_trickle')).toEqual([
        { type: 'sfu_trickle', target: 'subscriber', candidate: null },
      ]);
      expect(phase()).toBe('in-room');
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'You joined the meeting' }));
    });

    it(`shows it after ${ROOM_HOLD_MAX_MS} ms when no offer comes, and never holds it again`, async () => {
      await joinSfuRoom();
      await vi.advanceTimersByTimeAsync(ROOM_HOLD_MAX_MS - 10);
      expect(phase()).toBe('joining');
      await vi.advanceTimersByTimeAsync(10);
      expect(phase()).toBe('in-room');
      // A resume's `joined` does not hide the room again.
      socket().close(1006);
      await vi.advanceTimersByTimeAsync(5000);
      socket().open();
      socket().receive(joinedMessage(ann, { others: [bo], resumed: true }));
      expect(phase()).toBe('in-room');
      expect(session().getSnapshot().holdRoom).toBe(false);
    });

    it('on the mesh the room shows at once', async () => {
      await enter();
      expect(session().getSnapshot().holdRoom).toBe(false);
    });
  });

  it('joining → password → joining: a wrong password asks again, the right one joins', async () => {
    make().start();
    await settle();
    controller.join({ name: 'Pat', audio: false, video: true });
    lastCall().answer.reject(passwordError(401));
    await settle();
    expect(controller.getSnapshot()).toMatchObject({ phase: 'password', wrong: false });
    controller.submitPassword('wrong');
    expect(phase()).toBe('joining');
    expect(lastCall().body).toMatchObject({ name: 'Pat', password: 'wrong' });
    lastCall().answer.reject(passwordError(403));
    await settle();
    expect(controller.getSnapshot()).toMatchObject({ phase: 'password', wrong: true });
    controller.submitPassword('open-sesame');
    lastCall().answer.resolve(admitted);
    await settle();
    socket().open();
    socket().receive(joinedMessage(participant('p1', 'Pat')));
    expect(phase()).toBe('in-room');
  });

  it('joining → waiting → in-room when the host admits', async () => {
    make().start();
    await settle();
    controller.join({ name: 'Wendy', audio: true, video: true });
    lastCall().answer.resolve({ ...admitted, admission: 'waiting' });
    await settle();
    socket().open();
    socket().receive({ type: 'waiting', message: 'Please wait' });
    expect(phase()).toBe('waiting');
    // A drop while waiting keeps the waiting screen (the room was never shown).
    socket().drop();
    expect(phase()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1000);
    socket().open();
    socket().receive({ type: 'waiting', message: 'Please wait' });
    expect(phase()).toBe('waiting');
    socket().receive({ type: 'admitted' });
    socket().receive(joinedMessage(participant('p1', 'Wendy')));
    expect(phase()).toBe('in-room');
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'You joined the meeting' }));
  });

  it('waiting → ended(denied) releases the camera, microphone and socket', async () => {
    make().start();
    await settle();
    controller.join({ name: 'Walt', audio: true, video: true });
    lastCall().answer.resolve({ ...admitted, admission: 'waiting' });
    await settle();
    socket().open();
    socket().receive({ type: 'waiting', message: 'Please wait' });
    socket().receive({ type: 'denied', message: 'The host did not let you in' });
    expect(controller.getSnapshot()).toEqual({
      phase: 'ended',
      reason: 'denied',
      detail: 'The host did not let you in',
    });
    await expectReleased();
  });

  it('in-room → reconnecting → in-room after a dropped socket, told once it is back', async () => {
    await enter();
    const before = session();
    socket().drop(1006);
    expect(phase()).toBe('reconnecting');
    expect(session()).toBe(before);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
    socket().open();
    socket().receive(joinedMessage(ann, { resumed: true }));
    expect(phase()).toBe('in-room');
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Reconnected' }));
  });

  it.each([
    ['removed', (s: FakeSocket) => s.receive({ type: 'removed', message: 'Removed by the host' })],
    ['ended', (s: FakeSocket) => s.drop(WS_CLOSE.meetingEnded, 'Meeting ended')],
    ['replaced', (s: FakeSocket) => s.drop(WS_CLOSE.replaced, '')],
  ] as const)('in-room → ended(%s) by the server', async (reason, server) => {
    await enter();
    server(socket());
    expect(controller.getSnapshot()).toMatchObject({ phase: 'ended', reason });
    await expectReleased();
  });

  it('in-room → ended(left): the server hears leave_meeting and the join is forgotten', async () => {
    await enter();
    expect(sessionStorage.getItem(`meeting-join-${MEETING}`)).not.toBeNull();
    const s = socket();
    controller.leave();
    expect(controller.getSnapshot()).toEqual({ phase: 'ended', reason: 'left', detail: null });
    expect(s.sentOf('leave_meeting')).toHaveLength(1);
    expect(sessionStorage.getItem(`meeting-join-${MEETING}`)).toBeNull();
    await expectReleased();
  });

  it('a lost connection ends as connection_lost, and Rejoin joins again with the same choice', async () => {
    await enter();
    socket().drop(WS_CLOSE.unauthorized, 'Invalid join token');
    expect(controller.getSnapshot()).toMatchObject({ phase: 'ended', reason: 'connection_lost' });
    controller.rejoin();
    expect(phase()).toBe('joining');
    expect(lastCall().body).toMatchObject({ name: 'Ann', isMuted: false, isVideoOn: true });
  });

  it.each([
    ['error', new TypeError('fetch failed'), 'Please check your connection and try again.'],
    ['error', new ApiError(500, 'boom', { message: 'boom' }), 'boom'],
    ['not_found', new ApiError(404, 'x', { message: 'Meeting not found' }), null],
    ['full', new ApiError(409, 'x', { message: 'Meeting is full' }), null],
    ['rate_limited', new ApiError(429, 'x', { message: 'slow down' }), 'slow down'],
    [
      'removed',
      new ApiError(403, 'x', {
        message: 'The host removed you from this meeting. You cannot join it again.',
      }),
      'The host removed you from this meeting. You cannot join it again.',
    ],
  ] as const)('a failed join call ends as %s', async (reason, err, detail) => {
    make().start();
    await settle();
    controller.join({ name: 'Ann', audio: true, video: true });
    lastCall().answer.reject(err);
    await settle();
    expect(controller.getSnapshot()).toEqual({ phase: 'ended', reason, detail });
    await expectReleased();
  });

  it('a link whose id cannot name a meeting ends at once, without the camera', () => {
    make({ meetingId: 'not-a-meeting', name: 'Nobody' }).start();
    expect(controller.getSnapshot()).toEqual({ phase: 'ended', reason: 'not_found', detail: null });
    expect(tracks).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('ignores the answer to a join abandoned by leaving the page', async () => {
    make().start();
    await settle();
    controller.join({ name: 'Ann', audio: true, video: true });
    controller.stop();
    lastCall().answer.resolve(admitted);
    await settle();
    expect(phase()).toBe('idle');
    expect(sockets).toHaveLength(0);
  });

  describe('stop() from every phase releases the media and the socket', () => {
    const reach: Record<Exclude<RoomState['phase'], 'idle' | 'ended'>, () => Promise<void>> = {
      prejoin: async () => {
        make().start();
        await settle();
      },
      joining: async () => {
        make().start();
        await settle();
        controller.join({ name: 'Ann', audio: true, video: true });
        lastCall().answer.resolve(admitted);
        await settle();
        socket().open();
      },
      password: async () => {
        make().start();
        await settle();
        controller.join({ name: 'Ann', audio: true, video: true });
        lastCall().answer.reject(passwordError(401));
        await settle();
      },
      waiting: async () => {
        make().start();
        await settle();
        controller.join({ name: 'Ann', audio: true, video: true });
        lastCall().answer.resolve({ ...admitted, admission: 'waiting' });
        await settle();
        socket().open();
        socket().receive({ type: 'waiting', message: 'Please wait' });
      },
      'in-room': () => enter(),
      reconnecting: async () => {
        await enter();
        socket().drop();
      },
    };

    it.each(Object.keys(reach) as (keyof typeof reach)[])('from %s', async (from) => {
      await reach[from]();
      expect(phase()).toBe(from);
      const open = sockets.filter((s) => s.readyState === 1);
      controller.stop();
      expect(controller.getSnapshot()).toEqual({ phase: 'idle' });
      await expectReleased();
      // A socket the server had accepted is told that we leave (no ghost for the grace period).
      for (const s of open)
        if (from === 'waiting' || from === 'in-room') expect(s.sentOf('leave_meeting')).toHaveLength(1);
    });

    it('from ended (nothing left to release) back to idle; start() joins again as before', async () => {
      await enter();
      controller.leave();
      controller.stop();
      expect(phase()).toBe('idle');
      controller.start();
      expect(phase()).toBe('joining');
      expect(lastCall().body).toMatchObject({ name: 'Ann' });
    });
  });

  describe('a ?name= link skips the dialog', () => {
    it('a guest joins at once with the spec defaults: microphone muted, camera on', async () => {
      make({ name: ' Gus ' }).start();
      expect(phase()).toBe('joining');
      expect(lastCall().body).toMatchObject({ name: 'Gus', isHost: false, isMuted: true, isVideoOn: true });
      await settle();
      expect(media().getSnapshot()).toMatchObject({ isMuted: true, isVideoOn: true });
    });

    it("a guest's Account preferences decide the microphone and camera", () => {
      localStorage.setItem('audio-settings', JSON.stringify({ joinMuted: false }));
      localStorage.setItem('video-settings', JSON.stringify({ joinCameraOff: true }));
      make({ name: 'Gus' }).start();
      expect(lastCall().body).toMatchObject({ isMuted: false, isVideoOn: false });
    });

    it('a host link joins with video and audio on (spec §2)', () => {
      make({ name: 'Hana', host: true }).start();
      expect(lastCall().body).toMatchObject({ name: 'Hana', isHost: true, isMuted: false, isVideoOn: true });
    });

    it('an invalid name still shows the dialog', () => {
      make({ name: 'A', host: true }).start();
      expect(phase()).toBe('prejoin');
      expect(calls).toHaveLength(0);
    });

    it('a reload of a room this tab was in rejoins with the microphone and camera as they were', async () => {
      await enter();
      media().setMuted(true);
      controller.stop();
      make({ name: 'Someone Else' }).start();
      expect(lastCall().body).toMatchObject({ name: 'Ann', isMuted: true, isVideoOn: true });
    });

    it("a reload proves it is the same participant with this tab's last join token; leaving forgets it", async () => {
      await enter();
      expect(calls[0]!.body.resumeToken).toBeUndefined();
      controller.stop();
      make().start();
      // The server brings a guest back only with its previous token (a session id alone is no proof).
      expect(lastCall().body).toMatchObject({ resumeToken: admitted.joinToken });
      lastCall().answer.resolve({ ...admitted, joinToken: 'token-after-the-reload' });
      await settle();
      expect(sessionStorage.getItem(`meeting-resume-${MEETING}`)).toBe('token-after-the-reload');
      controller.leave();
      expect(sessionStorage.getItem(`meeting-resume-${MEETING}`)).toBeNull();
    });
  });

  describe('Mute All is room state', () => {
    it('the host reads it from joined.allMuted (Unmute All after a reload) and from the ack', async () => {
      await enter(
        participant('p1', 'Hana', { isHost: true }),
        { ...admitted, isHost: true },
        { allMuted: true },
      );
      expect(session().getSnapshot().allMuted).toBe(true);
      // The host's own microphone is not touched.
      expect(media().getSnapshot().isMuted).toBe(false);
      const done = session().muteAll(false);
      const req = socket().sentOf('mute_all')[0]!;
      expect(req).toMatchObject({ muted: false });
      expect(session().getSnapshot().allMuted).toBe(true);
      socket().receive({ type: 'ack', requestId: req.requestId as string });
      await done;
      expect(session().getSnapshot().allMuted).toBe(false);
    });

    it('a guest who joins while it is on has the microphone muted, and follows mute_all after', async () => {
      await enter(participant('p1', 'Gus', { isMuted: true }), admitted, { allMuted: true });
      expect(media().getSnapshot().isMuted).toBe(true);
      expect(socket().sentOf('media_state').at(-1)).toMatchObject({ isMuted: true });
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'The host muted everyone' }));
      socket().receive({ type: 'mute_all', muted: false });
      expect(session().getSnapshot().allMuted).toBe(false);
      // Lifting Mute All leaves unmuting to the person.
      expect(media().getSnapshot().isMuted).toBe(true);
      media().setMuted(false);
      socket().receive({ type: 'mute_all', muted: true });
      expect(session().getSnapshot().allMuted).toBe(true);
      expect(media().getSnapshot().isMuted).toBe(true);
    });

    it('a guest who unmuted after Mute All is not muted again by a resume', async () => {
      await enter(participant('p1', 'Gus'), admitted, { allMuted: true });
      expect(media().getSnapshot().isMuted).toBe(false);
    });
  });
});
