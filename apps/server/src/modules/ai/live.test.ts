import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { roomFixture } from '../rooms/testing/room-fixture.js';
import { createLiveCaptions } from './live.js';
import type { NewTranscriptLine } from './repository.js';
import { fakeEngines, fakeSpeech } from './testing.js';

const log = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A meeting with its Pro host, Ann and Bob; live captions over the fixture's room and transport. */
async function aMeeting(opts: { maxStreams?: number; flushAfterMs?: number } = {}) {
  const f = roomFixture();
  f.proUsers.add(f.hostId);
  const row = f.meeting();
  const host = await f.enter(row, { name: 'Hana', userId: f.hostId });
  const ann = await f.enter(row, { name: 'Ann' });
  const bob = await f.enter(row, { name: 'Bob' });
  const engines = { ...fakeEngines(), stt: fakeSpeech({ maxStreams: opts.maxStreams }) };
  const saved: NewTranscriptLine[] = [];
  const captions = createLiveCaptions({
    rooms: f.rooms,
    transport: {
      publish: (roomId, to, message) => f.published.push({ roomId, to, message }),
    },
    engines,
    repo: {
      insertLine: async (line) => {
        saved.push(line);
        return { kind: 'speech' as const, ...line, id: `line-${saved.length}`, createdAt: new Date() };
      },
    },
    log,
    timings: {
      flushAfterMs: opts.flushAfterMs ?? 30,
      closeAfterMs: 200 + (opts.flushAfterMs ?? 0),
      reopenAfterMs: 100,
      partialEveryMs: 50,
    },
  });
  f.take();
  /** Hana turns transcription on; Ann and Bob answer the notice with Continue. */
  const start = async () => {
    await f.rooms.setTranscription(host.actor, true);
    await f.rooms.setTranscriptionConsent(ann.actor, 'allowed');
    await f.rooms.setTranscriptionConsent(bob.actor, 'allowed');
  };
  return { f, row, host, ann, bob, engines, saved, captions, start };
}

/** The new_transcript messages published since the last take, by listener. */
function transcriptsByListener(f: ReturnType<typeof roomFixture>) {
  const out = new Map<
    string,
    { originalText: string; translatedText: string | null; translationError?: string | null }
  >();
  for (const p of f.take()) {
    if (p.message.type !== 'new_transcript' || p.to.kind !== 'one') continue;
    out.set(p.to.participantId, p.message.transcript);
  }
  return out;
}

