import { BILLING_MESSAGES, WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageLedger } from '../../db/schema/index.js';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, listen } from '../../../test/ws-client.js';
import { BILLING_COOKIE } from './routes.js';
import { BILLING_ERRORS } from './service.js';

/**
 * The free tier through the real app, sockets and payments sandbox, with the test configuration's
 * short minute (100 ms: the 45 free minutes last 4.5 s) and a 1.5 s grace.
 */
const MINUTE_MS = 100;
const GRACE_MS = 1500;

let t: TestContext;
let ws: string;
let hostCookie: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp({ FREE_TIER_MINUTE_MS: String(MINUTE_MS), FREE_TIER_GRACE_MS: String(GRACE_MS) });
  ({ cookie: hostCookie, userId: hostId } = await signIn(t, {
    email: 'host@example.com',
    firstName: 'Hana',
  }));
  await makePro(t, hostId);
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

const cookieOf = (setCookie: string | string[] | undefined, name: string): string => {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(all)}`);
  return found.split(';')[0]!;
};

/** Registers through the billing join form (POST /participants) and enters over the socket. */
async function guestEnters(
  meetingId: string,
  name: string,
  email: string,
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/participants`,
    headers,
    payload: { name, email, sessionId: `s-${Math.random()}` },
  });
  expect(res.statusCode).toBe(201);
  const joined = res.json<{ id: string; joinToken: string; name: string }>();
  // A guest's browser gets its browser secret when it joins: its clock and card are that browser's.
  const owner = headers.cookie ?? cookieOf(res.headers['set-cookie'], BILLING_COOKIE);
  const socket = await connect(ws, meetingId, { name });
  socket.send({ type: 'join_meeting', joinToken: joined.joinToken });
  await socket.next('joined');
  return { ...joined, socket, owner, meetingId };
}

/**
 * Saves the sandbox's 4242 card as `email` in a participant's billing step (its join token), for
 * a guest (its browser secret) or a signed-in user (its session cookie).
 */
async function saveCard(
  email: string,
  who: { owner: string; joinToken: string; meetingId: string },
): Promise<string> {
  const { owner } = who;
  const intent = await t.app.inject({
    method: 'POST',
    url: '/api/payment/setup-intent',
    headers: { cookie: owner, authorization: `Bearer ${who.joinToken}` },
    payload: { email, meetingId: who.meetingId },
  });
  expect(intent.statusCode).toBe(200);
  const { clientSecret } = intent.json<{ clientSecret: string }>();
  expect(clientSecret).toMatch(/^seti_.+_secret_/);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/payment/sandbox/confirm',
    payload: { clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' },
  });
  expect(confirmed.json()).toMatchObject({ status: 'succeeded' });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/payment/save-method',
    headers: { cookie: owner },
    payload: { email, paymentMethodId: confirmed.json().paymentMethod },
  });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual({ saved: true, card: { brand: 'visa', last4: '4242' } });
  return owner;
}

