import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { mailOutbox, meetingInvitees, meetings } from '../../db/schema/index.js';
import { verifyMeetingPassword } from './password.js';

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

function scheduled(overrides: Record<string, unknown> = {}) {
  return {
    meetingType: 'scheduled',
    meetingId: '111-111-111',
    title: 'Weekly planning',
    description: 'Agenda: roadmap',
    hostEmail: 'host@example.com',
    scheduledFor: inDays(3),
    duration: 45,
    timezone: 'America/New_York',
    isRecurring: true,
    recurrencePattern: 'weekly',
    maxParticipants: 20,
    requiresPassword: true,
    password: 'open sesame',
    waitingRoom: true,
    allowRecording: false,
    isActive: true,
    status: 'scheduled',
    ...overrides,
  };
}

let t: TestContext;
let host: { cookie: string; userId: string };
let other: { cookie: string; userId: string };
let free: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://meet.example.com' });
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana', lastName: 'Host' });
  other = await signIn(t, { email: 'other@example.com', firstName: 'Otto' });
  free = await signIn(t, { email: 'free@example.com', firstName: 'Fran' });
  await makePro(t, host.userId);
  await makePro(t, other.userId);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await t.app.jobs.idle();
  await t.db.db.delete(mailOutbox);
});

async function post(url: string, cookie: string | null, payload: unknown) {
  return t.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, payload: payload as object });
}
async function create(body: Record<string, unknown> = scheduled(), cookie = host.cookie) {
  const res = await post('/api/meetings', cookie, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function outbox() {
  // Mail goes out through the job queue, after the answer.
  await t.app.jobs.idle();
  return t.db.db.select().from(mailOutbox);
}

describe('POST /api/meetings (instant)', () => {
  it('needs a signed-in user', async () => {
    const res = await post('/api/meetings', null, { meetingType: 'instant', title: 'Hi' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it('answers 403 with requiresSubscription for a user without Pro, even for a bad body', async () => {
    for (const body of [{ meetingType: 'instant' }, { nonsense: true }]) {
      const res = await post('/api/meetings', free.cookie, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ requiresSubscription: true });
      expect(res.json().message).toMatch(/Pro subscription/);
    }
  });

  it('creates a live meeting with a server-generated ddd-ddd-ddd id, ignoring the client id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const m = await create({
        meetingType: 'instant',
        meetingId: '000-000-001',
        title: "Hana's meeting",
        isActive: false,
        status: 'ended',
      });
      expect(m.meetingId).toMatch(/^\d{3}-\d{3}-\d{3}$/);
      expect(m.meetingId).not.toBe('000-000-001');
      expect(m).toMatchObject({
        title: "Hana's meeting",
        meetingType: 'instant',
        isActive: true,
        status: 'live',
      });
      ids.add(m.meetingId);
    }
    expect(ids.size).toBe(5);
  });

  it('rejects an unknown meeting type and malformed JSON with 400', async () => {
    expect((await post('/api/meetings', host.cookie, { meetingType: 'party' })).statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      headers: { cookie: host.cookie, 'content-type': 'application/json' },
      payload: '{"meetingType":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Malformed JSON in request body');
  });
});

describe('POST /api/meetings (scheduled)', () => {
  it('stores every field, hashes the password and never returns it', async () => {
    const m = await create();
    expect(m).toMatchObject({
      title: 'Weekly planning',
      description: 'Agenda: roadmap',
      hostEmail: 'host@example.com',
      hostId: host.userId,
      duration: 45,
      timezone: 'America/New_York',
      isRecurring: true,
      recurrencePattern: 'weekly',
      meetingType: 'scheduled',
      maxParticipants: 20,
      requiresPassword: true,
      waitingRoom: true,
      allowRecording: false,
      isActive: true,
      status: 'scheduled',
    });
    expect(m.meetingId).not.toBe('111-111-111');
    expect(JSON.stringify(m)).not.toContain('open sesame');
    expect(m).not.toHaveProperty('password');
    expect(m).not.toHaveProperty('passwordHash');
    const [row] = await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain('open sesame');
    await expect(verifyMeetingPassword(row!.passwordHash!, 'open sesame')).resolves.toBe(true);
    await expect(verifyMeetingPassword(row!.passwordHash!, 'open sesamE')).resolves.toBe(false);
  });

  it('applies the defaults and drops recurrence and password when their switches are off', async () => {
    const m = await create({
      meetingType: 'scheduled',
      title: 'One-off',
      hostEmail: 'host@example.com',
      scheduledFor: inDays(1),
      isRecurring: false,
      recurrencePattern: 'daily',
      requiresPassword: false,
      password: 'ignored',
    });
    expect(m).toMatchObject({
      duration: 60,
      timezone: 'UTC',
      isRecurring: false,
      recurrencePattern: null,
      maxParticipants: 100,
      requiresPassword: false,
      waitingRoom: false,
      allowRecording: true,
    });
  });

  it.each([
    [
      'a past date',
      { scheduledFor: new Date(Date.now() - 60_000).toISOString() },
      'Please select a future date and time',
    ],
    ['no date', { scheduledFor: '' }, 'Please select when to schedule the meeting'],
    [
      'a date that is not ISO',
      { scheduledFor: 'next tuesday' },
      'Please select when to schedule the meeting',
    ],
    ['no title', { title: '   ' }, 'Please enter a meeting title'],
    ['no host email', { hostEmail: '' }, 'Please enter your email address'],
    ['a bad host email', { hostEmail: 'host@' }, 'Please enter a valid email address'],
    ['a duration not offered', { duration: 25 }, 'duration must be one of 15, 30, 45, 60, 90, 120'],
    ['an unknown timezone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['1 participant', { maxParticipants: 1 }, 'maxParticipants'],
    ['501 participants', { maxParticipants: 501 }, 'maxParticipants'],
    ['a fractional participant count', { maxParticipants: 10.5 }, 'maxParticipants'],
    [
      'recurring without a pattern',
      { recurrencePattern: null },
      'Please choose how often the meeting repeats',
    ],
    ['an unknown pattern', { recurrencePattern: 'yearly' }, 'recurrencePattern'],
    ['a password switch without a password', { password: null }, 'Please enter a password for the meeting'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
  ])('rejects %s with 400 and a clear message', async (_label, change, message) => {
    const res = await post('/api/meetings', host.cookie, scheduled(change));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('accepts the participant range limits 2 and 500', async () => {
    expect((await create(scheduled({ maxParticipants: 2 }))).maxParticipants).toBe(2);
    expect((await create(scheduled({ maxParticipants: 500 }))).maxParticipants).toBe(500);
  });
});

describe('GET /api/meetings/scheduled', () => {
  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/meetings/scheduled' })).statusCode).toBe(401);
  });

  it("lists only the caller's meetings", async () => {
    const mine = await create(scheduled({ title: 'Mine only' }));
    const theirs = await create(scheduled({ title: 'Theirs only' }), other.cookie);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/meetings/scheduled',
      headers: { cookie: host.cookie },
    });
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((m: { meetingId: string }) => m.meetingId);
    expect(ids).toContain(mine.meetingId);
    expect(ids).not.toContain(theirs.meetingId);
    for (const m of res.json()) expect(m.hostId).toBe(host.userId);
    const freeList = await t.app.inject({
      method: 'GET',
      url: '/api/meetings/scheduled',
      headers: { cookie: free.cookie },
    });
    expect(freeList.json()).toEqual([]);
  });

  it('gives a recurring meeting whose first date passed its next occurrence, keeping the local time', async () => {
    const m = await create(scheduled({ title: 'Recurring in the past' }));
    // Move the first occurrence 10 weeks back (09:30 in New York).
    const first = new Date(Date.now() - 70 * DAY);
    first.setUTCHours(14, 30, 0, 0);
    await t.db.db.update(meetings).set({ scheduledFor: first }).where(eq(meetings.meetingId, m.meetingId));
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/meetings/scheduled',
      headers: { cookie: host.cookie },
    });
    const found = list.json().find((x: { meetingId: string }) => x.meetingId === m.meetingId);
    const next = new Date(found.nextOccurrence);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * DAY);
    expect(next.getUTCDay()).toBe(first.getUTCDay());
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(local.format(next)).toBe(local.format(first));
    expect(found.scheduledFor).toBe(first.toISOString());
  });
});

