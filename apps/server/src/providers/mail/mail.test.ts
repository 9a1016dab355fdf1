import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import ical from 'node-ical';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received };
}

/**
 * The message as a mail client reads it: MIME by mailparser and the calendar by node-ical, both
 * outside our code (our own mime.ts only shows the outbox), so the answers are independent.
 */
async function calendarPart(raw: string) {
  const parsed = await simpleParser(raw);
  const part = parsed.attachments.find((a) => a.contentType === 'text/calendar');
  if (!part) throw new Error('no text/calendar part');
  const text = part.content.toString('utf8');
  const method = /^METHOD:(.+)$/m.exec(text)?.[1]?.trim();
  const events = Object.values(ical.sync.parseICS(text));
  const event = events.find((e) => e?.type === 'VEVENT') as ical.VEvent;
  return { parsed, part, method, event, text };
}

describe('invitations over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestContext;
  let cookie: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Parley <meetings@parley.test>',
      PUBLIC_URL: 'https://meet.example.com',
      // Mail goes out through the job queue: one quick retry, so a refused address is final soon.
      MAIL_RETRIES: '1',
      JOB_RETRY_DELAY_SECONDS: '1',
    });
    const host = await signIn(t, { email: 'host@example.com', firstName: 'Hana', lastName: 'Host' });
    await makePro(t, host.userId);
    cookie = host.cookie;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp?.server.close(() => resolve()));
  });

  it('delivers a working invitation, an update with a higher SEQUENCE, then a cancellation', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      headers: { cookie },
      payload: {
        meetingType: 'scheduled',
        title: 'Design review',
        description: 'Bring mockups',
        hostEmail: 'host@example.com',
        scheduledFor: '2031-03-03T14:30:00.000Z', // 09:30 in New York (EST)
        duration: 60,
        timezone: 'America/New_York',
        isRecurring: true,
        recurrencePattern: 'weekly',
        maxParticipants: 10,
        requiresPassword: false,
        waitingRoom: false,
        allowRecording: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { meetingId } = created.json();

    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie },
      payload: {
        meetingId,
        invitees: [
          { email: 'ann@example.com', name: 'Ann Lee' },
          { email: 'bob@example.com', name: 'Bob' },
        ],
      },
    });
    expect(invited.json()).toEqual({ sent: 2, failed: [] });
    await t.app.jobs.idle(); // sent by the job queue after the answer
    expect(smtp.received).toHaveLength(2);
    const toAnn = smtp.received.find((r) => r.to.includes('ann@example.com'))!;
    expect(toAnn.from).toBe('meetings@parley.test');

    const { parsed, event, method } = await calendarPart(toAnn.raw);
    expect(parsed.subject).toBe('Invitation: Design review');
    expect(method).toBe('REQUEST');
    expect(parsed.attachments.some((a) => a.filename === 'invite.ics')).toBe(true);
    const text = parsed.text ?? '';
    expect(text).toContain('Design review');
    expect(text).toContain('When: Monday, March 3, 2031 at 9:30 AM (America/New_York)');
    expect(text).toContain(`Join: https://meet.example.com/meeting/${meetingId}`);

    expect(event.summary).toBe('Design review');
    expect(event.start.toISOString()).toBe('2031-03-03T14:30:00.000Z');
    expect(event.end?.toISOString()).toBe('2031-03-03T15:30:00.000Z');
    expect(event.start.tz).toBe('America/New_York');
    expect(event.location).toBe(`https://meet.example.com/meeting/${meetingId}`);
    expect(String(event.sequence)).toBe('0');
    const uid = event.uid;
    // Weekly at 09:30 New York time, also after the switch to daylight saving time (March 9).
    const occurrences = event.rrule!.all((_d, i) => i < 3).map((d) => d.toISOString());
    expect(occurrences).toEqual([
      '2031-03-03T14:30:00.000Z',
      '2031-03-10T13:30:00.000Z',
      '2031-03-17T13:30:00.000Z',
    ]);
    const attendees = ([] as ical.Attendee[]).concat(event.attendee ?? []);
    expect(attendees.map((a) => (typeof a === 'string' ? a : a.val).toLowerCase()).sort()).toEqual([
      'mailto:ann@example.com',
      'mailto:bob@example.com',
    ]);

    smtp.received.length = 0;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${meetingId}`,
      headers: { cookie },
      payload: {
        meetingType: 'scheduled',
        title: 'Design review v2',
        hostEmail: 'host@example.com',
        scheduledFor: '2031-03-04T15:00:00.000Z',
        duration: 30,
        timezone: 'America/New_York',
        isRecurring: false,
        requiresPassword: false,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await t.app.jobs.idle(); // sent by the job queue after the answer
    expect(smtp.received).toHaveLength(2);
    const update = await calendarPart(smtp.received[0]!.raw);
    expect(update.parsed.subject).toBe('Updated invitation: Design review v2');
    expect(update.event.uid).toBe(uid);
    expect(String(update.event.sequence)).toBe('1');
    expect(update.event.rrule).toBeUndefined();
    expect(update.event.start.toISOString()).toBe('2031-03-04T15:00:00.000Z');

    smtp.received.length = 0;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/meetings/${meetingId}`,
      headers: { cookie },
    });
    expect(deleted.statusCode).toBe(200);
    await t.app.jobs.idle(); // sent by the job queue after the answer
    expect(smtp.received).toHaveLength(2);
    const cancel = await calendarPart(smtp.received[0]!.raw);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.event.uid).toBe(uid);
    expect(String(cancel.event.sequence)).toBe('2');
    expect(cancel.event.status).toBe('CANCELLED');
  });

  it('shows the host the addresses the SMTP server refused, without failing the request', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      headers: { cookie },
      payload: { meetingType: 'instant', title: 'Now' },
    });
    const { meetingId } = created.json();
    smtp.received.length = 0;
    smtp.server.onRcptTo = (address, _session, callback) =>
      address.address === 'bounce@example.com' ? callback(new Error('no such user')) : callback();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie },
      payload: {
        meetingId,
        invitees: [
          { email: 'bounce@example.com', name: '' },
          { email: 'ok@example.com', name: '' },
        ],
      },
    });
    // The request answers before anything is sent; the refusal is final after the retry, and
    // the host sees it on the meeting.
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: 2, failed: [] });
    await t.app.jobs.idle(30_000);
    expect(smtp.received.flatMap((r) => r.to)).toEqual(['ok@example.com']);
    const meeting = await t.app.inject({ url: `/api/meetings/${meetingId}`, headers: { cookie } });
    const failures = meeting.json<{ invitationFailures: { email: string }[] }>().invitationFailures;
    expect(failures.map((f) => f.email)).toEqual(['bounce@example.com']);
  }, 60_000);
});
