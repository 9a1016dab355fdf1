import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../test/app.js';
import { createMeeting } from '../../test/meetings.js';
import { connect, enter, listen, postJoin, TestSocket } from '../../test/ws-client.js';

let t: TestContext;
let ws: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ userId: hostId } = await signIn(t, {
    email: 'host@example.com',
    firstName: 'Hana',
  }));
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

const newMeeting = (extra: Partial<Parameters<typeof createMeeting>[1]> = {}) =>
  createMeeting(t, { hostId, ...extra });

describe('frames', () => {
  it('answers a plain HTTP request to /ws (no Upgrade) with 426 and a message', async () => {
    const res = await t.app.inject('/ws?meetingId=123-456-789');
    expect(res.statusCode).toBe(426);
    expect(res.headers.upgrade).toBe('websocket');
    expect(res.json()).toEqual({
      message: 'This endpoint speaks WebSocket: connect with an Upgrade: websocket request',
    });
  });

  it('answers bad JSON, unknown types and wrong fields with bad_message, and keeps serving', async () => {
    const m = await newMeeting();
    const { socket } = await enter(t, ws, m.meetingId, { name: 'Ann' });
    socket.send('{not json');
    expect((await socket.next('error')).code).toBe('bad_message');
    socket.send({ type: 'no_such_type' });
    expect((await socket.next('error')).code).toBe('bad_message');
    socket.send({ type: 'chat_message', requestId: 'r1', content: 42 });
    const wrong = await socket.next('error');
    expect(wrong).toMatchObject({ code: 'bad_message', requestId: 'r1' });
    expect(wrong.message).toContain('content');
    socket.send({ type: 'offer', targetParticipant: 'x' });
    expect((await socket.next('error')).code).toBe('bad_message');
    // A binary frame is audio: with transcription off it is dropped without a word.
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send([1, 2]);
    expect((await socket.next('error')).code).toBe('bad_message');
    socket.send('null');
    expect((await socket.next('error')).code).toBe('bad_message');
    // Still in the room and answering.
    socket.send({ type: 'ping', requestId: 'alive' });
    expect((await socket.next('pong')).requestId).toBe('alive');
    socket.close();
  });

  it('answers a malformed variant of every message type with bad_message', async () => {
    const m = await newMeeting();
    const { socket, join } = await enter(t, ws, m.meetingId, { name: 'Mal' });
    const malformed = [
      { type: 'join_meeting', joinToken: 'short' },
      { type: 'request_existing_connections', requestId: 7 },
      { type: 'offer', targetParticipant: join.id, offer: { type: 'bogus', sdp: 'v=0' } },
      { type: 'answer', targetParticipant: '', answer: { type: 'answer', sdp: 'v=0' } },
      { type: 'ice-candidate', targetParticipant: join.id, candidate: { candidate: 5 } },
      { type: 'chat_message', content: 'x'.repeat(WS_LIMITS.maxChatLength + 1) },
      { type: 'media_state', isMuted: 'yes', isVideoOn: true },
      { type: 'mute_all' },
      { type: 'mute_participant', targetParticipantId: join.id },
      { type: 'remove_participant', targetParticipantId: 'x'.repeat(65) },
      { type: 'admit_participant' },
      { type: 'deny_participant', targetParticipantId: null },
      { type: 'collaboration_update', data: 'not an object' },
      { type: 'ping', requestId: 'x'.repeat(65) },
    ];
    for (const message of malformed) socket.send(message);
    for (const message of malformed) {
      const error = await socket.next('error');
      expect(error.code, message.type).toBe('bad_message');
    }
    socket.send({ type: 'ping', requestId: 'ok' });
    expect((await socket.next('pong')).requestId).toBe('ok');
    socket.close();
  });

  it('closes with 1009 on a frame over the size limit; the server keeps serving others', async () => {
    const m = await newMeeting();
    const { socket } = await enter(t, ws, m.meetingId, { name: 'Big' });
    socket.send({ type: 'chat_message', content: 'x'.repeat(WS_LIMITS.maxMessageBytes + 10) });
    expect((await socket.closed).code).toBe(WS_CLOSE.tooBig);
    const other = await enter(t, ws, m.meetingId, { name: 'Small' });
    expect(other.joined?.self.name).toBe('Small');
    other.socket.close();
  });

  it('refuses a flood with rate_limited, then closes with 4029', async () => {
    const m = await newMeeting();
    const { socket } = await enter(t, ws, m.meetingId, { name: 'Flood' });
    for (let i = 0; i < WS_LIMITS.messagesPerSecond * 3; i++) socket.send({ type: 'ping' });
    expect((await socket.next('error')).code).toBe('rate_limited');
    expect((await socket.closed).code).toBe(WS_CLOSE.rateLimited);
  });

  it('closes a socket without meetingId with 4000', async () => {
    const socket = await TestSocket.open(`${ws}/ws`);
    expect((await socket.closed).code).toBe(WS_CLOSE.badRequest);
  });
});