describe('GET /api/meetings/:meetingId', () => {
  it('gives the host the meeting with its invitees', async () => {
    const m = await create();
    await post('/api/meetings/invitations', host.cookie, {
      meetingId: m.meetingId,
      invitees: [{ email: 'ann@example.com', name: 'Ann' }],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      meetingId: m.meetingId,
      invitees: [{ email: 'ann@example.com', name: 'Ann' }],
    });
    expect(res.body).not.toContain('scrypt');
  });

  it("answers someone else's meeting exactly like an unknown one (404), and 400 for a bad id", async () => {
    const m = await create();
    const get = (id: string, cookie: string) =>
      t.app.inject({ method: 'GET', url: `/api/meetings/${id}`, headers: { cookie } });
    const theirs = await get(m.meetingId, other.cookie);
    const unknown = await get('999-999-998', host.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'Meeting not found' });
    expect(unknown.json()).toEqual(theirs.json());
    const bad = await get('12345', host.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Meeting ID must look like 000-000-000');
  });
});

describe('PUT /api/meetings/:meetingId', () => {
  it('saves the edit, raises the sequence, keeps the password and mails the invitees', async () => {
    const m = await create();
    await post('/api/meetings/invitations', host.cookie, {
      meetingId: m.meetingId,
      invitees: [
        { email: 'ann@example.com', name: 'Ann' },
        { email: 'bob@example.com', name: 'Bob' },
      ],
    });
    await t.app.jobs.idle();
    await t.db.db.delete(mailOutbox);
    const [before] = await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId));

    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
      payload: scheduled({
        title: 'Weekly planning (moved)',
        scheduledFor: inDays(4),
        password: undefined,
        recurrencePattern: 'daily',
        invitees: [
          { email: 'ann@example.com', name: 'Ann' },
          { email: 'cy@example.com', name: 'Cy' },
        ],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Weekly planning (moved)',
      recurrencePattern: 'daily',
      requiresPassword: true,
      invitations: { sent: 3, failed: [] },
    });
    const [after] = await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId));
    expect(after!.icsSequence).toBe(before!.icsSequence + 1);
    expect(after!.passwordHash).toBe(before!.passwordHash);

    const mails = await outbox();
    const byTo = new Map(mails.map((x) => [x.to, x]));
    expect(byTo.get('ann@example.com')!.subject).toBe('Updated invitation: Weekly planning (moved)');
    expect(byTo.get('cy@example.com')!.subject).toBe('Invitation: Weekly planning (moved)');
    expect(byTo.get('bob@example.com')!.subject).toBe('Cancelled: Weekly planning (moved)');
    expect(byTo.get('ann@example.com')!.raw).toContain(`SEQUENCE:${after!.icsSequence}`);
    expect(byTo.get('bob@example.com')!.raw).toContain('METHOD:CANCEL');
    const invitees = await t.db.db
      .select()
      .from(meetingInvitees)
      .where(eq(meetingInvitees.meetingId, after!.id));
    expect(invitees.map((i) => i.email).sort()).toEqual(['ann@example.com', 'cy@example.com']);
  });

  it('rejects moving the meeting into the past but allows other edits of a meeting already under way', async () => {
    const m = await create(scheduled({ isRecurring: false }));
    const past = new Date(Date.now() - DAY).toISOString();
    const put = (body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/meetings/${m.meetingId}`,
        headers: { cookie: host.cookie },
        payload: body as object,
      });
    const moved = await put(scheduled({ scheduledFor: past, isRecurring: false }));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe('Please select a future date and time');
    await t.db.db
      .update(meetings)
      .set({ scheduledFor: new Date(past) })
      .where(eq(meetings.meetingId, m.meetingId));
    const retitled = await put(scheduled({ scheduledFor: past, isRecurring: false, title: 'Renamed' }));
    expect(retitled.statusCode).toBe(200);
    expect(retitled.json().title).toBe('Renamed');
  });

  it('answers 404 to someone else (as for unknown), 403 without Pro and 400 for bad ids or bodies', async () => {
    const m = await create();
    const put = (id: string, cookie: string, body: unknown = scheduled()) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/meetings/${id}`,
        headers: { cookie },
        payload: body as object,
      });
    const theirs = await put(m.meetingId, other.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'Meeting not found' });
    const notPro = await put(m.meetingId, free.cookie);
    expect(notPro.statusCode).toBe(403);
    expect(notPro.json().requiresSubscription).toBe(true);
    expect((await put('999-999-997', host.cookie)).statusCode).toBe(404);
    expect((await put('abc', host.cookie)).statusCode).toBe(400);
    expect((await put(m.meetingId, host.cookie, scheduled({ maxParticipants: 0 }))).statusCode).toBe(400);
    const [row] = await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId));
    expect(row!.title).toBe('Weekly planning');
    expect(row!.icsSequence).toBe(0);
  });

  it('refuses to edit an instant meeting', async () => {
    const m = await create({ meetingType: 'instant', title: 'Now' });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
      payload: scheduled(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Only scheduled meetings can be edited');
  });
});

