import { FREE_TIER } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_REQUIRED_MESSAGE } from '../src/modules/subscriptions/access.js';
import { createTestApp, makePro, signIn, type TestContext } from './app.js';
import { createMeeting } from './meetings.js';
import { enter, listen, type TestSocket } from './ws-client.js';

/**
 * Issue 37 item 4: the landing page's Try Free says what is free and what Pro adds. This is the
 * server backing those words: a free account cannot host (403 `requiresSubscription`, which the
 * page turns into the way to Pro, not an error), but joins anyone's meeting by its link with a
 * name, for 45 minutes a meeting, and without a limit where a Pro host covers it.
 */
const MINUTE_MS = 100;
let t: TestContext;
let ws: string;
let free: { userId: string; cookie: string };
let hostId: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ FREE_TIER_MINUTE_MS: String(MINUTE_MS) });
  ({ ws } = await listen(t));
  free = await signIn(t, { email: 'free-path@example.com', firstName: 'Fran' });
  ({ userId: hostId } = await signIn(t, { email: 'free-path-host@example.com', firstName: 'Hal' }));
  await makePro(t, hostId);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const createInstant = (
  cookie?: string,
  payload: unknown = { meetingType: 'instant', title: "Fran's Meeting" },
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: cookie ? { cookie } : {},
    payload: payload as Record<string, unknown>,
  });

describe('the free path, as the landing page describes it', () => {
  it('hosting is part of Pro: a free account gets 403 requiresSubscription, a visitor 401', async () => {
    const res = await createInstant(free.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ requiresSubscription: true, message: SUBSCRIPTION_REQUIRED_MESSAGE });
    expect((await createInstant()).statusCode).toBe(401);
  });

  it("joining is free: the same account joins a meeting's link by name for 45 minutes", async () => {
    const m = await createMeeting(t, { hostId, coversGuests: false });
    const fran = await enter(t, ws, m.meetingId, { name: 'Fran', cookie: free.cookie });
    sockets.push(fran.socket);
    expect((await fran.socket.next('free_time')).freeTime).toMatchObject({
      mode: 'free',
      freeMs: FREE_TIER.freeMinutesPerMeeting * MINUTE_MS,
      overageMinutes: 0,
    });
  });

  it("and without a limit in a Pro host's meeting, which covers its guests", async () => {
    const m = await createMeeting(t, { hostId });
    const fran = await enter(t, ws, m.meetingId, { name: 'Fran', cookie: free.cookie });
    sockets.push(fran.socket);
    expect((await fran.socket.next('free_time')).freeTime).toMatchObject({
      mode: 'unlimited',
      reason: 'covered',
    });
  });

  it('a Pro account hosts; a bad body is a clear 400, never a 500', async () => {
    const pro = await signIn(t, { email: 'free-path-pro@example.com', firstName: 'Pat' });
    await makePro(t, pro.userId);
    const ok = await createInstant(pro.cookie);
    expect([200, 201]).toContain(ok.statusCode);
    const bad = await createInstant(pro.cookie, { meetingType: 'party', title: 42 });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().message).toBe('string');
  });
});
