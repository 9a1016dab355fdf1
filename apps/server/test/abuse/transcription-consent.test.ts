import type { ServerMessageOf } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEngines } from '../../src/modules/ai/testing.js';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Issue 34, item 6: when a Pro participant turned transcription on, every unmuted browser streamed
 * its microphone with no notice and no way to decline. Now each participant answers the notice,
 * and the server, not the page, decides whose audio is transcribed: these attacks send audio
 * frames as a modified client would, from a participant who declined and from a late joiner who
 * has not answered yet, and none of it reaches the transcript. The fake speech engine "hears" the
 * UTF-8 of the bytes it is sent, so any leak would show as that text.
 */
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({}, undefined, { ai: fakeEngines() });
  ws = (await listen(t)).ws;
  host = await signIn(t, { email: 'hana@example.com', firstName: 'Hana' });
  await makePro(t, host.userId);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

type Line = ServerMessageOf<'new_transcript'>['transcript'];

/** A live meeting, its Pro host Hana and an unmuted guest, transcription on (Hana started it). */
async function transcribedMeeting(guestName: string) {
  const row = await createMeeting(t, { hostId: host.userId, title: 'Consent' });
  const h = await enter(t, ws, row.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
  const g = await enter(t, ws, row.meetingId, { name: guestName, isMuted: false });
  sockets.push(h.socket, g.socket);
  h.socket.send({ type: 'set_transcription', requestId: 'on', on: true });
  await h.socket.next('ack');
  await g.socket.next('transcription_state');
  // Pressing Start was Hana's answer: she is transcribed, and everyone sees it.
  for (const s of [h.socket, g.socket]) {
    expect((await s.next('participant_updated')).participant).toMatchObject({
      id: h.join.id,
      transcriptionConsent: 'allowed',
    });
  }
  return { row, h, g };
}

/** The lines a socket got since its last read, waiting `ms` for stragglers. */
async function linesOf(socket: TestSocket, ms = 1200): Promise<Line[]> {
  const got = await socket.none('new_transcript', ms);
  const lines: Line[] = [];
  for (const m of got) if (m.type === 'new_transcript') lines.push(m.transcript);
  for (let i = 0; i < got.length; i++) await socket.next('new_transcript', 0);
  return lines;
}

async function savedTranscript(meetingId: string) {
  const res = await t.app.inject({
    url: `/api/meetings/${meetingId}/transcripts`,
    headers: { cookie: host.cookie },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ transcripts: Array<{ speakerName: string; originalText: string; kind?: string }> }>()
    .transcripts;
}

describe('consent to transcription, enforced by the server', () => {
  it('a participant who declined is not transcribed though its socket keeps streaming; others are, and it still sees their captions', async () => {
    const { row, h, g } = await transcribedMeeting('Gus');
    g.socket.send({ type: 'set_transcription_consent', requestId: 'no', consent: 'declined' });
    await g.socket.next('ack');
    // The host sees who declined (the participants list reads it from participant_updated).
    const seen = await h.socket.next('participant_updated');
    expect(seen.participant).toMatchObject({ id: g.join.id, transcriptionConsent: 'declined' });
    // The transcript says so, to everyone.
    const [notice] = await linesOf(h.socket, 300);
    expect(notice).toMatchObject({
      kind: 'notice',
      speakerName: 'Gus',
      originalText: 'Gus declined to be transcribed',
      participantId: g.join.id,
    });

    // The attack: a modified page streams anyway, before and while Hana speaks.
    g.socket.sendBinary(Buffer.from('gus secret one '));
    h.socket.sendBinary(Buffer.from('hana speaks'));
    g.socket.sendBinary(Buffer.from('gus secret two'));
    const gusHears = await linesOf(g.socket);
    expect(gusHears.filter((l) => l.kind !== 'notice').map((l) => [l.speakerName, l.originalText])).toEqual([
      ['Hana', 'Hana speaks.'],
    ]);
    expect((await linesOf(h.socket, 0)).map((l) => l.originalText)).toEqual(['Hana speaks.']);
    const saved = await savedTranscript(row.meetingId);
    expect(saved.map((l) => l.originalText).sort()).toEqual([
      'Gus declined to be transcribed',
      'Hana speaks.',
    ]);
    expect(JSON.stringify(saved)).not.toContain('secret');

    // Changing its mind: allowed again, Gus is transcribed, and the transcript says so.
    g.socket.send({ type: 'set_transcription_consent', requestId: 'yes', consent: 'allowed' });
    await g.socket.next('ack');
    g.socket.sendBinary(Buffer.from('gus agrees now'));
    const after = await linesOf(h.socket);
    expect(after.map((l) => l.originalText)).toEqual(['Gus allowed transcription again', 'Gus agrees now.']);
  });

  it('a late joiner is not transcribed before it answers the notice, then is once it continues', async () => {
    const { row, h } = await transcribedMeeting('Ann');
    const lia = await enter(t, ws, row.meetingId, { name: 'Lia', isMuted: false });
    sockets.push(lia.socket);
    // Lia enters a meeting being transcribed: `joined` says so, and that she has not answered.
    expect(lia.joined?.transcription).toMatchObject({ active: true, startedBy: { name: 'Hana' } });
    expect(lia.joined?.self.transcriptionConsent ?? null).toBeNull();
    // Ann, present when it started, has not answered either: neither is transcribed.
    lia.socket.sendBinary(Buffer.from('lia before the notice'));
    expect(await linesOf(h.socket)).toEqual([]);

    lia.socket.send({ type: 'set_transcription_consent', requestId: 'ok', consent: 'allowed' });
    await lia.socket.next('ack');
    lia.socket.sendBinary(Buffer.from('lia after continue'));
    expect((await linesOf(h.socket)).map((l) => [l.speakerName, l.originalText])).toEqual([
      ['Lia', 'Lia after continue.'],
    ]);
    expect(JSON.stringify(await savedTranscript(row.meetingId))).not.toContain('before the notice');

    // Transcription off and on again: a Continue was for that transcription only; Lia is asked again.
    h.socket.send({ type: 'set_transcription', requestId: 'off', on: false });
    await h.socket.next('ack');
    h.socket.send({ type: 'set_transcription', requestId: 'on2', on: true });
    await h.socket.next('ack');
    lia.socket.sendBinary(Buffer.from('lia in the second round'));
    expect(await linesOf(h.socket)).toEqual([]);
  });

  it('a decline mid-sentence throws away what was not written yet, and holds across a reload', async () => {
    const { row, h, g } = await transcribedMeeting('Gus');
    g.socket.send({ type: 'set_transcription_consent', requestId: 'ok', consent: 'allowed' });
    await g.socket.next('ack');
    // Half a sentence is in the decoder (no pause yet) when Gus declines.
    g.socket.sendBinary(Buffer.from('half a sentence'));
    g.socket.send({ type: 'set_transcription_consent', requestId: 'no', consent: 'declined' });
    await g.socket.next('ack');
    expect((await linesOf(h.socket)).map((l) => l.originalText)).toEqual(['Gus declined to be transcribed']);

    // A reload comes back as the same participant, still declined; its frames are still refused.
    g.socket.close();
    const again = await enter(t, ws, row.meetingId, {
      name: 'Gus',
      isMuted: false,
      resumeToken: g.join.joinToken,
    });
    sockets.push(again.socket);
    expect(again.join.id).toBe(g.join.id);
    expect(again.joined?.self.transcriptionConsent).toBe('declined');
    again.socket.sendBinary(Buffer.from('after the reload'));
    expect((await linesOf(h.socket)).filter((l) => l.kind !== 'notice')).toEqual([]);
    expect(JSON.stringify(await savedTranscript(row.meetingId))).not.toMatch(
      /half a sentence|after the reload/,
    );

    // Transcription started again: the transcript names who declined, first thing.
    h.socket.send({ type: 'set_transcription', requestId: 'off', on: false });
    await h.socket.next('ack');
    h.socket.send({ type: 'set_transcription', requestId: 'on2', on: true });
    await h.socket.next('ack');
    expect((await linesOf(h.socket, 300)).map((l) => l.originalText)).toEqual([
      'Gus declined to be transcribed',
    ]);
  });
});
