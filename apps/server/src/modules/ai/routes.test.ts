import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetings } from '../../db/schema/index.js';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen, type TestSocket } from '../../../test/ws-client.js';
import { fakeEngines } from './testing.js';

/**
 * The AI calls and the live path through the real app: sockets, database, routes, retention, with
 * deterministic engines (the fake speech engine "hears" the UTF-8 of the bytes it is sent, so the
 * plumbing is checked exactly; the real engines are tested in providers/* and e2e).
 */
let t: TestContext;
let ws: string;
const engines = fakeEngines();
const sockets: TestSocket[] = [];
let host: { cookie: string; userId: string };
let free: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({}, undefined, { ai: engines });
  ws = (await listen(t)).ws;
  host = await signIn(t, { email: 'hana@example.com', firstName: 'Hana' });
  await makePro(t, host.userId);
  free = await signIn(t, { email: 'fred@example.com', firstName: 'Fred' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** A live meeting with Hana (Pro host) and Gus (guest) in the room. */
async function liveMeeting() {
  const row = await createMeeting(t, { hostId: host.userId, title: 'Launch sync' });
  const h = await enter(t, ws, row.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
  const g = await enter(t, ws, row.meetingId, { name: 'Gus' });
  sockets.push(h.socket, g.socket);
  return { row, h, g };
}

const auth = (token: string, cookie?: string) => ({
  authorization: `Bearer ${token}`,
  ...(cookie ? { cookie } : {}),
});

describe('AI routes', () => {
  it('say which languages the engines serve', async () => {
    const res = await t.app.inject({ url: '/api/ai/capabilities' });
    expect(res.statusCode).toBe(200);
    const caps = res.json<{
      transcription: { languages: string[]; wordAccuracy: unknown };
      translation: { targets: Array<{ language: string; supported: boolean }> };
    }>();
    expect(caps.transcription.languages).toEqual(['en']);
    // The test engine was never measured: no accuracy figure is claimed for it.
    expect(caps.transcription.wordAccuracy).toBeNull();
    const supported = caps.translation.targets.filter((x) => x.supported).map((x) => x.language);
    expect(supported.sort()).toEqual(['en', 'es', 'fr']);
  });

  it('the probe answers Pro and refuses others with requiresSubscription (spec §7)', async () => {
    const ok = await t.app.inject({
      url: '/api/meetings/test/transcripts',
      headers: { cookie: host.cookie },
    });
    expect(ok.statusCode).toBe(200);
    const no = await t.app.inject({
      url: '/api/meetings/test/transcripts',
      headers: { cookie: free.cookie },
    });
    expect(no.statusCode).toBe(403);
    expect(no.json()).toMatchObject({ requiresSubscription: true });
    const anon = await t.app.inject({ url: '/api/meetings/test/transcripts' });
    expect(anon.statusCode).toBe(401);
  });

  it('a spoken line reaches the room, translated for the listener who asked, and is saved', async () => {
    const { row, h, g } = await liveMeeting();
    g.socket.send({ type: 'set_caption_language', requestId: 'l1', language: 'es' });
    await g.socket.next('ack');
    // The guest cannot start it (no Pro); the host can, and everyone hears who did.
    g.socket.send({ type: 'set_transcription', requestId: 'g1', on: true });
    expect(await g.socket.next('error')).toMatchObject({ code: 'subscription_required' });
    h.socket.send({ type: 'set_transcription', requestId: 't1', on: true });
    const state = await g.socket.next('transcription_state');
    expect(state.transcription).toMatchObject({ active: true, startedBy: { name: 'Hana' } });

    h.socket.sendBinary(Buffer.from("I'll send the deck "));
    h.socket.sendBinary(Buffer.from('by Friday'));
    const heard = await g.socket.next('new_transcript', 5000);
    expect(heard.transcript).toMatchObject({
      speakerName: 'Hana',
      originalText: "I'll send the deck by Friday.",
      translatedText: "[es] I'll send the deck by Friday.",
      translationLanguage: 'es',
    });
    const own = await h.socket.next('new_transcript', 5000);
    expect(own.transcript.translatedText).toBeNull();
    // /metrics has the line's speech-to-text latency: from its last frame's arrival to its text.
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const count = /^parley_speech_to_text_latency_seconds_count (\d+)$/m.exec(metrics);
    const sum = /^parley_speech_to_text_latency_seconds_sum (\S+)$/m.exec(metrics);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(sum?.[1])).toBeGreaterThan(0);

    const saved = await t.app.inject({
      url: `/api/meetings/${row.meetingId}/transcripts`,
      headers: { cookie: host.cookie },
    });
    expect(saved.json()).toMatchObject({
      transcripts: [{ speakerName: 'Hana', originalText: "I'll send the deck by Friday.", language: 'en' }],
    });

    // The same transcript downloads as WebVTT, SubRip and text, for the host; not for a free user.
    const exported = async (format: string, cookie = host.cookie) =>
      t.app.inject({
        url: `/api/meetings/${row.meetingId}/transcripts/export?format=${format}`,
        headers: { cookie },
      });
    const vtt = await exported('vtt');
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toContain('text/vtt');
    expect(vtt.headers['content-disposition']).toMatch(/meeting-transcript-[\d-]+-\d{4}-\d\d-\d\d\.vtt/);
    expect(vtt.body).toMatch(/^WEBVTT\n/);
    expect(vtt.body).toMatch(
      /00:00:00\.000 --> 00:00:0\d\.\d{3}\n<v Hana>I'll send the deck by Friday\.<\/v>/,
    );
    const srt = await exported('srt');
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nHana: I'll send the deck by Friday\.\n/);
    expect((await exported('txt')).body).toMatch(/\] Hana: I'll send the deck by Friday\./);
    expect((await exported('docx')).statusCode).toBe(400);
    expect((await exported('vtt', free.cookie)).statusCode).toBe(403);

    // A guest who comes in later (or reloads) sees the last lines on entering, without Pro.
    const late = await enter(t, ws, row.meetingId, { name: 'Lia' });
    sockets.push(late.socket);
    expect(late.joined?.recentTranscripts).toMatchObject([
      { speakerName: 'Hana', originalText: "I'll send the deck by Friday.", translatedText: null },
    ]);
  });

  it('audio before the meeting turned transcription on is dropped, and a socket that floods is told', async () => {
    const { h, g } = await liveMeeting();
    g.socket.sendBinary(Buffer.from('nobody hears this'));
    expect(await h.socket.none('new_transcript', 900)).toEqual([]);
    g.socket.sendBinary(Buffer.alloc(20_000));
    expect(await g.socket.next('error')).toMatchObject({ code: 'too_large' });
  });

  it('summarises the transcript and chat with owners; Pro participants only; text of the PDF', async () => {
    const { row, h } = await liveMeeting();
    h.socket.send({ type: 'chat_message', requestId: 'c1', content: "I'll book the venue" });
    await h.socket.next('chat_message');
    const url = `/api/meetings/${row.meetingId}/summary`;
    const guest = await t.app.inject({ method: 'POST', url, headers: auth(h.join.joinToken), payload: {} });
    expect(guest.statusCode).toBe(401); // no session: Pro is checked first
    const notPro = await t.app.inject({ method: 'POST', url, headers: { cookie: free.cookie }, payload: {} });
    expect(notPro.json()).toMatchObject({ requiresSubscription: true });
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: host.cookie },
      payload: { participants: ['Hana', 'Gus', 'Ola'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      actionItems: [{ text: "I'll book the venue", owner: 'Hana' }],
      engine: 'fake-summarizer',
      kept: false,
    });
    const again = await t.app.inject({ url, headers: { cookie: host.cookie } });
    expect(again.json()).toMatchObject({ attendees: ['Hana', 'Gus', 'Ola'] });

    const pdf = await t.app.inject({ url: `${url}/pdf`, headers: { cookie: host.cookie } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(
      /meeting-summary-\d{3}-\d{3}-\d{3}-\d{4}-\d{2}-\d{2}\.pdf/,
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-pdf-'));
    writeFileSync(path.join(dir, 's.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 's.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('Action Items');
    expect(text).toContain("I'll book the venue (owner: Hana)");
    expect(text).toContain('Ola');
  });

  it('says there is nothing to summarise in an empty meeting (the client shows the spec alert)', async () => {
    const { row } = await liveMeeting();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${row.meetingId}/summary`,
      headers: { cookie: host.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/no transcript or chat/);
  });

  it('transcribes a recorded chunk (spec §7) with a translation', async () => {
    const boundary = 'b0undary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="targetLanguage"\r\n\r\nfr\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="chunk.webm"\r\n` +
      `Content-Type: audio/webm\r\n\r\nhello there\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/live-transcribe',
      headers: { cookie: host.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      transcription: 'hello there',
      translation: '[fr] hello there',
      detectedLanguage: 'en',
    });
  });

  it("the host's Save keeps the transcript past 30 days; the job deletes the rest", async () => {
    const kept = await liveMeeting();
    const gone = await liveMeeting();
    for (const m of [kept, gone]) {
      m.h.socket.send({ type: 'set_transcription', requestId: 's', on: true });
      await m.h.socket.next('transcription_state');
      m.h.socket.sendBinary(Buffer.from('words to keep or lose'));
      await m.h.socket.next('new_transcript', 5000);
    }
    const save = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${kept.row.meetingId}/retention`,
      headers: { cookie: host.cookie },
      payload: { keep: true },
    });
    expect(save.json()).toEqual({ keep: true });
    const notHost = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${gone.row.meetingId}/retention`,
      headers: auth(gone.g.join.joinToken, free.cookie),
      payload: { keep: true },
    });
    expect(notHost.statusCode).toBe(403);
    // Both meetings ended long ago.
    await t.db.db
      .update(meetings)
      .set({ status: 'ended', updatedAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(inArray(meetings.id, [kept.row.id, gone.row.id]));
    const run = await t.app.retention.runOnce(new Date());
    expect(run.transcripts?.items).toBeGreaterThanOrEqual(1);
    const lines = async (id: string) =>
      (
        await t.app.inject({ url: `/api/meetings/${id}/transcripts`, headers: { cookie: host.cookie } })
      ).json<{ transcripts: unknown[] }>().transcripts.length;
    expect(await lines(kept.row.meetingId)).toBe(1);
    expect(await lines(gone.row.meetingId)).toBe(0);
  });
});
