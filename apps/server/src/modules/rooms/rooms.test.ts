import { eq } from 'drizzle-orm';
import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { meetings } from '../../db/schema/index.js';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting, meetingStatus } from '../../../test/meetings.js';
import { enter, listen, postJoin } from '../../../test/ws-client.js';
import { NEW_PARTICIPANTS_PER_CLIENT, PASSWORD_ATTEMPTS, UNKNOWN_MEETING_LOOKUPS } from './gate.js';
import { ROOM_MESSAGES } from './errors.js';

let t: TestContext;
let ws: string;
let hostCookie: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie: hostCookie, userId: hostId } = await signIn(t, {
    email: 'host@example.com',
    firstName: 'Hana',
  }));
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

const join = (
  meetingId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  ip = '10.0.0.1',
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    remoteAddress: ip,
    headers,
    payload: {
      name: 'Guest',
      isHost: false,
      isMuted: true,
      isVideoOn: true,
      sessionId: `s${Math.random()}`,
      ...body,
    },
  });

describe('POST /api/meetings/{id}/join', () => {
  it('answers 404 for unknown meetings and 400 for bad bodies', async () => {
    const res = await join('123-456-789', {});
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: ROOM_MESSAGES.notFound });
    expect((await join('not-a-meeting', {})).statusCode).toBe(404);
    const m = await createMeeting(t, { hostId });
    const bad = await join(m.meetingId, { name: 'A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/name/);
    expect((await join(m.meetingId, { sessionId: undefined })).statusCode).toBe(400);
  });

  it('refuses ended and cancelled meetings with 410 and a clear message', async () => {
    const ended = await createMeeting(t, { hostId, status: 'ended' });
    const cancelled = await createMeeting(t, { hostId, meetingType: 'scheduled', status: 'cancelled' });
    expect((await join(ended.meetingId, {})).json()).toEqual({ message: ROOM_MESSAGES.ended });
    const res = await join(cancelled.meetingId, {});
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: ROOM_MESSAGES.cancelled });
  });

  it('honours isHost only for the signed-in owner', async () => {
    const m = await createMeeting(t, { hostId });
    const host = await join(m.meetingId, { isHost: true }, { cookie: hostCookie });
    expect(host.statusCode).toBe(200);
    expect(host.json()).toMatchObject({ isHost: true, admission: 'admitted' });
    expect(host.json().joinToken.length).toBeGreaterThanOrEqual(32);
    expect(host.headers['set-cookie']).toMatch(/parley_room_\d{9}=.*HttpOnly/);
    const guest = await join(m.meetingId, { isHost: true });
    expect(guest.json()).toMatchObject({ isHost: false, admission: 'admitted' });
  });

  it('refuses a full meeting with 409, counting participants within grace, but lets a reload back in', async () => {
    const m = await createMeeting(t, { hostId, maxParticipants: 2 });
    const first = await join(m.meetingId, { sessionId: 'one' });
    expect((await join(m.meetingId, { sessionId: 'two' })).statusCode).toBe(200);
    const third = await join(m.meetingId, { sessionId: 'three' });
    expect(third.statusCode).toBe(409);
    expect(third.json()).toEqual({ message: ROOM_MESSAGES.full });
    // A reload presents the join token it was given (a session id alone is no proof).
    const again = await join(m.meetingId, { sessionId: 'one', resumeToken: first.json().joinToken });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
  });

  it('checks the password; wrong attempts are limited per client and meeting', async () => {
    const m = await createMeeting(t, { hostId, password: 'open sesame' });
    const missing = await join(m.meetingId, {}, {}, '10.0.0.2');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ message: ROOM_MESSAGES.passwordRequired, requiresPassword: true });
    const right = await join(m.meetingId, { password: 'open sesame' }, {}, '10.0.0.2');
    expect(right.statusCode).toBe(200);
    for (let i = 0; i < PASSWORD_ATTEMPTS.limit; i++) {
      const wrong = await join(m.meetingId, { password: `guess ${i}` }, {}, '10.0.0.2');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().message).toBe(ROOM_MESSAGES.wrongPassword);
    }
    const limited = await join(m.meetingId, { password: 'open sesame' }, {}, '10.0.0.2');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(ROOM_MESSAGES.tooManyPasswordAttempts);
    // Another client is not affected; the host needs no password.
    expect((await join(m.meetingId, { password: 'open sesame' }, {}, '10.0.0.3')).statusCode).toBe(200);
    expect((await join(m.meetingId, { isHost: true }, { cookie: hostCookie })).statusCode).toBe(200);
  });

  it('evaluates no more concurrent wrong passwords than the limit', async () => {
    const m = await createMeeting(t, { hostId, password: 'open sesame' });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => join(m.meetingId, { password: `guess ${i}` }, {}, '10.0.1.1')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 403)).toHaveLength(PASSWORD_ATTEMPTS.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(25 - PASSWORD_ATTEMPTS.limit);
    // A right password does not use up the budget.
    for (let i = 0; i < PASSWORD_ATTEMPTS.limit + 2; i++) {
      expect((await join(m.meetingId, { password: 'open sesame' }, {}, '10.0.1.2')).statusCode).toBe(200);
    }
  });

  it('answers no more concurrent unknown ids than the lookup budget', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => join(`999-000-${String(i).padStart(3, '0')}`, {}, {}, '10.0.1.3')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 404)).toHaveLength(UNKNOWN_MEETING_LOOKUPS.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - UNKNOWN_MEETING_LOOKUPS.limit);
  });

  it('limits new participants per client and meeting, so one client cannot fill a meeting', async () => {
    const m = await createMeeting(t, { hostId, maxParticipants: 500 });
    const limit = NEW_PARTICIPANTS_PER_CLIENT.limit;
    const answers = await Promise.all(
      Array.from({ length: limit + 5 }, () => join(m.meetingId, {}, {}, '10.0.1.4')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(limit);
    const refused = answers.find((r) => r.statusCode === 429);
    expect(refused?.json()).toEqual({ message: ROOM_MESSAGES.tooManyNewFromClient });
    expect((await join(m.meetingId, {}, {}, '10.0.1.5')).statusCode).toBe(200);
    const other = await createMeeting(t, { hostId });
    expect((await join(other.meetingId, {}, {}, '10.0.1.4')).statusCode).toBe(200);
  });

  it('frees the place of a join whose socket never connects after the join timeout, not the resume grace', async () => {
    const timings = t.app.rooms.timings;
    timings.joinTimeoutMs = 300;
    try {
      const m = await createMeeting(t, { hostId, maxParticipants: 2 });
      // Ann connected, then her socket dropped: she keeps her place for the resume grace (45 s).
      const ann = await enter(t, ws, m.meetingId, { name: 'Ann' });
      ann.socket.close();
      await ann.socket.closed;
      expect((await join(m.meetingId, { sessionId: 'ghost' }, {}, '10.0.1.6')).statusCode).toBe(200);
      expect((await join(m.meetingId, { sessionId: 'late' }, {}, '10.0.1.7')).statusCode).toBe(409);
      // The ghost never opened a socket: its place is free again after the join timeout.
      await new Promise((r) => setTimeout(r, 500));
      expect((await join(m.meetingId, { sessionId: 'late' }, {}, '10.0.1.7')).statusCode).toBe(200);
      expect((await join(m.meetingId, { sessionId: 'later' }, {}, '10.0.1.8')).statusCode).toBe(409);
    } finally {
      timings.joinTimeoutMs = WS_LIMITS.joinTimeoutMs;
    }
  });
});

