import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, enter, listen, postJoin } from '../../../test/ws-client.js';
import { chatMessages, meetingFiles, meetings } from '../../db/schema/index.js';
import { UNKNOWN_MEETING_LOOKUPS } from './gate.js';
import { ROOM_MESSAGES } from './errors.js';
import { TEST_ROOM_ID, TEST_ROOM_MAX_PARTICIPANTS, TEST_ROOM_UNAVAILABLE } from './test-room.js';

let t: TestContext;
let ws: string;

beforeAll(async () => {
  t = await createTestApp({ NODE_ENV: 'development' });
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

const joinTestRoom = (body: Record<string, unknown> = {}, ip = '10.1.0.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${TEST_ROOM_ID}/join`,
    remoteAddress: ip,
    payload: {
      name: 'Test abcde',
      isHost: false,
      isMuted: false,
      isVideoOn: true,
      sessionId: `s-${Math.random()}`,
      ...body,
    },
  });

/** Every way the server's code reaches the database; none may be used for the test room. */
function watchDatabase() {
  const db = t.db.db;
  const methods = [
    'select',
    'selectDistinct',
    'insert',
    'update',
    'delete',
    'execute',
    'transaction',
  ] as const;
  const spies = methods.map((method) => [method, vi.spyOn(db, method)] as const);
  return () => spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([method]) => method);
}

const countRows = async () => ({
  meetings: await t.db.db.$count(meetings),
  chat: await t.db.db.$count(chatMessages),
  files: await t.db.db.$count(meetingFiles),
});

