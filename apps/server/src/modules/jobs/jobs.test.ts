import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DbHandle } from '../../db/index.js';
import type { MailMessage, Mailer } from '../../providers/mail/index.js';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createTestDb } from '../../../test/db.js';
import { DAILY_RECIPIENT_LIMIT } from '../meetings/service.js';

/** Fast retries for tests: the first after about 1-2 s, then doubled. */
const QUEUE_ENV = { JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5', MAIL_RETRIES: '2' };

/** A mail transport that records what it sends; `behaviour` decides each attempt. */
function fakeTransport(behaviour: (m: MailMessage, attempt: number) => Promise<void> = async () => {}) {
  const attempts = new Map<string, number>();
  const sent: string[] = [];
  const transport: Mailer = {
    kind: 'smtp',
    async send(message) {
      const attempt = (attempts.get(message.to.email) ?? 0) + 1;
      attempts.set(message.to.email, attempt);
      await behaviour(message, attempt);
      sent.push(message.to.email);
    },
    close() {},
  };
  return { transport, attempts, sent };
}

const people = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({ email: `${tag}${i}@example.com`, name: `Person ${i}` }));

async function scheduledMeeting(t: TestContext, cookie: string, title: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: { cookie },
    payload: {
      meetingType: 'scheduled',
      title,
      hostEmail: 'host@example.com',
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
      duration: 30,
      timezone: 'Europe/Paris',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ meetingId: string }>().meetingId;
}

