import { RECORDING_TEXTS } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../src/db/schema/index.js';
import { createTestApp, makePro, signIn, signInAsPro, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen, nextFreeTimeMode, type TestSocket } from '../ws-client.js';

/**
 * Security review, issue 34 item 5: Pro benefits end with Pro, against the running server.
 *
 * - "Cover everyone" stayed in force after the host's subscription lapsed: it was checked only
 *   when switched on. Now it is checked when it is used (a clock opens, and every minute).
 * - Recording is a Pro feature (spec §1) and any host could record.
 * - Any Pro participant could overwrite the host's saved summary and its attendee list.
 *
 * A minute lasts 200 ms here (FREE_TIER_MINUTE_MS).
 */
const MINUTE_MS = 200;
let t: TestContext;
let ws: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ FREE_TIER_MINUTE_MS: String(MINUTE_MS), FREE_TIER_GRACE_MS: '1000' });
  ({ ws } = await listen(t));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const proHost = (email: string) => signInAsPro(t, email);

describe('"cover everyone" after the host\'s Pro lapsed', () => {
  it('covers guests while the host has Pro, and counts their time from the minute it lapses', async () => {
    const host = await proHost('cover-host@example.com');
    const m = await createMeeting(t, { hostId: host.userId });
    const cover = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}/free-time-cover`,
      headers: { cookie: host.cookie },
      payload: { coverEveryone: true },
    });
    expect(cover.json()).toEqual({ coverEveryone: true });

    // Legitimate use: the Pro host's guest is covered, well past where free time would end.
    const guest = await enter(t, ws, m.meetingId, { name: 'Gina' });
    sockets.push(guest.socket);
    expect(await nextFreeTimeMode(guest.socket, 'unlimited')).toMatchObject({ reason: 'covered' });
    await new Promise((r) => setTimeout(r, 3 * MINUTE_MS));
    expect(await guest.socket.none('free_time_ended', 10)).toEqual([]);

    // The subscription lapses; the cover is still switched on.
    await t.db.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.userId, host.userId));
    const counted = await nextFreeTimeMode(guest.socket, 'free', 4 * MINUTE_MS);
    expect(counted.running).toBe(true);
    // The host's Settings say what is in force: off, not the stored "on" that no longer covers.
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${m.meetingId}/free-time-cover`,
      headers: { cookie: host.cookie },
    });
    expect(read.json()).toEqual({ coverEveryone: false });
    // A newcomer is counted from the start.
    const late = await enter(t, ws, m.meetingId, { name: 'Leo' });
    sockets.push(late.socket);
    expect((await late.socket.next('free_time')).freeTime.mode).toBe('free');
  });
});

describe('recording is a Pro feature', () => {
  it('a host without Pro cannot start it; a Pro host passes that check', async () => {
    const free = await signIn(t, { email: 'rec-free@example.com' });
    const m = await createMeeting(t, { hostId: free.userId });
    const h = await enter(t, ws, m.meetingId, { name: 'Fay', isHost: true, cookie: free.cookie });
    sockets.push(h.socket);
    expect((await h.socket.next('recording_state')).recording.unavailableReason).toBe(
      RECORDING_TEXTS.needsPro,
    );
    h.socket.send({ type: 'set_recording', requestId: 'r1', on: true });
    expect(await h.socket.next('error')).toMatchObject({
      requestId: 'r1',
      code: 'subscription_required',
      message: RECORDING_TEXTS.needsPro,
    });

    // The Pro host gets past Pro to the next reason (this server has no Janus to record on).
    const pro = await proHost('rec-pro@example.com');
    const pm = await createMeeting(t, { hostId: pro.userId });
    const ph = await enter(t, ws, pm.meetingId, { name: 'Pia', isHost: true, cookie: pro.cookie });
    sockets.push(ph.socket);
    ph.socket.send({ type: 'set_recording', requestId: 'r2', on: true });
    expect(await ph.socket.next('error')).toMatchObject({ requestId: 'r2', message: RECORDING_TEXTS.noSfu });
  });
});

describe("the saved summary is the host's", () => {
  it("a Pro participant gets a summary but cannot replace the host's or its attendees", async () => {
    const host = await proHost('sum-host@example.com');
    const rival = await signIn(t, { email: 'sum-rival@example.com', firstName: 'Rob' });
    await makePro(t, rival.userId);
    const m = await createMeeting(t, { hostId: host.userId });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    const r = await enter(t, ws, m.meetingId, { name: 'Rob', cookie: rival.cookie });
    sockets.push(h.socket, r.socket);
    h.socket.send({ type: 'chat_message', requestId: 'c1', content: "I'll book the venue by Friday" });
    await h.socket.next('chat_message');

    const url = `/api/meetings/${m.meetingId}/summary`;
    const saved = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: host.cookie },
      payload: { participants: ['Hana', 'Rob'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = await t.app.inject({ method: 'GET', url, headers: { cookie: host.cookie } });
    expect(before.json().attendees).toEqual(['Hana', 'Rob']);

    // The attack: the Pro participant regenerates with a made-up attendee list.
    const attack = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: rival.cookie, authorization: `Bearer ${r.join.joinToken}` },
      payload: { participants: ['Mallory', 'Nobody Else'] },
    });
    expect(attack.statusCode, attack.body).toBe(200); // generated for them, not saved
    expect(attack.json().kept).toBe(false);
    const after = await t.app.inject({ method: 'GET', url, headers: { cookie: host.cookie } });
    expect(after.json()).toEqual(before.json());

    // The host still saves and replaces it (after the cooldown, released here instead of waited).
    await t.app.ai.cooldown.release(m.id);
    const replaced = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: host.cookie },
      payload: { participants: ['Hana', 'Rob', 'Ola'] },
    });
    expect(replaced.statusCode).toBe(200);
    const now = await t.app.inject({ method: 'GET', url, headers: { cookie: host.cookie } });
    expect(now.json().attendees).toEqual(['Hana', 'Rob', 'Ola']);
  });
});