describe('the test room outside production', () => {
  it('two people join, see each other, relay offer/answer/candidates and leave; no database is touched', async () => {
    const before = await countRows();
    const databaseCalls = watchDatabase();
    t.app.rooms.timings.resumeGraceMs = 300;
    t.app.rooms.timings.joinTimeoutMs = 300;

    const a = await enter(t, ws, TEST_ROOM_ID, { name: 'Test aaaaa' });
    expect(a.joined).toMatchObject({
      self: { id: a.join.id, name: 'Test aaaaa', isHost: false },
      participants: [],
      chatHistory: [],
      meeting: { meetingId: TEST_ROOM_ID },
      resumed: false,
    });
    // Nobody is host there, even when asking for it.
    const b = await enter(t, ws, TEST_ROOM_ID, { name: 'Test bbbbb', isHost: true });
    expect(b.join).toMatchObject({ isHost: false, admission: 'admitted' });
    expect(b.joined?.participants.map((p) => p.id)).toEqual([a.join.id]);
    expect((await a.socket.next('participant_joined')).participant).toMatchObject({
      id: b.join.id,
      name: 'Test bbbbb',
    });

    b.socket.send({ type: 'request_existing_connections', requestId: 'ex' });
    expect((await b.socket.next('existing_connections')).participants.map((p) => p.id)).toEqual([a.join.id]);
    b.socket.send({ type: 'offer', targetParticipant: a.join.id, offer: { type: 'offer', sdp: 'v=0 b' } });
    expect(await a.socket.next('offer')).toMatchObject({
      fromParticipant: b.join.id,
      offer: { type: 'offer', sdp: 'v=0 b' },
    });
    a.socket.send({
      type: 'answer',
      targetParticipant: b.join.id,
      answer: { type: 'answer', sdp: 'v=0 a' },
    });
    expect(await b.socket.next('answer')).toMatchObject({ fromParticipant: a.join.id });
    const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0' };
    a.socket.send({ type: 'ice-candidate', targetParticipant: b.join.id, candidate });
    expect(await b.socket.next('ice-candidate')).toMatchObject({ fromParticipant: a.join.id, candidate });
    b.socket.send({ type: 'media_state', isMuted: true, isVideoOn: false });
    expect((await a.socket.next('participant_updated')).participant).toMatchObject({
      id: b.join.id,
      isMuted: true,
      isVideoOn: false,
    });

    // The participant list works with a test-room token.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${TEST_ROOM_ID}/participants`,
      headers: { authorization: `Bearer ${a.join.joinToken}` },
    });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json<{ id: string }[]>()
        .map((p) => p.id)
        .sort(),
    ).toEqual([a.join.id, b.join.id].sort());

    // A join that never connects times out; the two leave; the room is gone.
    await postJoin(t, TEST_ROOM_ID, { name: 'Test ccccc' });
    b.socket.send({ type: 'leave_meeting' });
    expect((await b.socket.closed).code).toBe(WS_CLOSE.normal);
    expect(await a.socket.next('participant_left')).toMatchObject({
      participantId: b.join.id,
      reason: 'left',
    });
    a.socket.send({ type: 'leave_meeting' });
    await a.socket.closed;
    await expect.poll(() => t.app.rooms.room(TEST_ROOM_ID), { timeout: 2000 }).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));

    expect(databaseCalls()).toEqual([]);
    vi.restoreAllMocks();
    expect(await countRows()).toEqual(before);
    t.app.rooms.timings.resumeGraceMs = 45_000;
    t.app.rooms.timings.joinTimeoutMs = WS_LIMITS.joinTimeoutMs;
  });

  it('refuses chat, files, collaboration and host messages with a clear error; nothing reaches the others', async () => {
    const databaseCalls = watchDatabase();
    const a = await enter(t, ws, TEST_ROOM_ID, { name: 'Test aaaaa' });
    const b = await enter(t, ws, TEST_ROOM_ID, { name: 'Test bbbbb' });
    const refused = [
      { type: 'chat_message', requestId: 'chat', content: 'hello' },
      { type: 'collaboration_update', data: { stroke: [1, 2] } },
      { type: 'mute_all', requestId: 'all', muted: true },
      { type: 'mute_participant', requestId: 'one', targetParticipantId: a.join.id, muted: true },
      { type: 'remove_participant', requestId: 'rm', targetParticipantId: a.join.id },
      { type: 'admit_participant', requestId: 'in', targetParticipantId: a.join.id },
      { type: 'deny_participant', requestId: 'out', targetParticipantId: a.join.id },
    ];
    for (const message of refused) {
      b.socket.send(message);
      const error = await b.socket.next('error');
      expect(error, message.type).toMatchObject({ code: 'forbidden', message: TEST_ROOM_UNAVAILABLE });
      if ('requestId' in message) expect(error.requestId).toBe(message.requestId);
    }
    await b.socket.sync();
    for (const type of ['chat_message', 'collaboration_update', 'mute_all', 'mute_participant'] as const) {
      expect(await a.socket.none(type, 50)).toEqual([]);
    }
    expect(a.socket.ws.readyState).toBe(a.socket.ws.OPEN);

    const upload = async (token: string) => {
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'hello.txt');
      const req = new Request('http://x/', { method: 'POST', body: form });
      return t.app.inject({
        method: 'POST',
        url: `/api/meetings/${TEST_ROOM_ID}/files`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': req.headers.get('content-type') ?? '',
        },
        payload: Buffer.from(await req.arrayBuffer()),
      });
    };
    const res = await upload(b.join.joinToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: TEST_ROOM_UNAVAILABLE });
    expect(databaseCalls()).toEqual([]);
    for (const { socket } of [a, b]) {
      socket.send({ type: 'leave_meeting' });
      await socket.closed;
    }
  });

  it(`holds at most ${TEST_ROOM_MAX_PARTICIPANTS} people (409 beyond); a reload keeps its place`, async () => {
    t.app.rooms.timings.joinTimeoutMs = 1000;
    const firsts: Array<{ id: string; joinToken: string }> = [];
    for (let i = 0; i < TEST_ROOM_MAX_PARTICIPANTS; i++) {
      const res = await joinTestRoom({ sessionId: `place-${i}` });
      expect(res.statusCode).toBe(200);
      firsts.push(res.json<{ id: string; joinToken: string }>());
    }
    const extra = await joinTestRoom({ sessionId: 'one-too-many' });
    expect(extra.statusCode).toBe(409);
    expect(extra.json()).toEqual({ message: ROOM_MESSAGES.full });
    const reload = await joinTestRoom({ sessionId: 'place-0', resumeToken: firsts[0]!.joinToken });
    expect(reload.statusCode).toBe(200);
    expect(reload.json<{ id: string }>().id).toBe(firsts[0]!.id);
    expect((await joinTestRoom({ name: 'x' })).statusCode).toBe(400);
    // Nobody connected: the places are freed when their join timeout ends.
    await expect.poll(() => t.app.rooms.room(TEST_ROOM_ID), { timeout: 3000 }).toBeUndefined();
    expect((await joinTestRoom({ sessionId: 'one-too-many' })).statusCode).toBe(200);
    t.app.rooms.timings.joinTimeoutMs = WS_LIMITS.joinTimeoutMs;
  });

  it('the older registration form joins the test room too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${TEST_ROOM_ID}/participants`,
      payload: { name: 'Reg', email: 'reg@example.com', sessionId: 'registration' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Reg', isHost: false, admission: 'admitted' });
    expect(String(res.headers['set-cookie'])).toMatch(/parley_room_testroom=[^;]*;[^,]*HttpOnly/);
  });

  it('test-room joins do not spend the unknown-meeting lookup budget', async () => {
    const ip = '10.1.0.9';
    let resumeToken: string | undefined;
    for (let i = 0; i < UNKNOWN_MEETING_LOOKUPS.limit + 5; i++) {
      const res = await joinTestRoom({ sessionId: 'same', ...(resumeToken ? { resumeToken } : {}) }, ip);
      expect(res.statusCode).toBe(200);
      resumeToken = res.json<{ joinToken: string }>().joinToken;
    }
    const { userId } = await signIn(t, { email: 'host@example.com' });
    const m = await createMeeting(t, { hostId: userId });
    const real = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      remoteAddress: ip,
      payload: { name: 'Guest', isHost: false, isMuted: false, isVideoOn: true, sessionId: 's' },
    });
    expect(real.statusCode).toBe(200);
  });
});

describe('the test room in production', () => {
  let prod: TestContext;
  let prodWs: string;
  beforeAll(async () => {
    prod = await createTestApp({
      NODE_ENV: 'production',
      ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
      ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
    });
    ({ ws: prodWs } = await listen(prod));
  });
  afterAll(async () => prod?.close());

  it('is an unknown meeting: 404 on join and participants, and the socket is refused', async () => {
    const res = await prod.app.inject({
      method: 'POST',
      url: `/api/meetings/${TEST_ROOM_ID}/join`,
      payload: { name: 'Test abcde', isHost: false, isMuted: false, isVideoOn: true, sessionId: 's' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: ROOM_MESSAGES.notFound });
    const list = await prod.app.inject({ method: 'GET', url: `/api/meetings/${TEST_ROOM_ID}/participants` });
    expect(list.statusCode).toBe(404);
    const socket = await connect(prodWs, TEST_ROOM_ID, { name: 'Test abcde' });
    socket.send({ type: 'join_meeting', joinToken: 'x'.repeat(43) });
    expect((await socket.next('error')).code).toBe('invalid_token');
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
  });
});
