import { WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { connect, enter, listen, postJoin, type TestSocket } from '../ws-client.js';

/**
 * Security review, item 6: presenting another guest's `sessionId` on POST /join took over that
 * participant (with its admission, past the waiting room) and disconnected the victim. Now a
 * session id is no proof: coming back as a participant needs its previous join token
 * (`resumeToken`, kept by the tab that was given it) or, for a signed-in user, its session.
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
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

async function admittedGuestInWaitingRoomMeeting() {
  const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
  const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
  const victim = await enter(t, ws, m.meetingId, { name: 'Vic', sessionId: 'victim-tab-1234' });
  sockets.push(h.socket, victim.socket);
  expect(victim.join.admission).toBe('waiting');
  await h.socket.next('waiting_room');
  h.socket.send({ type: 'admit_participant', targetParticipantId: victim.join.id });
  await victim.socket.next('joined');
  return { m, h, victim };
}

describe("presenting another guest's sessionId", () => {
  it('gives a new participant that waits like anyone else, and leaves the victim connected', async () => {
    const { m, h, victim } = await admittedGuestInWaitingRoomMeeting();
    const stolen = await postJoin(t, m.meetingId, { name: 'Mallory', sessionId: 'victim-tab-1234' });
    expect(stolen.id).not.toBe(victim.join.id);
    expect(stolen.admission).toBe('waiting');

    // The thief's socket waits; the victim's socket is not replaced and still works.
    const thief = await connect(ws, m.meetingId, { name: 'Mallory' });
    sockets.push(thief);
    thief.send({ type: 'join_meeting', joinToken: stolen.joinToken });
    await thief.next('waiting');
    thief.send({ type: 'request_existing_connections' });
    expect((await thief.next('error')).code).toBe('not_joined');
    await victim.socket.sync();
    expect(victim.socket.ws.readyState).toBe(victim.socket.ws.OPEN);
    // The victim's token still works for the victim (files, participant list).
    const list = await t.app.inject({
      url: `/api/meetings/${m.meetingId}/participants`,
      headers: { authorization: `Bearer ${victim.join.joinToken}` },
    });
    expect(list.statusCode).toBe(200);
    // The host sees the thief knocking under its own name, not the victim let in twice.
    let waiting = await h.socket.next('waiting_room');
    while (waiting.waiting.length === 0) waiting = await h.socket.next('waiting_room');
    expect(waiting.waiting).toEqual([{ id: stolen.id, name: 'Mallory' }]);
  });

  it('cannot be forced with a made-up or another meeting’s resume token', async () => {
    const { m, victim } = await admittedGuestInWaitingRoomMeeting();
    const forged = await postJoin(t, m.meetingId, {
      sessionId: 'victim-tab-1234',
      resumeToken: 'A'.repeat(43),
    });
    expect(forged.id).not.toBe(victim.join.id);
    expect(forged.admission).toBe('waiting');
    const other = await createMeeting(t, { hostId: host.userId });
    const elsewhere = await postJoin(t, other.meetingId, { name: 'Otto' });
    const crossed = await postJoin(t, m.meetingId, {
      sessionId: 'victim-tab-1234',
      resumeToken: elsewhere.joinToken,
    });
    expect(crossed.id).not.toBe(victim.join.id);
    expect(crossed.admission).toBe('waiting');
  });
});

describe('a reload of the same tab (legitimate use)', () => {
  it('comes back as the same participant with its previous join token; the old socket is replaced', async () => {
    const { m, victim } = await admittedGuestInWaitingRoomMeeting();
    const reload = await postJoin(t, m.meetingId, {
      name: 'Vic',
      sessionId: 'victim-tab-1234',
      resumeToken: victim.join.joinToken,
    });
    expect(reload.id).toBe(victim.join.id);
    // Still admitted: no second trip through the waiting room.
    expect(reload.admission).toBe('admitted');
    const again = await connect(ws, m.meetingId, { name: 'Vic' });
    sockets.push(again);
    again.send({ type: 'join_meeting', joinToken: reload.joinToken });
    expect((await again.next('joined')).self.id).toBe(victim.join.id);
    expect((await victim.socket.closed).code).toBe(WS_CLOSE.replaced);
    // The token it replaced proves nothing any more.
    const stale = await postJoin(t, m.meetingId, {
      sessionId: 'victim-tab-1234',
      resumeToken: victim.join.joinToken,
    });
    expect(stale.id).not.toBe(victim.join.id);
  });

  it('a signed-in user comes back by its session and tab, without a token', async () => {
    const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
    const sam = await signIn(t, { email: 'sam@example.com', firstName: 'Sam' });
    const first = await postJoin(t, m.meetingId, { name: 'Sam', sessionId: 'sam-tab', cookie: sam.cookie });
    const again = await postJoin(t, m.meetingId, { name: 'Sam', sessionId: 'sam-tab', cookie: sam.cookie });
    expect(again.id).toBe(first.id);
    // Someone else with Sam's tab id but not Sam's session is someone else.
    const other = await postJoin(t, m.meetingId, { name: 'Sam', sessionId: 'sam-tab' });
    expect(other.id).not.toBe(first.id);
  });
});
