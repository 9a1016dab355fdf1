import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEETING_ID_ROUTE_LIMIT } from '../../src/modules/meetings/routes.js';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';

/**
 * Security review, item 2: a signed-in free user probed `GET /api/meetings/:id` 1,500 times in
 * 9 s; unknown ids answered 404 and the one real meeting 403, so it stood out. Now someone
 * else's meeting answers exactly like an unknown id, and the id routes are limited per user.
 */
let t: TestContext;
let host: { cookie: string; userId: string };
let prober: { cookie: string; userId: string };
let meetingId: string;

beforeAll(async () => {
  t = await createTestApp();
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
  prober = await signIn(t, { email: 'prober@example.com', firstName: 'Pat' });
  await makePro(t, host.userId);
  await makePro(t, prober.userId);
  meetingId = (await createMeeting(t, { hostId: host.userId, meetingType: 'scheduled' })).meetingId;
});
afterAll(async () => t?.close());

const idFor = (n: number) => {
  const d = String(n).padStart(9, '0');
  return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
};

describe('probing meeting ids as a signed-in user', () => {
  it('cannot tell the real meeting from unknown ids, and is stopped with 429 after the budget', async () => {
    // 1,000 probes (the review sent 1,500 in 9 s; before this fix the real one answered 403).
    const answers: { id: string; status: number; body: string }[] = [];
    // The real id is the 50th probe: well inside the budget, so it is answered.
    const ids = Array.from({ length: 1000 }, (_, i) => (i === 49 ? meetingId : idFor(500_000_000 + i)));
    for (const id of ids) {
      const res = await t.app.inject({ url: `/api/meetings/${id}`, headers: { cookie: prober.cookie } });
      answers.push({ id, status: res.statusCode, body: res.body });
    }

    const answered = answers.filter((a) => a.status !== 429);
    expect(answered).toHaveLength(MEETING_ID_ROUTE_LIMIT.max);
    // Every answered probe, the real meeting's included, is the same 404 with the same body.
    expect(new Set(answered.map((a) => `${a.status} ${a.body}`))).toEqual(
      new Set(['404 {"message":"Meeting not found"}']),
    );
    expect(answered.map((a) => a.id)).toContain(meetingId);
    // After the budget every further probe is refused, with a message that says to wait.
    expect(answers.slice(MEETING_ID_ROUTE_LIMIT.max).every((a) => a.status === 429)).toBe(true);
    const refused = JSON.parse(answers.at(-1)!.body) as { message: string };
    expect(refused.message).toMatch(/^Too many meeting requests\. Please wait \d+ seconds and try again\.$/);
  });

  it('shares the budget across PUT, DELETE and invitations, so switching routes does not help', async () => {
    const other = await signIn(t, { email: 'switcher@example.com', firstName: 'Sam' });
    await makePro(t, other.userId);
    const probes = [
      (id: string) => ({ method: 'GET' as const, url: `/api/meetings/${id}` }),
      (id: string) => ({ method: 'DELETE' as const, url: `/api/meetings/${id}` }),
      (id: string) => ({
        method: 'POST' as const,
        url: '/api/meetings/invitations',
        payload: { meetingId: id, invitees: [{ email: 'x@example.com', name: 'X' }] },
      }),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) {
      // The second probe is a DELETE of the real meeting.
      const id = i === 1 ? meetingId : idFor(600_000_000 + i);
      const res = await t.app.inject({ ...probes[i % 3]!(id), headers: { cookie: other.cookie } });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(MEETING_ID_ROUTE_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - MEETING_ID_ROUTE_LIMIT.max);
    // The real meeting is still there: DELETE answered 404 to a stranger and deleted nothing.
    const own = await t.app.inject({ url: `/api/meetings/${meetingId}`, headers: { cookie: host.cookie } });
    expect(own.statusCode).toBe(200);
  });

  it("does not spend the host's budget: the host still opens and edits the meeting", async () => {
    const get = await t.app.inject({ url: `/api/meetings/${meetingId}`, headers: { cookie: host.cookie } });
    expect(get.statusCode).toBe(200);
    expect(get.json().meetingId).toBe(meetingId);
  });

  it('answers a caller who is not signed in with 401, not with a budget', async () => {
    const res = await t.app.inject({ url: `/api/meetings/${meetingId}` });
    expect(res.statusCode).toBe(401);
  });
});