describe('join_meeting', () => {
  it('refuses every room message before join_meeting with not_joined', async () => {
    const m = await newMeeting();
    const socket = await connect(ws, m.meetingId);
    const early = [
      { type: 'request_existing_connections', requestId: 'a' },
      { type: 'offer', targetParticipant: 'p', offer: { type: 'offer', sdp: 'v=0' } },
      { type: 'answer', targetParticipant: 'p', answer: { type: 'answer', sdp: 'v=0' } },
      { type: 'ice-candidate', targetParticipant: 'p', candidate: null },
      { type: 'chat_message', content: 'hi' },
      { type: 'media_state', isMuted: true, isVideoOn: false },
      { type: 'mute_all', muted: true },
      { type: 'mute_participant', targetParticipantId: 'p', muted: true },
      { type: 'remove_participant', targetParticipantId: 'p' },
      { type: 'admit_participant', targetParticipantId: 'p' },
      { type: 'deny_participant', targetParticipantId: 'p' },
      { type: 'collaboration_update', data: {} },
      { type: 'leave_meeting' },
    ];
    for (const message of early) socket.send(message);
    for (let i = 0; i < early.length; i++) expect((await socket.next('error')).code).toBe('not_joined');
    socket.send({ type: 'ping', requestId: 'p' });
    await socket.next('pong');
    socket.close();
  });

  it('closes with 4001 on an unknown token, or a token of another meeting', async () => {
    const m = await newMeeting();
    const other = await newMeeting();
    const socket = await connect(ws, m.meetingId);
    socket.send({ type: 'join_meeting', joinToken: 'x'.repeat(43) });
    expect((await socket.next('error')).code).toBe('invalid_token');
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);

    const join = await postJoin(t, other.meetingId, { name: 'Otto' });
    const wrongRoom = await connect(ws, m.meetingId);
    wrongRoom.send({ type: 'join_meeting', joinToken: join.joinToken });
    expect((await wrongRoom.closed).code).toBe(WS_CLOSE.unauthorized);
  });

  it('closes with 4008 when join_meeting does not come in time', async () => {
    const saved = t.app.realtime.settings.joinTimeoutMs;
    t.app.realtime.settings.joinTimeoutMs = 200;
    try {
      const socket = await connect(ws, (await newMeeting()).meetingId);
      expect((await socket.closed).code).toBe(WS_CLOSE.joinTimeout);
    } finally {
      t.app.realtime.settings.joinTimeoutMs = saved;
    }
  });

  it('answers a second join_meeting with already_joined', async () => {
    const m = await newMeeting();
    const { socket, join } = await enter(t, ws, m.meetingId, { name: 'Twice' });
    socket.send({ type: 'join_meeting', requestId: 'again', joinToken: join.joinToken });
    expect(await socket.next('error')).toMatchObject({ code: 'already_joined', requestId: 'again' });
    socket.close();
  });

  it('gives the newcomer the roster and tells the others', async () => {
    const m = await newMeeting({ title: 'Standup' });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann', isMuted: true, isVideoOn: false });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    expect(b.joined).toMatchObject({
      self: { id: b.join.id, name: 'Bob', isHost: false, isConnected: true },
      meeting: { meetingId: m.meetingId, title: 'Standup' },
      resumed: false,
      chatHistory: [],
    });
    expect(b.joined?.participants).toEqual([
      expect.objectContaining({ id: a.join.id, name: 'Ann', isMuted: true, isVideoOn: false }),
    ]);
    const seen = await a.socket.next('participant_joined');
    expect(seen.participant).toMatchObject({ id: b.join.id, name: 'Bob' });
    b.socket.send({ type: 'request_existing_connections', requestId: 'rec' });
    const existing = await b.socket.next('existing_connections');
    expect(existing.requestId).toBe('rec');
    expect(existing.participants.map((p) => p.id)).toEqual([a.join.id]);
    a.socket.close();
    b.socket.close();
  });
});

describe('signaling relay', () => {
  it('relays offer, answer and candidates only to the target, with the sender set by the server', async () => {
    const m = await newMeeting();
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    const c = await enter(t, ws, m.meetingId, { name: 'Cid' });
    a.socket.send({
      type: 'offer',
      targetParticipant: b.join.id,
      offer: { type: 'offer', sdp: 'v=0 offer' },
      fromParticipant: c.join.id,
    });
    const got = await b.socket.next('offer');
    expect(got).toEqual({
      type: 'offer',
      fromParticipant: a.join.id,
      offer: { type: 'offer', sdp: 'v=0 offer' },
    });
    b.socket.send({
      type: 'answer',
      targetParticipant: a.join.id,
      answer: { type: 'answer', sdp: 'v=0 answer' },
    });
    expect((await a.socket.next('answer')).fromParticipant).toBe(b.join.id);
    const candidate = {
      candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };
    a.socket.send({ type: 'ice-candidate', targetParticipant: b.join.id, candidate });
    expect(await b.socket.next('ice-candidate')).toEqual({
      type: 'ice-candidate',
      fromParticipant: a.join.id,
      candidate,
    });
    expect(await c.socket.none('offer')).toEqual([]);
    expect(await c.socket.none('answer', 0)).toEqual([]);
    expect(await c.socket.none('ice-candidate', 0)).toEqual([]);
    for (const p of [a, b, c]) p.socket.close();
  });

  it('answers an unknown target, or the sender itself, or someone in another meeting with not_found', async () => {
    const m = await newMeeting();
    const elsewhere = await enter(t, ws, (await newMeeting()).meetingId, { name: 'Far' });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    for (const target of ['nobody', a.join.id, elsewhere.join.id]) {
      a.socket.send({ type: 'offer', targetParticipant: target, offer: { type: 'offer', sdp: 'v=0' } });
      expect((await a.socket.next('error')).code).toBe('not_found');
    }
    expect(await elsewhere.socket.none('offer')).toEqual([]);
    a.socket.close();
    elsewhere.socket.close();
  });
});