describe('DELETE /api/meetings/:meetingId', () => {
  it('deletes the host’s meeting and mails each invitee a cancellation', async () => {
    const m = await create();
    await post('/api/meetings/invitations', host.cookie, {
      meetingId: m.meetingId,
      invitees: [{ email: 'ann@example.com', name: 'Ann' }],
    });
    await t.app.jobs.idle();
    await t.db.db.delete(mailOutbox);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Meeting deleted', invitations: { sent: 1 } });
    expect(await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId))).toEqual([]);
    const [mail] = await outbox();
    expect(mail!.to).toBe('ann@example.com');
    expect(mail!.subject).toBe('Cancelled: Weekly planning');
    expect(mail!.raw).toContain('METHOD:CANCEL');
    expect(mail!.raw).toContain('STATUS:CANCELLED');
    expect(mail!.raw).toContain('SEQUENCE:1');
  });

  it("answers 404 for someone else's meeting (and keeps it) as for unknown, 400 bad id, 401 anonymous", async () => {
    const m = await create();
    const del = (id: string, cookie?: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/meetings/${id}`, headers: cookie ? { cookie } : {} });
    expect((await del(m.meetingId, other.cookie)).json()).toEqual({ message: 'Meeting not found' });
    expect((await del(m.meetingId)).statusCode).toBe(401);
    expect(await t.db.db.select().from(meetings).where(eq(meetings.meetingId, m.meetingId))).toHaveLength(1);
    expect((await del('999-999-996', host.cookie)).statusCode).toBe(404);
    expect((await del('1-2-3', host.cookie)).statusCode).toBe(400);
  });
});

describe('POST /api/meetings/invitations', () => {
  it('mails each invitee the title, the time in the meeting timezone, the join link and an .ics', async () => {
    const m = await create(scheduled({ scheduledFor: '2030-01-07T14:00:00.000Z' }));
    const res = await post('/api/meetings/invitations', host.cookie, {
      meetingId: m.meetingId,
      invitees: [
        { email: ' Ann@Example.com ', name: 'Ann' },
        { email: 'bob@example.com', name: '' },
        { email: 'ann@example.com', name: 'Ann A.' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: 2, failed: [] });
    const mails = await outbox();
    expect(mails.map((x) => x.to).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    const ann = mails.find((x) => x.to === 'ann@example.com')!;
    expect(ann.subject).toBe('Invitation: Weekly planning');
    const raw = ann.raw.replace(/=\r\n/g, '');
    expect(raw).toContain('https://meet.example.com/meeting/' + m.meetingId);
    expect(raw).toContain('Monday, January 7, 2030 at 9:00');
    expect(raw).toContain('America/New_York');
    expect(raw).toContain('METHOD:REQUEST');
    expect(raw).toContain('DTSTART;TZID=America/New_York:20300107T090000');
    expect(raw).toContain('RRULE:FREQ=WEEKLY');
    expect(raw).toContain('BEGIN:VTIMEZONE');
    expect(raw).not.toContain('open sesame');
  });

  it('mails an instant meeting invitation with the link and no calendar part', async () => {
    const m = await create({ meetingType: 'instant', title: 'Quick call' });
    const res = await post('/api/meetings/invitations', host.cookie, {
      meetingId: m.meetingId,
      invitees: [{ email: 'ann@example.com', name: 'Ann' }],
    });
    expect(res.json()).toEqual({ sent: 1, failed: [] });
    const [mail] = await outbox();
    expect(mail!.raw).toContain(`https://meet.example.com/meeting/${m.meetingId}`);
    expect(mail!.raw).not.toContain('text/calendar');
  });

  it("answers 404 for someone else's meeting as for unknown, 403 without Pro, 400 for bad input", async () => {
    const m = await create();
    const invite = (cookie: string, body: unknown) => post('/api/meetings/invitations', cookie, body);
    const ok = [{ email: 'ann@example.com', name: 'Ann' }];
    const theirs = await invite(other.cookie, { meetingId: m.meetingId, invitees: ok });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'Meeting not found' });
    const notPro = await invite(free.cookie, { meetingId: m.meetingId, invitees: ok });
    expect(notPro.statusCode).toBe(403);
    expect(notPro.json().requiresSubscription).toBe(true);
    expect((await invite(host.cookie, { meetingId: '999-999-995', invitees: ok })).statusCode).toBe(404);
    expect((await invite(host.cookie, { meetingId: 'x', invitees: ok })).statusCode).toBe(400);
    const empty = await invite(host.cookie, { meetingId: m.meetingId, invitees: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Add at least one invitee');
    const badEmail = await invite(host.cookie, {
      meetingId: m.meetingId,
      invitees: [{ email: 'nope', name: 'N' }],
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain('Please enter a valid email address');
    expect(await outbox()).toEqual([]);
  });
});