describe('the free tier in a meeting', () => {
  it('a guest without a card is removed after the grace; one who saved a card stays and is charged', async () => {
    const m = await createMeeting(t, { hostId, coversGuests: false });
    const gus = await guestEnters(m.meetingId, 'Gus', 'gus@example.com');
    const pia = await guestEnters(m.meetingId, 'Pia', 'pia@example.com');
    const first = await gus.socket.next('free_time');
    expect(first.freeTime).toMatchObject({ mode: 'free', freeMs: 45 * MINUTE_MS, minuteMs: MINUTE_MS });

    const owner = await saveCard('pia@example.com', pia);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/billing/start',
      headers: { cookie: owner, authorization: `Bearer ${pia.joinToken}` },
      payload: { meetingId: m.meetingId, participantEmail: 'PIA@example.com' },
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ started: true, freeTime: { mode: 'overage', overageMinutes: 0 } });

    // Gus: the prompt at 40, the grace at 45, then free_time_ended and 4020.
    for (;;) {
      const s = (await gus.socket.next('free_time', 6000)).freeTime;
      if (s.mode === 'grace') {
        expect(s).toMatchObject({ prompt: true, warning: true, remainingMs: 0 });
        break;
      }
    }
    const ended = await gus.socket.next('free_time_ended', GRACE_MS + 2000);
    expect(ended.message).toBe(BILLING_MESSAGES.endedBody);
    expect((await gus.socket.closed).code).toBe(WS_CLOSE.freeTimeExpired);
    // The room heard that Gus left.
    await pia.socket.next('participant_left');

    // Pia stays past the grace and is charged per started minute.
    await new Promise((r) => setTimeout(r, 3 * MINUTE_MS));
    const latest = pia.socket.received.filter((msg) => msg.type === 'free_time').at(-1);
    expect(latest).toMatchObject({ freeTime: { mode: 'overage' } });
    expect(pia.socket.received.some((msg) => msg.type === 'free_time_ended')).toBe(false);
    const usage = await t.app.inject({
      method: 'GET',
      url: '/api/billing/usage',
      headers: { cookie: owner },
    });
    const body = usage.json<{
      totalMinutes: number;
      totalCents: number;
      meetings: Array<{ meetingId: string }>;
    }>();
    expect(body.totalMinutes).toBeGreaterThanOrEqual(GRACE_MS / MINUTE_MS);
    expect(body.totalCents).toBe(body.totalMinutes * 10);
    expect(body.meetings[0]?.meetingId).toBe(m.meetingId);
    const rows = await t.db.db.select().from(usageLedger);
    const minutes = rows.map((r) => r.minute);
    expect(new Set(minutes).size).toBe(minutes.length);
    // Each minute reached the payments sandbox as an invoice item (reported by the job queue).
    await t.app.jobs.idle();
    const reported = (await t.db.db.select().from(usageLedger)).filter((r) =>
      r.providerItemId?.startsWith('ii_'),
    );
    expect(reported.length).toBeGreaterThanOrEqual(rows.length);
    pia.socket.close();

    // Gus cannot come back for more free time: his browser's clock has run out, and so has a new
    // browser's from his address (only the grace, then the call ends).
    const back = await guestEnters(m.meetingId, 'Gus', 'gus@example.com', { cookie: gus.owner });
    expect((await back.socket.next('free_time_ended', 2000)).message).toBe(BILLING_MESSAGES.endedBody);
    const again = await guestEnters(m.meetingId, 'Gus Two', 'gus2@example.com');
    expect((await again.socket.next('free_time')).freeTime).toMatchObject({ mode: 'grace', remainingMs: 0 });
    expect((await again.socket.next('free_time_ended', GRACE_MS + 2000)).message).toBe(
      BILLING_MESSAGES.endedBody,
    );
  }, 20_000);

  it('a Pro participant hears unlimited time; a Pro host who turned the cover off turns it on', async () => {
    const m = await createMeeting(t, { hostId, coversGuests: false });
    const host = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      headers: { cookie: hostCookie },
      payload: { name: 'Hana', isHost: true, sessionId: 'host-tab' },
    });
    const hostSocket = await connect(ws, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    hostSocket.send({ type: 'join_meeting', joinToken: host.json().joinToken });
    expect((await hostSocket.next('free_time')).freeTime).toMatchObject({ mode: 'unlimited', reason: 'pro' });

    const guest = await guestEnters(m.meetingId, 'Gina', 'gina@example.com');
    expect((await guest.socket.next('free_time')).freeTime.mode).toBe('free');

    const outsider = await signIn(t, { email: 'outsider@example.com' });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}/free-time-cover`,
      headers: { cookie: outsider.cookie },
      payload: { coverEveryone: true },
    });
    expect(refused.statusCode).toBe(404);
    const cover = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}/free-time-cover`,
      headers: { cookie: hostCookie },
      payload: { coverEveryone: true },
    });
    expect(cover.json()).toEqual({ coverEveryone: true });
    for (;;) {
      const s = (await guest.socket.next('free_time')).freeTime;
      if (s.mode === 'unlimited') {
        expect(s.reason).toBe('covered');
        break;
      }
    }
    // Past the free time and grace, the covered guest is still there.
    await new Promise((r) => setTimeout(r, 45 * MINUTE_MS + GRACE_MS + 300));
    expect(await guest.socket.none('free_time_ended', 10)).toEqual([]);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${m.meetingId}/free-time-cover`,
      headers: { cookie: hostCookie },
    });
    expect(read.json()).toEqual({ coverEveryone: true });
    guest.socket.close();
    hostSocket.close();
  }, 20_000);

  it('refuses card and billing calls that do not fit, with clear messages', async () => {
    const noSetup = await t.app.inject({
      method: 'POST',
      url: '/api/payment/save-method',
      payload: { email: 'x@example.com', paymentMethodId: 'pm_1' },
    });
    expect(noSetup.statusCode).toBe(409);
    expect(noSetup.json().message).toBe(BILLING_ERRORS.notSetUp);

    const m = await createMeeting(t, { hostId, coversGuests: false });
    // No billing session (not a participant of the meeting): no setup intent, no browser secret.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/payment/setup-intent',
      payload: { email: 'y@example.com', meetingId: m.meetingId },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(BILLING_ERRORS.needsSession);
    expect(anonymous.headers['set-cookie']).toBeUndefined();

    const yan = await guestEnters(m.meetingId, 'Yan', 'y@example.com');
    const intent = await t.app.inject({
      method: 'POST',
      url: '/api/payment/setup-intent',
      headers: { cookie: yan.owner, authorization: `Bearer ${yan.joinToken}` },
      payload: { email: 'y@example.com', meetingId: m.meetingId },
    });
    expect(intent.statusCode).toBe(200);
    const owner = yan.owner;
    // Not confirmed yet: a made-up payment method is refused.
    const unconfirmed = await t.app.inject({
      method: 'POST',
      url: '/api/payment/save-method',
      headers: { cookie: owner },
      payload: { email: 'y@example.com', paymentMethodId: 'pm_made_up' },
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().message).toBe(BILLING_ERRORS.notConfirmed);

    const noCard = await t.app.inject({
      method: 'POST',
      url: '/api/billing/start',
      headers: { cookie: owner, authorization: `Bearer ${yan.joinToken}` },
      payload: { meetingId: m.meetingId, participantEmail: 'y@example.com' },
    });
    expect(noCard.statusCode).toBe(402);
    expect(noCard.json().message).toBe(BILLING_ERRORS.noCard);

    const zedIn = await guestEnters(m.meetingId, 'Zed', 'zed@example.com');
    const zed = await saveCard('zed@example.com', zedIn);
    const notJoined = await t.app.inject({
      method: 'POST',
      url: '/api/billing/start',
      headers: { cookie: zed },
      payload: { meetingId: m.meetingId, participantEmail: 'zed@example.com' },
    });
    expect(notJoined.statusCode).toBe(401);

    // Someone else's card cannot be used by naming its e-mail: the card is its owner's.
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/billing/start',
      headers: { authorization: `Bearer ${yan.joinToken}` },
      payload: { meetingId: m.meetingId, participantEmail: 'zed@example.com' },
    });
    expect(stranger.statusCode).toBe(402);
    yan.socket.close();
    zedIn.socket.close();

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/payment/setup-intent',
      payload: { email: 'not-an-email', meetingId: m.meetingId },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/email/);
  });
});