describe('live captions', () => {
  it('drops audio while transcription is off: no decoder is opened', async () => {
    const m = await aMeeting();
    await m.captions.audio(m.ann.actor, Buffer.from('hello'));
    expect(m.engines.stt.streams).toHaveLength(0);
    expect(m.captions.activeSpeakers).toBe(0);
  });

  it("captions a speaker for everyone, by the server's name, translated once per language in use", async () => {
    const m = await aMeeting();
    await m.start();
    await m.f.rooms.setCaptionLanguage(m.bob.actor, 'es');
    await m.f.rooms.setCaptionLanguage(m.host.actor, 'es');
    await m.f.rooms.setCaptionLanguage(m.ann.actor, 'ja');
    m.f.take();
    await m.captions.audio(m.ann.actor, Buffer.from('we ship on '));
    await m.captions.audio(m.ann.actor, Buffer.from('friday'));
    await wait(80); // a pause in frames ends the utterance
    await m.captions.close();

    expect(m.saved).toHaveLength(1);
    expect(m.saved[0]).toMatchObject({ speakerName: 'Ann', text: 'We ship on Friday.', language: 'en' });
    const got = transcriptsByListener(m.f);
    expect(got.get(m.bob.id)).toMatchObject({
      originalText: 'We ship on Friday.',
      translatedText: '[es] We ship on Friday.',
    });
    expect(got.get(m.host.id)?.translatedText).toBe('[es] We ship on Friday.');
    expect(got.get(m.ann.id)).toMatchObject({ translatedText: null, translationError: 'unsupported' });
    // Two listeners chose Spanish: translated once.
    expect(m.engines.translator.calls).toEqual(['en>es:We ship on Friday.']);
  });

  it('a participant who has not answered, or declined, is not transcribed; its stream is thrown away', async () => {
    const m = await aMeeting();
    await m.f.rooms.setTranscription(m.host.actor, true);
    await m.captions.audio(m.ann.actor, Buffer.from('not asked yet'));
    expect(m.engines.stt.streams).toHaveLength(0);
    await m.f.rooms.setTranscriptionConsent(m.ann.actor, 'allowed');
    await m.captions.audio(m.ann.actor, Buffer.from('half a thought'));
    expect(m.engines.stt.streams).toHaveLength(1);
    await m.f.rooms.setTranscriptionConsent(m.ann.actor, 'declined');
    await m.captions.declined(m.ann.id);
    await m.captions.audio(m.ann.actor, Buffer.from('after declining'));
    await m.captions.audio(m.host.actor, Buffer.from('the host speaks'));
    await wait(80);
    await m.captions.close();
    expect(m.engines.stt.streams).toHaveLength(2);
    expect(m.saved.map((l) => `${l.speakerName}: ${l.text}`)).toEqual(['Hana: The host speaks.']);
  });

  it('one stream per speaker, kept across frames; a muted speaker is not transcribed', async () => {
    const m = await aMeeting();
    await m.start();
    await m.captions.audio(m.ann.actor, Buffer.from('a'));
    await m.captions.audio(m.ann.actor, Buffer.from('b'));
    await m.captions.audio(m.bob.actor, Buffer.from('c'));
    expect(m.engines.stt.streams).toHaveLength(2);
    await m.f.rooms.setMediaState(m.bob.actor, { isMuted: true, isVideoOn: true });
    await m.captions.audio(m.bob.actor, Buffer.from('secret'));
    expect(m.engines.stt.streams[1]).toMatchObject({ written: 1, closed: true });
    await m.captions.close();
    expect(m.saved.map((l) => l.text).sort()).toEqual(['Ab.', 'C.']);
  });

  it('a speaker refused a decoder (all busy) is told once, and told again when captions start', async () => {
    const m = await aMeeting({ maxStreams: 1 });
    await m.start();
    m.f.take();
    const statusOf = () =>
      m.f
        .take()
        .filter((p) => p.message.type === 'caption_status')
        .map((p) => ({ to: p.to, message: p.message }));
    await m.captions.audio(m.ann.actor, Buffer.from('ann talks'));
    await m.captions.audio(m.bob.actor, Buffer.from('bob '));
    await m.captions.audio(m.bob.actor, Buffer.from('too'));
    expect(m.engines.stt.streams).toHaveLength(1);
    expect(statusOf()).toEqual([
      {
        to: { kind: 'one', participantId: m.bob.id },
        message: { type: 'caption_status', captioned: false, reason: 'busy' },
      },
    ]);
    // Ann stops talking: her decoder is given back; Bob's next frame gets it.
    await wait(300);
    expect(m.captions.activeSpeakers).toBe(0);
    await m.captions.audio(m.bob.actor, Buffer.from('now me'));
    expect(statusOf()).toEqual([
      {
        to: { kind: 'one', participantId: m.bob.id },
        message: { type: 'caption_status', captioned: true, reason: null },
      },
    ]);
    await m.captions.close();
    expect(m.saved.map((l) => `${l.speakerName}: ${l.text}`)).toEqual(['Ann: Ann talks.', 'Bob: Now me.']);
  });

  it('stopping the transcription ends the streams with their last words delivered', async () => {
    const m = await aMeeting();
    await m.start();
    await m.captions.audio(m.bob.actor, Buffer.from('last words'));
    await m.f.rooms.setTranscription(m.host.actor, false);
    await m.captions.stopRoom(m.row.id);
    expect(m.captions.activeSpeakers).toBe(0);
    await m.captions.close();
    expect(m.saved.map((l) => l.text)).toEqual(['Last words.']);
    await m.captions.audio(m.bob.actor, Buffer.from('after'));
    expect(m.engines.stt.streams).toHaveLength(1);
  });
});

