import { BILLING_MESSAGES, type ServerMessageOf } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../src/db/schema/index.js';
import { createTestApp, signIn, signInAsPro, type TestContext } from './app.js';
import { createMeeting } from './meetings.js';
import { enter, listen, nextFreeTimeMode, type TestSocket } from './ws-client.js';

/**
 * Issue 37 item 3, against the running server: a Pro host's own meetings cover their guests by
 * default (the host's licence covers the meeting, as in Zoom and Meet); the host may turn it off,
 * and is then told before and when a guest's free time runs out. The cover is still checked when
 * used: with the host's Pro lapsed there is none.
 *
 * A minute lasts 100 ms here (FREE_TIER_MINUTE_MS: the 45 free minutes take 4.5 s), the grace 1 s.
 */
const MINUTE_MS = 100;
const GRACE_MS = 1000;
let t: TestContext;
let ws: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ FREE_TIER_MINUTE_MS: String(MINUTE_MS), FREE_TIER_GRACE_MS: String(GRACE_MS) });
  ({ ws } = await listen(t));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const proHost = (email: string) => signInAsPro(t, email);

const coverOf = (meetingId: string, cookie: string) =>
  t.app.inject({ method: 'GET', url: `/api/meetings/${meetingId}/free-time-cover`, headers: { cookie } });
const setCover = (meetingId: string, cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/meetings/${meetingId}/free-time-cover`,
    headers: { cookie },
    payload: payload as Record<string, unknown>,
  });

describe("a Pro host's meeting covers its guests by default", () => {
  it('a guest of a new meeting has no clock, well past 45 minutes', async () => {
    const host = await proHost('covers-host@example.com');
    const m = await createMeeting(t, { hostId: host.userId });
    expect((await coverOf(m.meetingId, host.cookie)).json()).toEqual({ coverEveryone: true });
    const guest = await enter(t, ws, m.meetingId, { name: 'Gina' });
    sockets.push(guest.socket);
    expect(await nextFreeTimeMode(guest.socket, 'unlimited')).toMatchObject({ reason: 'covered' });
    await new Promise((r) => setTimeout(r, 45 * MINUTE_MS + GRACE_MS + 300));
    expect(await guest.socket.none('free_time_ended', 10)).toEqual([]);
  }, 15_000);

  it("there is no cover once the host's Pro lapsed, even by default", async () => {
    const host = await proHost('lapsed-host@example.com');
    await t.db.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.userId, host.userId));
    const m = await createMeeting(t, { hostId: host.userId });
    const guest = await enter(t, ws, m.meetingId, { name: 'Leo' });
    sockets.push(guest.socket);
    expect((await guest.socket.next('free_time')).freeTime).toMatchObject({ mode: 'free', running: true });
  });

  it('the host may turn it off; a guest is then counted and the host is told before and when it runs out', async () => {
    const host = await proHost('uncover-host@example.com');
    const m = await createMeeting(t, { hostId: host.userId });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    sockets.push(h.socket);
    const guest = await enter(t, ws, m.meetingId, { name: 'Gus' });
    sockets.push(guest.socket);
    expect(await nextFreeTimeMode(guest.socket, 'unlimited')).toMatchObject({ reason: 'covered' });

    const off = await setCover(m.meetingId, host.cookie, { coverEveryone: false });
    expect(off.json()).toEqual({ coverEveryone: false });
    expect((await coverOf(m.meetingId, host.cookie)).json()).toEqual({ coverEveryone: false });
    const counted = await nextFreeTimeMode(guest.socket, 'free');
    expect(counted.running).toBe(true);

    // 5 minutes before the end (40 elapsed), then at the end: the host hears each once.
    const ending = await h.socket.next('guest_free_time', 45 * MINUTE_MS);
    expect(ending).toMatchObject({
      participantId: guest.join.id,
      name: 'Gus',
      stage: 'ending',
      minutesLeft: 5,
    });
    expect(ending.remainingMs).toBeLessThanOrEqual(5 * MINUTE_MS);
    expect(ending.remainingMs).toBeGreaterThan(3 * MINUTE_MS);
    const ended: ServerMessageOf<'guest_free_time'> = await h.socket.next('guest_free_time', 10 * MINUTE_MS);
    expect(ended).toMatchObject({
      participantId: guest.join.id,
      stage: 'ended',
      remainingMs: 0,
      graceMs: GRACE_MS,
    });
    expect((await guest.socket.next('free_time_ended', GRACE_MS + 1000)).message).toBe(
      BILLING_MESSAGES.endedBody,
    );
    // Only the hosts hear it, and only once per stage.
    expect(guest.socket.received.some((msg) => msg.type === 'guest_free_time')).toBe(false);
    expect(await h.socket.none('guest_free_time', 300)).toEqual([]);
  }, 15_000);

  it('answers bad cover calls with a clear 4xx', async () => {
    const host = await proHost('bad-cover@example.com');
    const m = await createMeeting(t, { hostId: host.userId });
    const notBoolean = await setCover(m.meetingId, host.cookie, { coverEveryone: 'yes' });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().message).toMatch(/coverEveryone/);
    expect((await setCover(m.meetingId, host.cookie, {})).statusCode).toBe(400);
    expect((await coverOf('not-a-meeting', host.cookie)).statusCode).toBe(404);
    const stranger = await signIn(t, { email: 'cover-stranger@example.com' });
    expect((await coverOf(m.meetingId, stranger.cookie)).statusCode).toBe(404);
    expect((await setCover(m.meetingId, stranger.cookie, { coverEveryone: false })).statusCode).toBe(404);
  });
});