describe('waiting room', () => {
  it('holds guests until the host admits or denies them', async () => {
    const m = await createMeeting(t, { hostId, waitingRoom: true });
    const host = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    const ann = await enter(t, ws, m.meetingId, { name: 'Ann' });
    expect(ann.join.admission).toBe('waiting');
    const list = await host.socket.next('waiting_room');
    expect(list.waiting).toEqual([{ id: ann.join.id, name: 'Ann' }]);
    // A waiting guest is not in the room: room messages are refused.
    ann.socket.send({ type: 'chat_message', content: 'let me in' });
    expect((await ann.socket.next('error')).code).toBe('not_joined');

    host.socket.send({ type: 'admit_participant', requestId: 'ok', targetParticipantId: ann.join.id });
    await ann.socket.next('admitted');
    const joined = await ann.socket.next('joined');
    expect(joined.participants.map((p) => p.id)).toEqual([host.join.id]);
    expect((await host.socket.next('participant_joined')).participant.id).toBe(ann.join.id);

    const bob = await enter(t, ws, m.meetingId, { name: 'Bob' });
    await host.socket.next('waiting_room');
    host.socket.send({ type: 'deny_participant', targetParticipantId: bob.join.id });
    expect((await bob.socket.next('denied')).message).toBeTruthy();
    expect((await bob.socket.closed).code).toBe(WS_CLOSE.deniedEntry);
    expect(await ann.socket.none('participant_joined')).toEqual([]);
    host.socket.send({ type: 'admit_participant', requestId: 'gone', targetParticipantId: bob.join.id });
    expect(await host.socket.next('error')).toMatchObject({ code: 'not_found', requestId: 'gone' });
    host.socket.close();
    ann.socket.close();
  });
});

