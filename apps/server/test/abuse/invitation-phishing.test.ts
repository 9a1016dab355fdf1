import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import * as ical from 'node-ical';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { mailOutbox } from '../../src/db/schema/index.js';
import { DAILY_RECIPIENT_LIMIT, invitationLimitMessage } from '../../src/modules/meetings/service.js';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';

/**
 * Security review, item 5: one request mailed 500 invitations in 7 s and an edit re-mailed 501,
 * with no limit; `hostEmail` could be any address and became the calendar ORGANIZER; the title
 * and names went into the mail as they were typed, so a mail client showed them as links.
 */
let t: TestContext;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://meet.example.com' });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await t.app.jobs.idle();
  await t.db.db.delete(mailOutbox);
});

const people = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    email: `person${from + i}@example.com`,
    name: `Person ${from + i}`,
  }));

async function proUser(email: string, firstName = 'Hana', lastName: string | null = 'Host') {
  const user = await signIn(t, { email, firstName, lastName });
  await makePro(t, user.userId);
  return user;
}

function scheduled(overrides: Record<string, unknown> = {}) {
  return {
    meetingType: 'scheduled',
    title: 'Weekly planning',
    description: 'Agenda: roadmap',
    hostEmail: 'host@example.com',
    scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    duration: 45,
    timezone: 'Europe/Paris',
    isRecurring: false,
    maxParticipants: 100,
    requiresPassword: false,
    waitingRoom: false,
    allowRecording: true,
    ...overrides,
  };
}

async function createScheduled(cookie: string, overrides: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: { cookie },
    payload: scheduled(overrides),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ meetingId: string; hostEmail: string }>();
}

const invite = (cookie: string, meetingId: string, invitees: { email: string; name: string }[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/meetings/invitations',
    headers: { cookie },
    payload: { meetingId, invitees },
  });

const mailCount = async () => {
  await t.app.jobs.idle(); // mail goes out through the job queue
  return (await t.db.db.select().from(mailOutbox)).length;
};

