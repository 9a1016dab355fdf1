import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, meetingAttendance, meetingFiles } from '../../src/db/schema/index.js';
import { FILE_QUOTA, fileQuotaMessages } from '../../src/modules/files/service.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { connect, enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, issue 34 item 8 (input hygiene), against the running server over loopback:
 *
 * - a NUL in a name or a chat message was accepted, and then every database write for that
 *   participant failed (no attendance row; an error log with the SQL); bidi-override characters
 *   were accepted in names. Now the schemas refuse control and direction-override characters
 *   with a 400 / a WS error that says so, while names in any script, with accents and emoji, work.
 * - 40 parallel uploads from one guest put 929 MB on disk at once against a 500 MB meeting cap.
 *   Now quota is reserved before bytes are written. The meeting cap is lowered to 1 MB here and
 *   the uploads are 100 KB, so the same attack is 4 MB against 1 MB.
 */
const KB = 1024;
const MB = 1024 * KB;
let t: TestContext;
let http: string;
let ws: string;
let host: { cookie: string; userId: string };
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ FILES_QUOTA_PER_MEETING_MB: '1' });
  ({ http, ws } = await listen(t));
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const join = (meetingId: string, name: string, extra: Record<string, unknown> = {}) =>
  fetch(`${http}/api/meetings/${meetingId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, sessionId: `s-${Math.random()}`, ...extra }),
  });

describe('names and chat with control or direction-override characters', () => {
  it('are refused with a clear 400 at join and registration, and in ids and the socket query', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const cases: [string, RegExp][] = [
      ['Eve\u0000', /^Invalid request: body\.name: must not contain control characters$/],
      ['Eve\u001b[2J', /control characters/],
      [
        'Mallory\u202Egnp.exe',
        /^Invalid request: body\.name: must not contain text-direction override characters$/,
      ],
      ['Mal\u2067lory', /text-direction override/],
    ];
    for (const [name, message] of cases) {
      const res = await join(m.meetingId, name);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    const registration = await fetch(`${http}/api/meetings/${m.meetingId}/participants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Eve\u0000', email: 'eve@example.com', sessionId: 'tab-1' }),
    });
    expect(registration.status).toBe(400);
    // An id that reaches the database cannot carry a NUL either (PostgreSQL would refuse it: 500).
    const nulSession = await join(m.meetingId, 'Eve', { sessionId: 'tab\u0000' });
    expect(nulSession.status).toBe(400);
    const nulBrowser = await join(m.meetingId, 'Eve', { browserId: 'browser-\u0000-id' });
    expect(nulBrowser.status).toBe(400);
    const nulMeeting = await fetch(`${http}/api/meetings/${encodeURIComponent('123\u0000')}/participants`);
    expect(nulMeeting.status).toBe(400);
    // The socket's own name in the query is held to the same rule.
    const socket = await connect(ws, m.meetingId, { name: 'Eve\u202e' });
    sockets.push(socket);
    const closed = await socket.closed;
    expect(closed.code).toBeGreaterThanOrEqual(4000);
  });

  it('a NUL in a chat message is refused with a WS error; the sender stays and is recorded', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const sender = await enter(t, ws, m.meetingId, { name: 'Zoë 🎉' });
    const reader = await enter(t, ws, m.meetingId, { name: 'مريم الأحمد' });
    sockets.push(sender.socket, reader.socket);

    sender.socket.send({ type: 'chat_message', requestId: 'c1', content: 'hi\u0000there' });
    const error = await sender.socket.next('error');
    expect(error).toMatchObject({
      code: 'bad_message',
      requestId: 'c1',
      message: 'Invalid message: content: must not contain control characters',
    });
    sender.socket.send({ type: 'chat_message', requestId: 'c2', content: 'see \u202efdp.exe' });
    expect((await sender.socket.next('error')).message).toMatch(/text-direction override/);
    expect(await reader.socket.none('chat_message', 200)).toEqual([]);

    // Legitimate text beside it: accents, emoji, Arabic, Hebrew, line breaks and the RLM mark.
    const text = 'Grüße 👋🏽\nمرحبا — שלום\u200f!\tok';
    sender.socket.send({ type: 'chat_message', requestId: 'c3', content: text });
    const got = await reader.socket.next('chat_message');
    expect(got).toMatchObject({ content: text, senderName: 'Zoë 🎉' });
    await sender.socket.sync();

    const stored = await t.db.db.select().from(chatMessages).where(eq(chatMessages.meetingId, m.id));
    expect(stored.map((c) => c.content)).toEqual([text]);
    const attendance = await t.db.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.meetingId, m.id));
    expect(attendance.map((a) => a.name).sort()).toEqual(['Zoë 🎉', 'مريم الأحمد'].sort());
  });

  it('names in Hebrew, with accents and emoji sequences join and come back as typed', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    for (const name of ['שרה כהן', 'José Müller-Łukasz', '👩🏽‍💻 Dev', '李小龍']) {
      const res = await fetch(`${http}/api/meetings/${m.meetingId}/participants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, sessionId: `s-${Math.random()}` }),
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { name: string }).name).toBe(name);
    }
  });
});

function bytesOnDisk(root: string): number {
  try {
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .map((p) => statSync(path.join(root, p)))
      .filter((s) => s.isFile())
      .reduce((sum, s) => sum + s.size, 0);
  } catch {
    return 0;
  }
}

describe('40 parallel uploads from one guest against the meeting cap', () => {
  it('never put more on disk than the cap; what fits is stored, the rest refused with 413', async () => {
    const quota = fileQuotaMessages({ ...FILE_QUOTA, meetingBytes: MB });
    const m = await createMeeting(t, { hostId: host.userId });
    const guest = await enter(t, ws, m.meetingId, { name: 'Uploader' });
    sockets.push(guest.socket);
    const upload = async (bytes: number, name = 'part.bin') => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes).fill(7)]), name);
      const res = await fetch(`${http}/api/meetings/${m.meetingId}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${guest.join.joinToken}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { message?: string; name?: string } };
    };

    const root = path.join(t.config.dataDir, 'files');
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, bytesOnDisk(root))), 2);
    const answers = await Promise.all(Array.from({ length: 40 }, () => upload(100 * KB)));
    clearInterval(sampler);
    peak = Math.max(peak, bytesOnDisk(root));

    const stored = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    // 10 × 100 KB (and their form overhead) fit in 1 MB; an 11th does not.
    expect(stored).toHaveLength(10);
    expect(refused.map((a) => a.status)).toEqual(Array(30).fill(413));
    expect(refused[0]!.body.message).toBe(quota.meetingFull);
    expect(peak).toBeLessThanOrEqual(MB);
    const rows = await t.db.db.select().from(meetingFiles).where(eq(meetingFiles.meetingId, m.id));
    expect(rows.reduce((sum, r) => sum + r.size, 0)).toBe(10 * 100 * KB);
    expect(bytesOnDisk(root)).toBe(10 * 100 * KB);

    // Legitimate use beside it: a small file that still fits goes in, its name cleaned of a
    // direction override (file names come from the browser, not a form: stripped, not refused).
    const small = await upload(20 * KB, 'report\u202e.pdf');
    expect(small.status).toBe(201);
    expect(small.body.name).toBe('report.pdf');
  });
});
