import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MeetingReport } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen, type TestSocket } from '../../../test/ws-client.js';

/** The attendance clock: the test moves it by hand, so the timeline below is exact. */
let clock = 1_700_000_000_000;
const T0 = clock;
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({}, undefined, { now: () => clock });
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

/** Every frame the socket sent is handled and every attendance write made. */
async function settle(...sockets: TestSocket[]): Promise<void> {
  for (const s of sockets) await s.sync();
  await t.app.attendance.settled();
}
const at = (seconds: number) => {
  clock = T0 + seconds * 1000;
};
const speak = async (s: TestSocket, speaking: boolean) => {
  s.send({ type: 'speaking', speaking });
  await settle(s);
};

async function report(meetingId: string, cookie = host.cookie) {
  return t.app.inject({ method: 'GET', url: `/api/meetings/${meetingId}/report`, headers: { cookie } });
}

describe('the meeting report of a scripted meeting', () => {
  let meetingId: string;
  let body: MeetingReport;

  beforeAll(async () => {
    const m = await createMeeting(t, { hostId: host.userId, title: 'Quarterly planning' });
    meetingId = m.meetingId;
    at(0);
    const h = await enter(t, ws, meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    await settle(h.socket);
    at(5);
    const g = await enter(t, ws, meetingId, { name: 'Gus' });
    await settle(g.socket);
    // Hana speaks 10 s → 40 s (30 s); Gus 20 s → 32 s (12 s).
    at(10);
    await speak(h.socket, true);
    at(20);
    await speak(g.socket, true);
    at(32);
    await speak(g.socket, false);
    at(40);
    await speak(h.socket, false);
    // Gus says a word in the chat and shares a file.
    g.socket.send({ type: 'chat_message', requestId: 'c1', content: 'Slides are up' });
    await g.socket.next('chat_message');
    const boundary = 'xBOUNDARYx';
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${meetingId}/files`,
      headers: {
        authorization: `Bearer ${g.join.joinToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slides.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nQ3 slides\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode).toBe(201);
    // Gus speaks from 50 s and mutes at 60 s (10 s); speaking while muted counts for nothing.
    at(50);
    await speak(g.socket, true);
    at(60);
    g.socket.send({ type: 'media_state', isMuted: true, isVideoOn: true });
    await settle(g.socket);
    at(65);
    await speak(g.socket, true);
    at(70);
    await speak(g.socket, false);
    // Gus's connection drops at 80 s and comes back at 85 s: he was away, not gone.
    at(80);
    g.socket.drop();
    await h.socket.next('participant_updated');
    await t.app.attendance.settled();
    at(85);
    const back = await enter(t, ws, meetingId, { name: 'Gus', resumeToken: g.join.joinToken });
    await settle(back.socket);
    // Gus leaves at 90 s; Hana speaks 100 s → leaves at 120 s while speaking (20 s).
    at(90);
    back.socket.send({ type: 'leave_meeting' });
    await back.socket.closed;
    await settle(h.socket);
    at(100);
    await speak(h.socket, true);
    at(120);
    h.socket.send({ type: 'leave_meeting' });
    await h.socket.closed;
    await t.app.attendance.settled();
    at(600); // read later: nothing moves after everyone left
    const res = await report(meetingId);
    expect(res.statusCode).toBe(200);
    body = res.json<MeetingReport>();
  });

  it('has the duration from the first entry to the last departure', () => {
    expect(body.title).toBe('Quarterly planning');
    expect(body.startedAt).toBe(new Date(T0).toISOString());
    expect(body.endedAt).toBe(new Date(T0 + 120_000).toISOString());
    expect(body.durationMs).toBe(120_000);
  });

  it('lists who came, with join and leave times', () => {
    const rows = body.attendance.map((a) => [a.name, a.isHost, a.joinedAt, a.leftAt]);
    expect(rows).toEqual([
      ['Hana', true, new Date(T0).toISOString(), new Date(T0 + 120_000).toISOString()],
      ['Gus', false, new Date(T0 + 5_000).toISOString(), new Date(T0 + 90_000).toISOString()],
    ]);
    expect(body.totals.participants).toBe(2);
  });

  it('sums each participant’s talk time within 10% of the script (muted speech excluded)', () => {
    const talk = Object.fromEntries(body.attendance.map((a) => [a.name, a.talkMs]));
    expect(Math.abs(talk.Hana! - 50_000)).toBeLessThanOrEqual(5_000);
    expect(Math.abs(talk.Gus! - 22_000)).toBeLessThanOrEqual(2_200);
    expect(body.totals.talkMs).toBe(talk.Hana! + talk.Gus!);
  });

  it('counts the chat messages and files', () => {
    expect(body.totals).toMatchObject({ chatMessages: 1, files: 1 });
    expect(body.summary).toBeNull();
  });

  it('is the host’s only: anyone else is told the meeting does not exist', async () => {
    const other = await signIn(t, { email: 'other@example.com' });
    expect((await report(meetingId, other.cookie)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/meetings/${meetingId}/report` });
    expect(anonymous.statusCode).toBe(401);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${meetingId}/report.pdf`,
      headers: { cookie: other.cookie },
    });
    expect(pdf.statusCode).toBe(404);
    expect((await report('000-000-000')).statusCode).toBe(404);
  });

  it('exports a PDF whose text holds the figures', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/meetings/${meetingId}/report.pdf`,
      headers: { cookie: host.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'report-')), 'report.pdf');
    writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Quarterly planning');
    expect(text).toContain('Duration: 2:00');
    expect(text).toContain('Chat messages: 1');
    expect(text).toContain('Files shared: 1');
    expect(text).toMatch(/Hana \(host\)/);
    expect(text).toContain('Gus');
    expect(text).toMatch(/Talk time\s+0:50/);
    expect(text).toMatch(/Talk time\s+0:22/);
  });
});

describe('speaking messages', () => {
  it('are rate-limited per participant', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const g = await enter(t, ws, m.meetingId, { name: 'Flo' });
    for (let i = 0; i < 12; i++) g.socket.send({ type: 'speaking', speaking: i % 2 === 0 });
    const error = await g.socket.next('error');
    expect(error).toMatchObject({ code: 'rate_limited' });
    g.socket.close();
  });

  it('are refused when malformed', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const g = await enter(t, ws, m.meetingId, { name: 'Flo' });
    g.socket.send({ type: 'speaking', speaking: 'yes' });
    expect(await g.socket.next('error')).toMatchObject({ code: 'bad_message' });
    g.socket.close();
  });
});
