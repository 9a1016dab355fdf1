import { WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_MESSAGES } from '../../src/modules/rooms/errors.js';
import { WAITING_ROOM_LIMIT } from '../../src/modules/rooms/members.js';
import { KNOCK_TIMEOUT_MS } from '../../src/modules/rooms/presence.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { connect, enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, item 4: waiting guests counted against capacity and never expired, and the
 * host counted too: five anonymous knocks on a 5-seat meeting locked out the host and an invitee
 * (409 'Meeting is full', still 15 s later). Now hosts take no seat, knocks take none either (the
 * waiting room has its own limit), and knocks expire.
 */
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ws = (await listen(t)).ws;
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
});
afterEach(() => {
  t.app.rooms.timings.knockTimeoutMs = KNOCK_TIMEOUT_MS;
  t.app.rooms.timings.joinTimeoutMs = WS_LIMITS.joinTimeoutMs;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

let address = 0;
/** POST /join from an address of its own (the attacker's knocks come from many). */
const knock = (meetingId: string, name = 'Anon', cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    remoteAddress: `198.51.100.${(address++ % 250) + 1}`,
    headers: cookie ? { cookie } : {},
    payload: { name, isHost: !!cookie, isMuted: true, isVideoOn: true, sessionId: `s-${Math.random()}` },
  });

describe('five anonymous knocks on a 5-seat meeting', () => {
  it('lock out neither the host nor an invitee, who is admitted', async () => {
    const m = await createMeeting(t, { hostId: host.userId, maxParticipants: 5, waitingRoom: true });
    for (let i = 0; i < 5; i++) expect((await knock(m.meetingId, `Anon ${i}`)).statusCode).toBe(200);

    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    sockets.push(h.socket);
    expect(h.joined?.self.isHost).toBe(true);
    const invitee = await enter(t, ws, m.meetingId, { name: 'Ivy' });
    sockets.push(invitee.socket);
    expect(invitee.join.admission).toBe('waiting');
    h.socket.send({ type: 'admit_participant', targetParticipantId: invitee.join.id });
    expect((await invitee.socket.next('joined')).self.name).toBe('Ivy');
  });

  it('on a meeting without a waiting room, five guests take the seats and the host still gets in', async () => {
    const m = await createMeeting(t, { hostId: host.userId, maxParticipants: 5 });
    for (let i = 0; i < 5; i++) expect((await knock(m.meetingId, `Anon ${i}`)).statusCode).toBe(200);
    const sixth = await knock(m.meetingId, 'Late');
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toEqual({ message: ROOM_MESSAGES.full });
    const h = await knock(m.meetingId, 'Hana', host.cookie);
    expect(h.statusCode).toBe(200);
    expect(h.json()).toMatchObject({ isHost: true, admission: 'admitted' });
  });

  it('a host cannot admit past the seats: 409 to the host, the guest keeps waiting', async () => {
    const m = await createMeeting(t, { hostId: host.userId, maxParticipants: 2, waitingRoom: true });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    sockets.push(h.socket);
    const guests = [];
    for (const name of ['Ann', 'Bob', 'Cid']) {
      const g = await enter(t, ws, m.meetingId, { name });
      sockets.push(g.socket);
      guests.push(g);
    }
    for (const g of guests.slice(0, 2)) {
      h.socket.send({ type: 'admit_participant', targetParticipantId: g.join.id });
      await g.socket.next('joined');
    }
    h.socket.send({ type: 'admit_participant', requestId: 'third', targetParticipantId: guests[2]!.join.id });
    const refused = await h.socket.next('error');
    expect(refused).toMatchObject({ requestId: 'third', message: ROOM_MESSAGES.full });
    expect(await guests[2]!.socket.none('joined', 200)).toEqual([]);
  });
});

describe('the waiting room has its own limit', () => {
  it(`takes at most ${WAITING_ROOM_LIMIT} knocks, then answers 429 with a clear message; the host gets in`, async () => {
    const m = await createMeeting(t, { hostId: host.userId, maxParticipants: 5, waitingRoom: true });
    const answers = [];
    for (let i = 0; i < WAITING_ROOM_LIMIT + 10; i++) answers.push(await knock(m.meetingId));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(WAITING_ROOM_LIMIT);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.json()).toEqual({ message: ROOM_MESSAGES.waitingRoomFull });
    expect((await knock(m.meetingId, 'Hana', host.cookie)).json()).toMatchObject({ admission: 'admitted' });
  });
});

describe('knocks expire', () => {
  it('a knock without a socket goes after the join timeout, freeing its place in the waiting room', async () => {
    t.app.rooms.timings.joinTimeoutMs = 200;
    const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
    const res = await knock(m.meetingId);
    const roomId = m.id;
    expect((await t.app.rooms.room(roomId))?.members.has(res.json<{ id: string }>().id)).toBe(true);
    await expect.poll(async () => (await t.app.rooms.room(roomId))?.members.size ?? 0).toBe(0);
  });

  it('a connected waiting guest is sent away after the knock timeout with `denied`, and the host sees it go', async () => {
    t.app.rooms.timings.knockTimeoutMs = 300;
    const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    sockets.push(h.socket);
    const guest = await enter(t, ws, m.meetingId, { name: 'Gus' });
    sockets.push(guest.socket);
    expect((await h.socket.next('waiting_room')).waiting).toHaveLength(1);
    const denied = await guest.socket.next('denied', 3000);
    expect(denied.message).toBe(ROOM_MESSAGES.knockExpired);
    expect((await guest.socket.closed).code).toBe(WS_CLOSE.deniedEntry);
    expect((await h.socket.next('waiting_room')).waiting).toEqual([]);
    // Its token no longer works.
    const again = await connect(ws, m.meetingId, { name: 'Gus' });
    again.send({ type: 'join_meeting', joinToken: guest.join.joinToken });
    expect((await again.closed).code).toBe(WS_CLOSE.unauthorized);
  });

  it('a guest admitted before its knock expires stays in', async () => {
    t.app.rooms.timings.knockTimeoutMs = 400;
    const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    const guest = await enter(t, ws, m.meetingId, { name: 'Gus' });
    sockets.push(h.socket, guest.socket);
    h.socket.send({ type: 'admit_participant', targetParticipantId: guest.join.id });
    await guest.socket.next('joined');
    expect(await guest.socket.none('denied', 700)).toEqual([]);
    expect(guest.socket.ws.readyState).toBe(guest.socket.ws.OPEN);
  });
});
