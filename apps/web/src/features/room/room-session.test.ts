import type { RecordingState } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalMedia } from './media/local-media';
import { FakePC } from './media/sfu-fakes';
import { RoomSession, type Notice, type RoomSessionOptions } from './room-session';
import { FakeSocket, installFakeDevices, joinedMessage, participant } from './testing/fakes';

/** A session with its camera and microphone on, its socket (the last of `sockets`) open. */
async function openSession(sockets: FakeSocket[], more: Partial<RoomSessionOptions> = {}) {
  const media = new LocalMedia();
  await media.start({ audio: true, video: true });
  const session = new RoomSession({
    meetingId: '123-456-789',
    participantId: 'p1',
    joinToken: 'token-0123456789abcdef',
    socketUrl: 'ws://x/ws',
    media,
    notify: () => undefined,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    ...more,
  });
  session.connect();
  sockets.at(-1)!.open();
  return { session, media };
}

/** The session's message handlers, the server played through the fake socket. */
describe('RoomSession', () => {
  let sockets: FakeSocket[];
  let notify: ReturnType<typeof vi.fn<(n: Notice) => void>>;
  let media: LocalMedia;
  let session: RoomSession;
  const socket = () => sockets[sockets.length - 1]!;
  const gus = participant('p1', 'Gus');
  const ann = participant('p2', 'Ann', { isConnected: false });

  beforeEach(async () => {
    vi.useFakeTimers();
    installFakeDevices(vi.stubGlobal);
    sockets = [];
    notify = vi.fn<(n: Notice) => void>();
    ({ session, media } = await openSession(sockets, { notify }));
    socket().receive(joinedMessage(gus, { others: [ann] }));
  });
  afterEach(() => {
    session.dispose();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('keeps the others in join order and tells who comes and goes', () => {
    expect(session.getSnapshot().participants.map((p) => p.name)).toEqual(['Ann']);
    socket().receive({ type: 'participant_joined', participant: participant('p3', 'Bo') });
    expect(notify).toHaveBeenLastCalledWith({ title: 'Bo joined the meeting' });
    socket().receive({ type: 'participant_updated', participant: { ...ann, isMuted: true } });
    expect(session.getSnapshot().participants).toMatchObject([
      { name: 'Ann', isMuted: true },
      { name: 'Bo' },
    ]);
    socket().receive({ type: 'participant_left', participantId: 'p3', reason: 'removed' });
    expect(notify).toHaveBeenLastCalledWith({ title: 'Bo was removed' });
    expect(session.getSnapshot().participants.map((p) => p.name)).toEqual(['Ann']);
  });

  it('keeps the room’s media mode and active speaker as the server says them', () => {
    expect(session.getSnapshot()).toMatchObject({ mediaMode: 'p2p', activeSpeakerId: null });
    socket().receive({ type: 'active_speaker', participantId: 'p2' });
    expect(session.getSnapshot().activeSpeakerId).toBe('p2');
    socket().receive({ type: 'media_mode', mode: 'sfu' });
    expect(session.getSnapshot().mediaMode).toBe('sfu');
    socket().receive({ type: 'active_speaker', participantId: null });
    expect(session.getSnapshot().activeSpeakerId).toBeNull();
  });

  it('tells the server the microphone and camera state once joined, and mirrors it in self', () => {
    expect(socket().sentOf('media_state').at(-1)).toMatchObject({ isMuted: false, isVideoOn: true });
    media.setVideoOn(false);
    expect(socket().sentOf('media_state').at(-1)).toMatchObject({ isVideoOn: false });
    expect(session.getSnapshot().self).toMatchObject({ id: 'p1', isVideoOn: false });
  });

  it('mutes when the host mutes this participant, and only asks when the host unmutes', () => {
    socket().receive({ type: 'mute_participant', targetParticipantId: 'p2', muted: true });
    expect(media.getSnapshot().isMuted).toBe(false);
    socket().receive({ type: 'mute_participant', targetParticipantId: 'p1', muted: true });
    expect(media.getSnapshot().isMuted).toBe(true);
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'The host muted you' }));
    socket().receive({ type: 'mute_participant', targetParticipantId: 'p1', muted: false });
    expect(media.getSnapshot().isMuted).toBe(true);
    expect(notify).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: 'The host asked you to unmute' }),
    );
  });

  it("tells a host, and only a host, when a guest's free time is about to end and when it ran out", async () => {
    const ending = {
      type: 'guest_free_time',
      participantId: 'p2',
      name: 'Ann',
      stage: 'ending',
      remainingMs: 300_000,
      minutesLeft: 5,
      graceMs: 30_000,
    } as const;
    notify.mockClear();
    socket().receive(ending);
    expect(notify).not.toHaveBeenCalled();

    const hostSockets: FakeSocket[] = [];
    const hostNotify = vi.fn<(n: Notice) => void>();
    const host = await openSession(hostSockets, { notify: hostNotify });
    hostSockets
      .at(-1)!
      .receive(joinedMessage(participant('p1', 'Hana', { isHost: true }), { others: [ann] }));
    hostNotify.mockClear();
    hostSockets.at(-1)!.receive(ending);
    expect(hostNotify).toHaveBeenLastCalledWith(
      expect.objectContaining({
        title: "Ann's free time ends in 5 minutes",
        description: expect.stringContaining('Cover everyone'),
      }),
    );
    hostSockets.at(-1)!.receive({ ...ending, stage: 'ended', remainingMs: 0, minutesLeft: 0 });
    expect(hostNotify).toHaveBeenLastCalledWith(
      expect.objectContaining({
        title: "Ann's free time has run out",
        description: 'They leave the meeting in 30 seconds unless they add a card.',
        variant: 'destructive',
      }),
    );
    host.session.dispose();
  });

  it('keeps the waiting list and admits or denies by id', () => {
    socket().receive({ type: 'waiting_room', waiting: [{ id: 'w1', name: 'Wendy' }] });
    expect(session.getSnapshot().waitingList).toEqual([{ id: 'w1', name: 'Wendy' }]);
    void session.admit('w1');
    void session.deny('w2');
    expect(socket().sentOf('admit_participant')).toMatchObject([{ targetParticipantId: 'w1' }]);
    expect(socket().sentOf('deny_participant')).toMatchObject([{ targetParticipantId: 'w2' }]);
  });

  it('keeps the removed list and allows a removed person back by id, telling when refused', async () => {
    socket().receive({ type: 'removed_list', removed: [{ id: 'r1', name: 'Rita' }] });
    expect(session.getSnapshot().removedList).toEqual([{ id: 'r1', name: 'Rita' }]);
    const done = session.allowRejoin('r1');
    const req = socket().sentOf('allow_rejoin')[0]!;
    expect(req).toMatchObject({ removedId: 'r1' });
    socket().receive({
      type: 'error',
      requestId: req.requestId as string,
      code: 'not_found',
      message: 'That person is not on the removed list',
    });
    await done;
    expect(notify).toHaveBeenLastCalledWith({
      title: 'Could not allow them back',
      description: 'That person is not on the removed list',
      variant: 'destructive',
    });
    socket().receive({ type: 'removed_list', removed: [] });
    expect(session.getSnapshot().removedList).toEqual([]);
  });

  it('says so when a host action is refused', async () => {
    const done = session.removeParticipant('p2');
    const req = socket().sentOf('remove_participant')[0]!;
    socket().receive({
      type: 'error',
      requestId: req.requestId as string,
      code: 'forbidden',
      message: 'Only the host can do that',
    });
    await done;
    expect(notify).toHaveBeenLastCalledWith({
      title: 'Could not remove the participant',
      description: 'Only the host can do that',
      variant: 'destructive',
    });
  });

  it('says when recording starts, when a limit is near, and which limit stopped it', () => {
    const state = (over: Partial<RecordingState>): RecordingState => ({
      active: false,
      startedAt: null,
      available: true,
      unavailableReason: null,
      stopsAt: null,
      limitNotice: null,
      ...over,
    });
    // The first state after joining is only shown, not announced.
    socket().receive({ type: 'recording_state', recording: state({}) });
    expect(notify).not.toHaveBeenCalled();
    const on = { active: true, startedAt: '2026-12-07T10:00:00Z', stopsAt: '2026-12-07T14:00:00Z' };
    socket().receive({ type: 'recording_state', recording: state(on) });
    expect(notify).toHaveBeenLastCalledWith({ title: 'This meeting is being recorded' });
    const soon = 'Recording stops in 5 minutes: recordings are limited to 4 hours';
    socket().receive({ type: 'recording_state', recording: state({ ...on, limitNotice: soon }) });
    expect(notify).toHaveBeenLastCalledWith({ title: 'Recording', description: soon });
    // The same notice again (another state change) is not said twice.
    socket().receive({ type: 'recording_state', recording: state({ ...on, limitNotice: soon }) });
    expect(notify).toHaveBeenCalledTimes(2);
    const reached = 'Recording stopped: recordings are limited to 4 hours';
    socket().receive({ type: 'recording_state', recording: state({ limitNotice: reached }) });
    expect(notify).toHaveBeenLastCalledWith({ title: 'Recording stopped', description: reached });
    // Stopped by the host: no reason.
    socket().receive({ type: 'recording_state', recording: state(on) });
    socket().receive({ type: 'recording_state', recording: state({}) });
    expect(notify).toHaveBeenLastCalledWith({ title: 'Recording stopped' });
  });

  it('adds chat messages once each, in time order', () => {
    const msg = (id: string, t: string) => ({
      type: 'chat_message' as const,
      id,
      content: id,
      senderName: 'Ann',
      senderId: 'p2',
      timestamp: t,
    });
    socket().receive(msg('b', '2026-01-01T00:00:02Z'));
    socket().receive(msg('a', '2026-01-01T00:00:01Z'));
    socket().receive(msg('b', '2026-01-01T00:00:02Z'));
    expect(session.getSnapshot().chat.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('dispose leaves politely once and stops listening', () => {
    const s = socket();
    session.dispose();
    session.dispose();
    expect(s.sentOf('leave_meeting')).toHaveLength(1);
    s.receive({ type: 'participant_joined', participant: participant('p4', 'Late') });
    expect(session.getSnapshot().participants.map((p) => p.name)).toEqual(['Ann']);
  });
});

/** The page's view of the SFU (which videos it shows) across the SFU sessions of one room. */
describe('RoomSession on the SFU', () => {
  let sockets: FakeSocket[];
  let session: RoomSession;
  const socket = () => sockets[sockets.length - 1]!;
  const views = () =>
    socket()
      .sentOf('sfu_view')
      .map((m) => m.videos);
  /** The server takes our latest `sfu_subscribe`: the SFU session may now send its view. */
  const subscribed = async () => {
    const req = socket().sentOf('sfu_subscribe').at(-1)!;
    socket().receive({ type: 'ack', requestId: req.requestId as string });
    await vi.advanceTimersByTimeAsync(0);
  };

  beforeEach(async () => {
    vi.useFakeTimers();
    installFakeDevices(vi.stubGlobal);
    sockets = [];
    ({ session } = await openSession(sockets, {
      createPeerConnection: (c) => new FakePC(c) as unknown as RTCPeerConnection,
    }));
    socket().receive({ type: 'media_mode', mode: 'sfu' });
    socket().receive(joinedMessage(participant('p1', 'Gus'), { others: [participant('p2', 'Ann')] }));
  });
  afterEach(() => {
    session.dispose();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the page’s view once subscribed, and again to the session that replaces a failed one', async () => {
    const view = [{ participantId: 'p2', quality: 'high' as const }];
    session.setVideoView(view);
    expect(views()).toEqual([]);
    await subscribed();
    expect(views()).toEqual([view]);
    // The SFU came back after a failure (`restart`): a fresh session, told the same view unasked.
    socket().receive({ type: 'media_mode', mode: 'sfu', restart: true });
    expect(socket().sentOf('sfu_subscribe')).toHaveLength(2);
    await subscribed();
    expect(views()).toEqual([view, view]);
    session.setVideoView([{ participantId: 'p2', quality: 'low' }]);
    expect(views()).toHaveLength(3);
  });
});