describe('invitation mail through the job queue', () => {
  let t: TestContext;
  let behaviour: (m: MailMessage, attempt: number) => Promise<void> = async () => {};
  const fake = fakeTransport((m, a) => behaviour(m, a));

  beforeAll(async () => {
    t = await createTestApp(QUEUE_ENV, (app) => {
      app.mailTransport = fake.transport;
    });
  });
  afterAll(async () => t?.close());

  it('answers a request for the whole daily allowance of invitations before the mail is sent, then sends each once', async () => {
    const host = await signIn(t, { email: 'bulk@example.com', firstName: 'Bulk' });
    await makePro(t, host.userId);
    const meetingId = await scheduledMeeting(t, host.cookie, 'All hands');
    // Each send takes 40 ms: sent inside the request, the answer would take 10 s.
    behaviour = () => new Promise((r) => setTimeout(r, 40));
    const invitees = people(DAILY_RECIPIENT_LIMIT, 'bulk');
    const started = performance.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees },
    });
    const answeredMs = performance.now() - started;
    const sentAtAnswer = fake.sent.filter((e) => e.startsWith('bulk')).length;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: DAILY_RECIPIENT_LIMIT, failed: [] });
    expect(sentAtAnswer).toBeLessThan(DAILY_RECIPIENT_LIMIT);
    expect(answeredMs).toBeLessThan(DAILY_RECIPIENT_LIMIT * 40);

    await t.app.jobs.idle(60_000);
    const bulk = fake.sent.filter((e) => e.startsWith('bulk'));
    expect(bulk).toHaveLength(DAILY_RECIPIENT_LIMIT);
    expect(new Set(bulk).size).toBe(DAILY_RECIPIENT_LIMIT);
    // The allowance still counts the request: one more invitation is refused.
    const more = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees: people(1, 'over') },
    });
    expect(more.statusCode).toBe(429);
  }, 90_000);

  it('retries a send that fails twice and then succeeds, and records no failure', async () => {
    const host = await signIn(t, { email: 'flaky@example.com', firstName: 'Fay' });
    await makePro(t, host.userId);
    const meetingId = await scheduledMeeting(t, host.cookie, 'Flaky relay');
    behaviour = async (m, attempt) => {
      if (m.to.email === 'flaky@example.org' && attempt <= 2) throw new Error('421 try again later');
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees: [{ email: 'flaky@example.org', name: 'Flo' }] },
    });
    expect(res.json()).toEqual({ sent: 1, failed: [] });
    await t.app.jobs.idle(60_000);
    expect(fake.attempts.get('flaky@example.org')).toBe(3);
    expect(fake.sent.filter((e) => e === 'flaky@example.org')).toHaveLength(1);
    const meeting = await t.app.inject({
      url: `/api/meetings/${meetingId}`,
      headers: { cookie: host.cookie },
    });
    expect(meeting.json().invitationFailures).toEqual([]);
  }, 90_000);

  it('records a send that always fails after the last retry, visible to the host only', async () => {
    const host = await signIn(t, { email: 'bounce@example.com', firstName: 'Bo' });
    await makePro(t, host.userId);
    const meetingId = await scheduledMeeting(t, host.cookie, 'Bounced');
    behaviour = async (m) => {
      if (m.to.email === 'gone@example.org') throw new Error('550 mailbox unavailable');
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: {
        meetingId,
        invitees: [
          { email: 'gone@example.org', name: 'Gone' },
          { email: 'here@example.org', name: 'Here' },
        ],
      },
    });
    expect(res.json()).toEqual({ sent: 2, failed: [] });
    await t.app.jobs.idle(60_000);
    // The first attempt and MAIL_RETRIES=2 retries.
    expect(fake.attempts.get('gone@example.org')).toBe(3);
    expect(fake.sent).toContain('here@example.org');
    const meeting = await t.app.inject({
      url: `/api/meetings/${meetingId}`,
      headers: { cookie: host.cookie },
    });
    expect(meeting.statusCode).toBe(200);
    const failures = meeting.json<{ invitationFailures: { email: string; failedAt: string }[] }>()
      .invitationFailures;
    expect(failures.map((f) => f.email)).toEqual(['gone@example.org']);
    expect(Number.isNaN(Date.parse(failures[0]!.failedAt))).toBe(false);
    const stranger = await signIn(t, { email: 'stranger@example.com' });
    const other = await t.app.inject({
      url: `/api/meetings/${meetingId}`,
      headers: { cookie: stranger.cookie },
    });
    expect(other.statusCode).toBe(404);

    // Invited again once the address works, the failure goes away.
    behaviour = async () => {};
    await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees: [{ email: 'gone@example.org', name: 'Gone' }] },
    });
    await t.app.jobs.idle(60_000);
    const again = await t.app.inject({ url: `/api/meetings/${meetingId}`, headers: { cookie: host.cookie } });
    expect(again.json().invitationFailures).toEqual([]);
  }, 90_000);

  it('shows the mail waiting in /metrics as the queue depth', async () => {
    const host = await signIn(t, { email: 'depth@example.com', firstName: 'Dee' });
    await makePro(t, host.userId);
    const meetingId = await scheduledMeeting(t, host.cookie, 'Depth');
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    behaviour = () => gate;
    await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees: people(15, 'depth') },
    });
    const depth = async () => {
      const text = (await t.app.inject({ url: '/metrics' })).body;
      const line = text.split('\n').find((l) => l.startsWith('parley_job_queue_depth{queue="mail"}'));
      return Number(line?.split(' ')[1]);
    };
    // One worker runs 10 at a time: while they hang, at least 5 wait.
    const waiting = await depth();
    expect(waiting).toBeGreaterThanOrEqual(5);
    expect(waiting).toBeLessThanOrEqual(15);
    open();
    await t.app.jobs.idle(60_000);
    expect(await depth()).toBe(0);
  }, 90_000);
});

describe('jobs across a restart', () => {
  let db: DbHandle;
  const apps: App[] = [];
  const config = () =>
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'parley-jobs-')),
      WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-build'),
      ...QUEUE_ENV,
      MAIL_RETRIES: '4',
    });

  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.close();
  });

  it('keeps a waiting job in the database and sends it from the next instance', async () => {
    const down = fakeTransport(async () => {
      throw new Error('connection refused');
    });
    const first = await buildApp(config(), { db });
    apps.push(first);
    first.mailTransport = down.transport;
    await first.ready();
    await first.mailer.send({
      to: { email: 'later@example.org' },
      subject: 'Hello',
      text: 'Hi',
      html: '<p>Hi</p>',
    });
    // The first attempt fails; the retry waits in the database while the instance stops.
    for (let i = 0; i < 100 && !down.attempts.get('later@example.org'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(down.attempts.get('later@example.org')).toBe(1);
    await first.close();

    const up = fakeTransport();
    const second = await buildApp(config(), { db });
    apps.push(second);
    second.mailTransport = up.transport;
    await second.ready();
    for (let i = 0; i < 300 && up.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(up.sent).toEqual(['later@example.org']);
    expect(down.attempts.get('later@example.org')).toBe(1);
  }, 60_000);
});
