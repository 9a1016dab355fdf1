import { Writable } from 'node:stream';
import { SFU_VIEW } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, enter, listen, postJoin } from '../../../test/ws-client.js';
import { janusInstalled } from '../../providers/media/index.js';
import { ROOM_MESSAGES } from '../rooms/errors.js';
import { MESH_MAX_PARTICIPANTS } from './service.js';

function logCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe('a server without Janus', () => {
  let t: TestContext;
  const log = logCollector();

  beforeAll(async () => {
    t = await createTestApp(
      { MEDIA_PROVIDER: 'auto', JANUS_BIN: '/nonexistent/janus', LOG_LEVEL: 'info' },
      undefined,
      { logStream: log.stream },
    );
  });
  afterAll(async () => t?.close());

  it('says at start-up that meetings stay peer-to-peer, capped at 4', () => {
    expect(log.lines.join('\n')).toContain('meetings stay peer-to-peer, capped at 4 participants');
  });

  it('takes four people into a meeting and tells the fifth why not', async () => {
    const { userId, cookie: hostCookie } = await signIn(t, { email: 'mesh-host@example.com' });
    const m = await createMeeting(t, { hostId: userId, maxParticipants: 100 });
    for (let i = 0; i < MESH_MAX_PARTICIPANTS; i++) {
      await postJoin(t, m.meetingId, { name: `P${i}`, sessionId: `s${i}` });
    }
    const fifth = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      payload: { name: 'Fifth', sessionId: 's5', isMuted: false, isVideoOn: true },
      remoteAddress: '10.1.0.9',
    });
    expect(fifth.statusCode).toBe(409);
    // No SFU: the REST join gives no media hint.
    const sixth = await postJoin(t, m.meetingId, {
      name: 'Host',
      sessionId: 'h',
      cookie: hostCookie,
      isHost: true,
    });
    expect(sixth).not.toHaveProperty('mediaMode');
    expect(fifth.json()).toEqual({ message: ROOM_MESSAGES.fullWithoutSfu(4) });
    expect(fifth.json().message).toBe('Without a video server, meetings here hold up to 4 people.');
  });
});

const installed = janusInstalled();
if (!installed)
  console.warn('SKIPPED part of media.test.ts: `janus` is not installed (install-system-deps.sh)');