describe('the daily allowance of invitation e-mails', () => {
  it('lets a host invite 20 people, and edit the meeting once (20 updates)', async () => {
    const host = await proUser('twenty@example.com');
    const m = await createScheduled(host.cookie);
    const res = await invite(host.cookie, m.meetingId, people(20));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: 20, failed: [] });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
      payload: scheduled({ title: 'Weekly planning (moved)' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().invitations).toEqual({ sent: 20, failed: [] });
    expect(await mailCount()).toBe(40);
  });

  it('refuses 500 invitations in one request with 429, mailing and saving nothing', async () => {
    const host = await proUser('bulk@example.com');
    const m = await createScheduled(host.cookie, { maxParticipants: 500 });
    const res = await invite(host.cookie, m.meetingId, people(500));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: invitationLimitMessage(DAILY_RECIPIENT_LIMIT) });
    expect(await mailCount()).toBe(0);
    const saved = await t.app.inject({
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: host.cookie },
    });
    expect(saved.json().invitees).toEqual([]);
  });

  it('counts across requests and meetings: batches stop at the daily limit', async () => {
    const host = await proUser('batches@example.com');
    let sent = 0;
    let refused = 0;
    for (let batch = 0; batch < 6; batch++) {
      const m = await createScheduled(host.cookie);
      const res = await invite(host.cookie, m.meetingId, people(100, batch * 100));
      if (res.statusCode === 200) sent += (res.json() as { sent: number }).sent;
      else {
        expect(res.statusCode).toBe(429);
        refused++;
      }
    }
    expect(sent).toBe(Math.floor(DAILY_RECIPIENT_LIMIT / 100) * 100);
    expect(refused).toBe(6 - Math.floor(DAILY_RECIPIENT_LIMIT / 100));
    expect(await mailCount()).toBe(sent);
  });

  it('counts the e-mails an edit sends, and is not reset by a restart', async () => {
    const host = await proUser('editor@example.com');
    const m = await createScheduled(host.cookie);
    expect((await invite(host.cookie, m.meetingId, people(50))).statusCode).toBe(200);
    const edit = (title: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/meetings/${m.meetingId}`,
        headers: { cookie: host.cookie },
        payload: scheduled({ title }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await edit(`Edit ${i}`)).statusCode);
    // 50 invitations + 4 edits of 50 updates reach 250; the fifth edit would mail 50 more.
    const allowedEdits = Math.floor((DAILY_RECIPIENT_LIMIT - 50) / 50);
    expect(statuses).toEqual([...Array(allowedEdits).fill(200), ...Array(6 - allowedEdits).fill(429)]);
    await t.app.jobs.idle();
    const [refusedTitle] = await t.db.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Updated invitation: Edit 5'));
    expect(refusedTitle).toBeUndefined();

    // A second server on the same database (a restart, another instance) keeps counting.
    const restarted = await buildApp(t.config, { db: t.db });
    await restarted.ready();
    try {
      const res = await restarted.inject({
        method: 'POST',
        url: '/api/meetings/invitations',
        headers: { cookie: host.cookie },
        payload: { meetingId: m.meetingId, invitees: people(1, 900) },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await restarted.close();
    }
  });
});

describe('what the invitation says', () => {
  const phishingTitle = 'Payroll update: confirm at www.payroll-check.com/login or https://bit.ly/pay';

  it('names the signed-in account as organizer and sender, whatever hostEmail says', async () => {
    const host = await proUser('real.host@example.com', 'Rita', 'Real');
    const m = await createScheduled(host.cookie, { hostEmail: 'ceo@bank.example' });
    expect(m.hostEmail).toBe('real.host@example.com');
    expect((await invite(host.cookie, m.meetingId, people(1))).statusCode).toBe(200);
    await t.app.jobs.idle();
    const [mail] = await t.db.db.select().from(mailOutbox);
    const parsed = await simpleParser(mail!.raw);
    const calendar = parsed.attachments
      .find((a) => a.contentType === 'text/calendar')!
      .content.toString('utf8');
    const event = Object.values(ical.sync.parseICS(calendar)).find(
      (e) => e?.type === 'VEVENT',
    ) as ical.VEvent;
    const organizer = event.organizer as unknown as { val: string; params: { CN: string } };
    expect(organizer.val.toLowerCase()).toBe('mailto:real.host@example.com');
    expect(mail!.raw).not.toContain('ceo@bank.example');
    expect(parsed.text).toContain('Rita Real invited you');
  });

  it('keeps links in the title and names from becoming links in any part of the mail', async () => {
    const host = await proUser('linker@example.com', 'Support', 'at paypal.com');
    const m = await createScheduled(host.cookie, { title: phishingTitle });
    const res = await invite(host.cookie, m.meetingId, [
      { email: 'victim@example.com', name: 'Visit secure-login.net' },
    ]);
    expect(res.statusCode).toBe(200);
    await t.app.jobs.idle();
    const [mail] = await t.db.db.select().from(mailOutbox);
    // mailparser turns the text part into HTML with linkify-it, the way mail clients link text.
    const parsed = await simpleParser(mail!.raw);
    const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((x) => x[1]);
    const joinLink = `https://meet.example.com/meeting/${m.meetingId}`;
    expect(links(parsed.textAsHtml ?? '')).toEqual([joinLink]);
    expect(links(String(parsed.html))).toEqual([joinLink]);
    // The words are all still there, readable.
    expect(parsed.text).toContain('www[.]payroll-check[.]com/login or https[:]//bit[.]ly/pay');
    expect(parsed.text).toContain('Hello Visit secure-login[.]net,');
    expect(parsed.text).toContain('Support at paypal[.]com invited you');
    expect(parsed.subject).toBe(
      'Invitation: Payroll update: confirm at www[.]payroll-check[.]com/login or https[:]//bit[.]ly/pay',
    );
    const calendar = parsed.attachments
      .find((a) => a.contentType === 'text/calendar')!
      .content.toString('utf8');
    expect(calendar).not.toMatch(/payroll-check\.com|bit\.ly|paypal\.com|secure-login\.net/);

    // The check itself can fail: the same auto-linker finds the links in the raw title.
    const control = await simpleParser(`Content-Type: text/plain\r\n\r\n${phishingTitle}\r\n`);
    expect(links(control.textAsHtml ?? '').length).toBe(2);
  });
});
