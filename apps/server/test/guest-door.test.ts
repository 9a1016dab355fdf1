import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_COOKIE } from '../src/modules/billing/browser-secret.js';
import { cookieOf, createTestApp, makePro, signIn, type TestContext } from './app.js';
import { createMeeting } from './meetings.js';
import { connect, listen, type TestSocket } from './ws-client.js';

/**
 * Issue 37 item 2, "one door for guests": a guest gives a name and joins (POST /join, the call
 * the room page makes for everyone); the billing e-mail is asked only where a card is saved, when
 * the free time needs one. The clock and the card belong to the browser secret the join hands
 * out, never to a typed e-mail (docs/payments.md).
 */
let t: TestContext;
let ws: string;
let hostId: string;
let hostCookie: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ userId: hostId, cookie: hostCookie } = await signIn(t, {
    email: 'door-host@example.com',
    firstName: 'Dora',
  }));
  await makePro(t, hostId);
  ({ ws } = await listen(t));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** A meeting of the Pro host that does not cover its guests, so their clocks count. */
async function uncoveredMeeting(): Promise<string> {
  const { meetingId } = await createMeeting(t, { hostId });
  const off = await t.app.inject({
    method: 'PUT',
    url: `/api/meetings/${meetingId}/free-time-cover`,
    headers: { cookie: hostCookie },
    payload: { coverEveryone: false },
  });
  expect(off.statusCode).toBe(200);
  return meetingId;
}

/** The room page's join: a name, the media choice and the tab's session id; nothing else. */
const joinByName = (meetingId: string, name: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    remoteAddress: '203.0.113.7',
    headers: cookie ? { cookie } : {},
    payload: { name, isHost: false, isMuted: true, isVideoOn: true, sessionId: `s-${Math.random()}` },
  });

describe('a guest gives a name and joins', () => {
  it('gets a browser secret and a free clock of its own without any e-mail', async () => {
    const meetingId = await uncoveredMeeting();
    const res = await joinByName(meetingId, 'Gwen');
    expect(res.statusCode).toBe(200);
    const owner = cookieOf(res.headers['set-cookie'], BILLING_COOKIE);
    expect(owner).toBeTruthy();
    const socket = await connect(ws, meetingId, { name: 'Gwen' });
    sockets.push(socket);
    socket.send({ type: 'join_meeting', joinToken: res.json().joinToken });
    await socket.next('joined');
    expect((await socket.next('free_time')).freeTime).toMatchObject({ mode: 'free', overageMinutes: 0 });

    // The e-mail is asked where a card is saved, and only there: a clear 400 without it.
    const intent = (email?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payment/setup-intent',
        remoteAddress: '203.0.113.7',
        headers: { cookie: owner!, authorization: `Bearer ${res.json().joinToken}` },
        payload: { meetingId, ...(email !== undefined ? { email } : {}) },
      });
    const without = await intent();
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toMatch(/email/i);
    const bad = await intent('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/email/i);
    const given = await intent('gwen@example.com');
    expect(given.statusCode).toBe(200);
    expect(given.json().clientSecret).toMatch(/^seti_/);
  });

  it('a signed-in person joins with only a name too, on their own account clock', async () => {
    const meetingId = await uncoveredMeeting();
    const { cookie } = await signIn(t, { email: 'sid@example.com', firstName: 'Sid', lastName: 'Free' });
    const res = await joinByName(meetingId, 'Sid Free', cookie);
    expect(res.statusCode).toBe(200);
    // No browser secret for a signed-in person: the account is who pays.
    expect(cookieOf(res.headers['set-cookie'], BILLING_COOKIE)).toBeNull();
    const socket = await connect(ws, meetingId, { name: 'Sid Free', cookie });
    sockets.push(socket);
    socket.send({ type: 'join_meeting', joinToken: res.json().joinToken });
    const joined = await socket.next('joined');
    expect(joined.self.name).toBe('Sid Free');
    expect((await socket.next('free_time')).freeTime).toMatchObject({ mode: 'free' });
  });

  it('answers a join without a usable name with a clear 400', async () => {
    const meetingId = await uncoveredMeeting();
    for (const payload of [{ sessionId: 's-1' }, { name: 'G', sessionId: 's-2' }, { name: 42 }]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/meetings/${meetingId}/join`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/name/i);
    }
  });
});