describe.skipIf(!installed)('a meeting through our own Janus', () => {
  let t: TestContext;
  let ws: string;
  let meetingId: string;

  beforeAll(async () => {
    t = await createTestApp({ MEDIA_PROVIDER: 'janus' });
    ws = (await listen(t)).ws;
    const { userId } = await signIn(t, { email: 'sfu-host@example.com' });
    meetingId = (await createMeeting(t, { hostId: userId })).meetingId;
  });
  afterAll(async () => t?.close());

  const offer = { type: 'offer', sdp: 'v=0\r\n' };

  it('refuses the SFU to a socket that never joined through us', async () => {
    const stranger = await connect(ws, meetingId);
    stranger.send({ type: 'sfu_publish', requestId: 'p', offer });
    expect(await stranger.next('error')).toMatchObject({ code: 'not_joined', requestId: 'p' });
    stranger.send({ type: 'sfu_subscribe', requestId: 's' });
    expect(await stranger.next('error')).toMatchObject({ code: 'not_joined', requestId: 's' });
    stranger.send({ type: 'sfu_view', requestId: 'v', videos: [] });
    expect(await stranger.next('error')).toMatchObject({ code: 'not_joined', requestId: 'v' });
    stranger.close();
  });

  it('keeps two people peer-to-peer and moves the room to the SFU when a third joins', async () => {
    const a = await enter(t, ws, meetingId, { name: 'Ann', sessionId: 'a' });
    const b = await enter(t, ws, meetingId, { name: 'Bob', sessionId: 'b' });
    // The REST join's hint: what the socket will find.
    expect([a.join.mediaMode, b.join.mediaMode]).toEqual(['p2p', 'p2p']);
    // Two: the mesh; the SFU is refused.
    expect(await a.socket.next('media_mode')).toMatchObject({ mode: 'p2p' });
    expect(await b.socket.next('media_mode')).toMatchObject({ mode: 'p2p' });
    b.socket.send({ type: 'sfu_publish', requestId: 'early', offer });
    expect(await b.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: 'early' });
    b.socket.send({
      type: 'sfu_view',
      requestId: 'view-early',
      videos: [{ participantId: a.join.id, quality: 'low' }],
    });
    expect(await b.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: 'view-early' });

    const c = await enter(t, ws, meetingId, { name: 'Cy', sessionId: 'c' });
    // Two are in: the third's arrival will move the room, and its REST answer says so already.
    expect(c.join.mediaMode).toBe('sfu');
    // The newcomer hears the mode before `joined`; its arrival moved the room, so it is told to
    // bridge (mesh with the two, who are still on the mesh, until the SFU carries them).
    const types = c.socket.received.map((m) => m.type);
    expect(types.indexOf('media_mode')).toBeLessThan(types.indexOf('joined'));
    expect(c.socket.received.find((m) => m.type === 'media_mode')).toEqual({
      type: 'media_mode',
      mode: 'sfu',
      bridge: true,
    });
    expect(await a.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'sfu' });
    expect(await b.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'sfu' });

    // Janus refuses an SDP that is no offer; the sender gets a clear error and the server lives on.
    c.socket.send({ type: 'sfu_publish', requestId: 'bad', offer });
    const err = await c.socket.next('error', 12_000);
    expect(err).toMatchObject({ requestId: 'bad', code: 'internal' });
    c.socket.send({ type: 'sfu_subscribe', requestId: 'sub' });
    expect(await c.socket.next('ack')).toMatchObject({ requestId: 'sub' });
    // On the SFU a participant says which videos it shows (no reply; a bad one is refused).
    c.socket.send({
      type: 'sfu_view',
      requestId: 'view',
      videos: [
        { participantId: a.join.id, quality: 'high' },
        { participantId: b.join.id, quality: 'low' },
      ],
    });
    c.socket.send({
      type: 'sfu_view',
      requestId: 'too-many',
      videos: Array.from({ length: SFU_VIEW.maxVideos + 1 }, () => ({
        participantId: a.join.id,
        quality: 'low',
      })),
    });
    expect(await c.socket.next('error')).toMatchObject({ requestId: 'too-many', code: 'bad_message' });
    // A shown video that decodes nothing asks for a key frame: no reply, even when there is
    // nothing to ask (a has no publisher here); a malformed one is refused.
    c.socket.send({ type: 'sfu_keyframe', requestId: 'key', participantId: a.join.id });
    c.socket.send({ type: 'sfu_keyframe', requestId: 'bad-key', participantId: 42 } as never);
    expect(await c.socket.next('error')).toMatchObject({ requestId: 'bad-key', code: 'bad_message' });
    await c.socket.sync();
    expect(
      c.socket.received.filter((m) => m.type === 'error' && ['view', 'key'].includes(m.requestId ?? '')),
    ).toEqual([]);

    // A fourth joins a room already on the SFU: no bridge (nobody is on the mesh any more).
    const d = await enter(t, ws, meetingId, { name: 'Dee', sessionId: 'd' });
    expect(d.socket.received.find((m) => m.type === 'media_mode')).toEqual({
      type: 'media_mode',
      mode: 'sfu',
    });
    for (const s of [a, b, c, d]) s.socket.close();
  });

  it('goes back to peer-to-peer when two remain; a page leaves the SFU only then', async () => {
    const { userId } = await signIn(t, { email: 'sfu-back@example.com' });
    const id = (await createMeeting(t, { hostId: userId })).meetingId;
    const a = await enter(t, ws, id, { name: 'Ann', sessionId: 'back-a' });
    const b = await enter(t, ws, id, { name: 'Bob', sessionId: 'back-b' });
    const c = await enter(t, ws, id, { name: 'Cy', sessionId: 'back-c' });
    expect(await a.socket.next('media_mode')).toMatchObject({ mode: 'p2p' });
    expect(await a.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'sfu' });
    expect(await b.socket.next('media_mode')).toMatchObject({ mode: 'p2p' });
    expect(await b.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'sfu' });
    // Three on the SFU: nobody leaves it.
    a.socket.send({ type: 'sfu_leave', requestId: 'too-soon' });
    expect(await a.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: 'too-soon' });

    c.socket.send({ type: 'leave_meeting' });
    expect(await a.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'p2p' });
    expect(await b.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'p2p' });
    // Back on the mesh: the SFU is refused again, and each page may now leave it.
    b.socket.send({ type: 'sfu_subscribe', requestId: 'late' });
    expect(await b.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: 'late' });
    a.socket.send({ type: 'sfu_leave', requestId: 'leave' });
    expect(await a.socket.next('ack')).toMatchObject({ requestId: 'leave' });

    // A third again moves the room back to the SFU, the newcomer bridging as the first time.
    const d = await enter(t, ws, id, { name: 'Dee', sessionId: 'back-d' });
    expect(d.socket.received.find((m) => m.type === 'media_mode')).toEqual({
      type: 'media_mode',
      mode: 'sfu',
      bridge: true,
    });
    expect(await a.socket.next('media_mode')).toEqual({ type: 'media_mode', mode: 'sfu' });
    for (const s of [a, b, c, d]) s.socket.close();
  });
});