describe('participants and meeting status', () => {
  it('registers with name and email, and lists the room to its participants only', async () => {
    const m = await createMeeting(t, { hostId });
    const reg = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/participants`,
      payload: { name: 'Reg', email: 'reg@example.com' },
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({ id: expect.any(String), name: 'Reg', isHost: false });
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/participants`,
      payload: { name: 'Reg', email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);

    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const list = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/meetings/${m.meetingId}/participants`, headers });
    expect((await list({})).statusCode).toBe(401);
    const asParticipant = await list({ authorization: `Bearer ${a.join.joinToken}` });
    expect(asParticipant.statusCode).toBe(200);
    expect(asParticipant.json()).toEqual([
      expect.objectContaining({ id: a.join.id, name: 'Ann', isConnected: true }),
    ]);
    expect((await list({ cookie: hostCookie })).json()).toHaveLength(1);
    const other = await createMeeting(t, { hostId });
    const stranger = await enter(t, ws, other.meetingId, { name: 'Stranger' });
    const refused = await list({ authorization: `Bearer ${stranger.join.joinToken}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Only participants of this meeting can see its participants' });
    expect((await list({})).json()).toEqual({ message: 'Join the meeting to see its participants' });
    // A guest still in the waiting room does not see who is inside.
    const guarded = await createMeeting(t, { hostId, waitingRoom: true });
    const waiting = await postJoin(t, guarded.meetingId, { name: 'Wait' });
    expect(waiting.admission).toBe('waiting');
    const fromWaiting = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${guarded.meetingId}/participants`,
      headers: { authorization: `Bearer ${waiting.joinToken}` },
    });
    expect(fromWaiting.statusCode).toBe(403);
    a.socket.close();
    stranger.socket.close();
  });

  it('a scheduled meeting goes live at the first join; an instant one ends when the last one leaves', async () => {
    const scheduled = await createMeeting(t, { hostId, meetingType: 'scheduled' });
    const s = await enter(t, ws, scheduled.meetingId, { name: 'Sam' });
    await expect.poll(() => meetingStatus(t, scheduled.id)).toBe('live');
    s.socket.send({ type: 'leave_meeting' });
    await expect.poll(() => meetingStatus(t, scheduled.id)).toBe('scheduled');

    const instant = await createMeeting(t, { hostId });
    const a = await enter(t, ws, instant.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, instant.meetingId, { name: 'Bob' });
    a.socket.send({ type: 'leave_meeting' });
    await a.socket.closed;
    expect(await meetingStatus(t, instant.id)).toBe('live');
    b.socket.send({ type: 'leave_meeting' });
    await expect.poll(() => meetingStatus(t, instant.id)).toBe('ended');
    expect((await join(instant.meetingId, {})).statusCode).toBe(410);
  });

  it('at start-up, finishes only live meetings whose instance stopped beating (issue 10)', async () => {
    const stale = new Date(Date.now() - 10 * 60_000);
    const crashedInstant = await createMeeting(t, { hostId, status: 'live' });
    const crashedScheduled = await createMeeting(t, { hostId, meetingType: 'scheduled', status: 'live' });
    const running = await createMeeting(t, { hostId, status: 'live' });
    const neverEntered = await createMeeting(t, { hostId, status: 'live' });
    const ended = await createMeeting(t, { hostId, status: 'ended' });
    const claim = (id: string, instance: string, at: Date) =>
      t.db.db
        .update(meetings)
        .set({ liveInstance: instance, liveHeartbeatAt: at })
        .where(eq(meetings.id, id));
    await claim(crashedInstant.id, 'crashed', stale);
    await claim(crashedScheduled.id, 'crashed', stale);
    await claim(running.id, 'another-running-instance', new Date());
    // Another server process on the same database starts (a restart, or one more instance).
    const restarted = await buildApp(t.config, { db: t.db });
    try {
      await restarted.ready();
      expect(await meetingStatus(t, crashedInstant.id)).toBe('ended');
      expect(await meetingStatus(t, crashedScheduled.id)).toBe('scheduled');
      expect(await meetingStatus(t, running.id)).toBe('live');
      expect(await meetingStatus(t, neverEntered.id)).toBe('live');
      expect(await meetingStatus(t, ended.id)).toBe('ended');
    } finally {
      await restarted.close();
    }
  });
});
