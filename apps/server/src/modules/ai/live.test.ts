import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { roomFixture } from '../rooms/testing/room-fixture.js';
import { createLiveCaptions } from './live.js';
import type { NewTranscriptLine } from './repository.js';
import { fakeEngines, fakeSpeech } from './testing.js';

const log = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A meeting with its Pro host, Ann and Bob; live captions over the fixture's room and transport. */
async function aMeeting(opts: { maxStreams?: number } = {}) {
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
    timings: { flushAfterMs: 30, closeAfterMs: 200, reopenAfterMs: 100 },
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
    expect(m.saved[0]).toMatchObject({ speakerName: 'Ann', text: 'we ship on friday', language: 'en' });
    const got = transcriptsByListener(m.f);
    expect(got.get(m.bob.id)).toMatchObject({
      originalText: 'we ship on friday',
      translatedText: '[es] we ship on friday',
    });
    expect(got.get(m.host.id)?.translatedText).toBe('[es] we ship on friday');
    expect(got.get(m.ann.id)).toMatchObject({ translatedText: null, translationError: 'unsupported' });
    // Two listeners chose Spanish: translated once.
    expect(m.engines.translator.calls).toEqual(['en>es:we ship on friday']);
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
    expect(m.saved.map((l) => `${l.speakerName}: ${l.text}`)).toEqual(['Hana: the host speaks']);
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
    expect(m.saved.map((l) => l.text).sort()).toEqual(['ab', 'c']);
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
    expect(m.saved.map((l) => `${l.speakerName}: ${l.text}`)).toEqual(['Ann: ann talks', 'Bob: now me']);
  });

  it('stopping the transcription ends the streams with their last words delivered', async () => {
    const m = await aMeeting();
    await m.start();
    await m.captions.audio(m.bob.actor, Buffer.from('last words'));
    await m.f.rooms.setTranscription(m.host.actor, false);
    await m.captions.stopRoom(m.row.id);
    expect(m.captions.activeSpeakers).toBe(0);
    await m.captions.close();
    expect(m.saved.map((l) => l.text)).toEqual(['last words']);
    await m.captions.audio(m.bob.actor, Buffer.from('after'));
    expect(m.engines.stt.streams).toHaveLength(1);
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