describe('interim words (issue 37)', () => {
  /** The transcript_partial messages published since the last take, to one listener. */
  const partialsTo = (published: ReturnType<ReturnType<typeof roomFixture>['take']>, id: string) =>
    published
      .filter(
        (p) => p.message.type === 'transcript_partial' && p.to.kind === 'one' && p.to.participantId === id,
      )
      .map(
        (p) => (p.message as { partial: { segmentId: string; text: string; speakerName: string } }).partial,
      );

  it('go to every listener while someone speaks, at most one per interval, then the final line replaces them', async () => {
    // A line ends after 150 ms without frames here: a busy machine's late timers do not split it.
    const m = await aMeeting({ flushAfterMs: 150 });
    await m.start();
    m.f.take();
    // Six frames 15 ms apart (well under the pause that ends a line): the engine has new words
    // after each; the first go out at once, then at most one per 50 ms interval, the latest.
    const started = Date.now();
    for (const w of ['we ', 'ship ', 'on ', 'friday ', 'says ', 'bob']) {
      await m.captions.audio(m.ann.actor, Buffer.from(w));
      await wait(15);
    }
    const spoke = Date.now() - started;
    await wait(300); // the pause ends the line
    const got = m.f.take();
    const bobGot = partialsTo(got, m.bob.id);
    expect(bobGot[0]?.text).toBe('we');
    expect(bobGot.length).toBeGreaterThanOrEqual(2);
    expect(bobGot.length).toBeLessThanOrEqual(Math.ceil(spoke / 50) + 1);
    expect(bobGot.length).toBeLessThan(6);
    for (const p of bobGot) expect('we ship on friday says bob').toContain(p.text);
    expect(partialsTo(got, m.host.id)).toHaveLength(bobGot.length);
    expect(partialsTo(got, m.ann.id)).toHaveLength(bobGot.length); // the speaker sees its own too
    const segmentId = bobGot[0]!.segmentId;
    expect(new Set(bobGot.map((p) => p.segmentId))).toEqual(new Set([segmentId]));
    // The final line names the segment it replaces, and comes after its partials.
    const lineAt = got.findIndex((p) => p.message.type === 'new_transcript' && p.to.kind === 'one');
    expect(got[lineAt]?.message).toMatchObject({
      transcript: { originalText: 'We ship on Friday says Bob.', segmentId, speakerName: 'Ann' },
    });
    expect(got.slice(lineAt).filter((p) => p.message.type === 'transcript_partial')).toEqual([]);
    await m.captions.close();
    // Only the final line is kept.
    expect(m.saved.map((l) => l.text)).toEqual(['We ship on Friday says Bob.']);
    // The next utterance is another segment.
    expect(partialsTo(m.f.take(), m.bob.id)).toEqual([]);
  });

  it('a participant who declines stops its interim words at once, and those shown are withdrawn', async () => {
    const m = await aMeeting();
    await m.start();
    m.f.take();
    await m.captions.audio(m.ann.actor, Buffer.from('my secret '));
    await wait(5);
    const shown = partialsTo(m.f.take(), m.bob.id);
    expect(shown.map((p) => p.text)).toEqual(['my secret']);
    await m.captions.audio(m.ann.actor, Buffer.from('plan'));
    await m.f.rooms.setTranscriptionConsent(m.ann.actor, 'declined');
    await m.captions.declined(m.ann.id);
    await wait(100);
    const after = m.f.take();
    // No newer words; the shown ones are withdrawn (empty text, same segment); no line.
    expect(partialsTo(after, m.bob.id)).toEqual([
      expect.objectContaining({ segmentId: shown[0]!.segmentId, text: '' }),
    ]);
    expect(
      after.filter((p) => p.message.type === 'new_transcript' && p.message.transcript.kind !== 'notice'),
    ).toEqual([]);
    await m.captions.close();
    expect(m.saved).toEqual([]);
  });

  it('a participant who has not answered the notice sends no interim words', async () => {
    const m = await aMeeting();
    await m.f.rooms.setTranscription(m.host.actor, true);
    m.f.take();
    await m.captions.audio(m.bob.actor, Buffer.from('not asked'));
    await wait(80);
    expect(partialsTo(m.f.take(), m.host.id)).toEqual([]);
    await m.captions.close();
  });
});

describe('transcription is room state', () => {
  it('a Pro participant starts it; everyone hears who; a guest cannot start it', async () => {
    const m = await aMeeting();
    await expect(m.f.rooms.setTranscription(m.ann.actor, true)).rejects.toMatchObject({
      code: 'subscription_required',
    });
    expect(await m.f.rooms.setTranscription(m.host.actor, true)).toBe(true);
    const states = m.f.take().filter((p) => p.message.type === 'transcription_state');
    expect(states).toHaveLength(1);
    expect(states[0]?.to).toEqual({ kind: 'all' });
    expect(states[0]?.message).toMatchObject({
      transcription: { active: true, startedBy: { id: m.host.id, name: 'Hana' } },
    });
    // Starting again changes nothing and tells nobody.
    expect(await m.f.rooms.setTranscription(m.host.actor, true)).toBe(false);
    expect(m.f.take()).toEqual([]);
  });

  it('a late joiner learns it from joined; a guest who did not start it cannot stop it', async () => {
    const m = await aMeeting();
    await m.f.rooms.setTranscription(m.host.actor, true);
    const late = await m.f.enter(m.row, { name: 'Lou' });
    const joined = m.f
      .take()
      .find((p) => p.message.type === 'joined' && p.to.kind === 'one' && p.to.participantId === late.id);
    expect(joined?.message).toMatchObject({ transcription: { active: true, startedBy: { name: 'Hana' } } });
    await expect(m.f.rooms.setTranscription(late.actor, false)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await m.f.rooms.setTranscription(m.host.actor, false)).toBe(true);
  });

  it('only a host or whoever started it stops it for everyone: not another Pro participant', async () => {
    const m = await aMeeting();
    m.f.proUsers.add('pro-user-2');
    const pro = await m.f.enter(m.row, { name: 'Pia', userId: 'pro-user-2' });
    // Pia (Pro) starts it: she may stop it; another Pro participant may not.
    expect(await m.f.rooms.setTranscription(pro.actor, true)).toBe(true);
    m.f.proUsers.add('pro-user-3');
    const other = await m.f.enter(m.row, { name: 'Oli', userId: 'pro-user-3' });
    await expect(m.f.rooms.setTranscription(other.actor, false)).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('You can stop transcribing yourself'),
    });
    expect(await m.f.rooms.setTranscription(pro.actor, false)).toBe(true);
    // The host stops one someone else started.
    expect(await m.f.rooms.setTranscription(pro.actor, true)).toBe(true);
    expect(await m.f.rooms.setTranscription(m.host.actor, false)).toBe(true);
  });
});
