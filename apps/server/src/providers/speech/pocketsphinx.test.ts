import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_DIR, PocketsphinxSpeechToText } from './pocketsphinx.js';
import { probeSphinxLibraries } from './sphinx-binding.js';
import { pcmMs, requireCommand, silence, speak, wavPcm, wordOverlap } from './testing/audio.js';
import {
  type PartialUtterance,
  SpeechCapacityError,
  UnsupportedSpeechLanguageError,
  type Utterance,
} from './types.js';

/** The PCM without its leading and trailing quiet (samples under 1% of full scale). */
function trimmed(pcm: Buffer): Buffer {
  const loud = (i: number) => Math.abs(pcm.readInt16LE(i)) > 330;
  let start = 0;
  let end = pcm.length - 2;
  while (start < end && !loud(start)) start += 2;
  while (end > start && !loud(end)) end -= 2;
  return pcm.subarray(start, end + 2);
}

const FIRST = "Let's review the budget for the next quarter and decide who owns the launch plan.";
const SECOND = 'Maria will send the updated proposal to the customer on Friday.';

let dir: string;
let stt: PocketsphinxSpeechToText;

beforeAll(() => {
  const library = probeSphinxLibraries();
  if (library) throw new Error(`install Debian's libpocketsphinx3 to run this test: ${library}`);
  if (!existsSync(path.join(DEFAULT_MODEL_DIR, 'en-us.lm.bin'))) {
    throw new Error(
      `install Debian's pocketsphinx-en-us to run this test (no model in ${DEFAULT_MODEL_DIR})`,
    );
  }
  requireCommand('flite', 'flite');
  requireCommand('ffmpeg', 'ffmpeg', ['-version']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'parley-sphinx-'));
  stt = new PocketsphinxSpeechToText({ maxStreams: 2 });
});

afterAll(async () => {
  await stt?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('pocketsphinx speech-to-text', () => {
  it('transcribes a spoken English sentence from a clip', async () => {
    const wav = readFileSync(speak(dir, 'first', FIRST));
    const result = await stt.transcribeClip(wav);
    expect(result.language).toBe('en');
    expect(wordOverlap(FIRST, result.text), result.text).toBeGreaterThanOrEqual(0.6);
  });

  it('ends utterances where speech stops in one continuous stream, with their offsets', async () => {
    const one = wavPcm(speak(dir, 'one', FIRST));
    const two = wavPcm(speak(dir, 'two', SECOND));
    const audio = Buffer.concat([one, silence(1500), two, silence(1000)]);
    const utterances: Utterance[] = [];
    const errors: Error[] = [];
    const stream = stt.openStream({ onUtterance: (u) => utterances.push(u), onError: (e) => errors.push(e) });
    // 20 ms frames, as a browser sends them; an odd split checks that half samples are kept.
    for (let at = 0; at < audio.length; at += 641) stream.write(audio.subarray(at, at + 641));
    await stream.close();

    expect(errors).toEqual([]);
    expect(utterances.map((u) => u.text)).toHaveLength(2);
    const [a, b] = utterances as [Utterance, Utterance];
    expect(wordOverlap(FIRST, a.text), a.text).toBeGreaterThanOrEqual(0.6);
    expect(wordOverlap(SECOND, b.text), b.text).toBeGreaterThanOrEqual(0.6);
    const secondStarts = pcmMs(one) + 1500;
    expect(a.startMs).toBeLessThan(500);
    expect(Math.abs(a.endMs - pcmMs(one))).toBeLessThan(700);
    expect(a.endMs).toBeLessThanOrEqual(b.startMs);
    expect(Math.abs(b.startMs - secondStarts)).toBeLessThan(700);
    expect(Math.abs(b.endMs - (secondStarts + pcmMs(two)))).toBeLessThan(700);
    expect(a.language).toBe('en');
  });

  it('gives interim words while speech goes on, each of the utterance the final one then ends', async () => {
    const one = wavPcm(speak(dir, 'partial', FIRST));
    const audio = Buffer.concat([one, silence(1000)]);
    const partials: Array<PartialUtterance & { at: number }> = [];
    const utterances: Utterance[] = [];
    const stream = stt.openStream({
      onUtterance: (u) => utterances.push(u),
      onPartial: (p) => partials.push({ ...p, at: Date.now() }),
    });
    for (let at = 0; at < audio.length; at += 3200) stream.write(audio.subarray(at, at + 3200));
    await stream.close();
    expect(utterances).toHaveLength(1);
    const [u] = utterances as [Utterance];
    // Many partials (one per 300 ms of speech at most), growing towards the final text.
    expect(partials.length).toBeGreaterThanOrEqual(5);
    expect(partials.length).toBeLessThanOrEqual(Math.ceil(pcmMs(one) / 300) + 1);
    expect(new Set(partials.map((p) => p.seq))).toEqual(new Set([u.seq]));
    // The first words come early in the sentence, in audio time.
    expect(partials[0]!.endMs - partials[0]!.startMs).toBeLessThan(1200);
    expect(wordOverlap(FIRST, partials.at(-1)!.text)).toBeGreaterThanOrEqual(0.5);
    // The final one has its words with times, in order, inside the utterance.
    expect(u.words?.map((w) => w.word).join(' ')).toBe(u.text);
    for (const w of u.words ?? []) {
      expect(w.startMs).toBeGreaterThanOrEqual(u.startMs);
      expect(w.endMs).toBeLessThanOrEqual(u.endMs);
    }
    expect(u.endedBy).toBe('pause');
  });

  it('cuts continuous speech into utterances of at most 8 s, marked as cut by length', async () => {
    const parts = [FIRST, SECOND, 'The support team needs two more people before the launch next month.'];
    // Sentences back to back, flite's own silence around each trimmed: no pause long enough to
    // end an utterance (0.5 s), so only the length limit can.
    const audio = Buffer.concat([
      ...parts.map((t, i) => trimmed(wavPcm(speak(dir, `long${i}`, t)))),
      silence(1000),
    ]);
    expect(pcmMs(audio)).toBeGreaterThan(11_000);
    const utterances: Utterance[] = [];
    const stream = stt.openStream({ onUtterance: (u) => utterances.push(u) });
    for (let at = 0; at < audio.length; at += 3200) stream.write(audio.subarray(at, at + 3200));
    await stream.close();
    expect(utterances.length).toBeGreaterThanOrEqual(2);
    for (const u of utterances) expect(u.endMs - u.startMs).toBeLessThanOrEqual(8_000);
    expect(utterances[0]!.endedBy).toBe('length');
    expect(utterances.map((u) => u.seq)).toEqual(utterances.map((_, i) => i + 1));
    expect(wordOverlap(parts.join(' '), utterances.map((u) => u.text).join(' '))).toBeGreaterThanOrEqual(0.6);
  });

  it('delivers the utterance in progress on flush, and nothing for silence', async () => {
    const got: Utterance[] = [];
    const stream = stt.openStream({ onUtterance: (u) => got.push(u) });
    stream.write(silence(2000));
    await stream.flush();
    expect(got).toEqual([]);
    stream.write(wavPcm(speak(dir, 'flush', SECOND))); // no silence after: speech is still "on"
    await stream.flush();
    expect(got).toHaveLength(1);
    expect(wordOverlap(SECOND, got[0]!.text), got[0]!.text).toBeGreaterThanOrEqual(0.6);
    await stream.close();
    stream.write(silence(100)); // ignored after close
  });

  it('refuses a stream beyond its decoders with a clear error, and serves again after a close', async () => {
    const one = stt.openStream({ onUtterance: () => undefined });
    const two = stt.openStream({ onUtterance: () => undefined });
    expect(() => stt.openStream({ onUtterance: () => undefined })).toThrow(SpeechCapacityError);
    await one.close();
    const three = stt.openStream({ onUtterance: () => undefined });
    await Promise.all([two.close(), three.close()]);
    expect(stt.decoders).toBeLessThanOrEqual(2);
  });

  it('says it cannot transcribe another language instead of faking it', async () => {
    expect(() => stt.openStream({ language: 'es', onUtterance: () => undefined })).toThrow(
      UnsupportedSpeechLanguageError,
    );
    await expect(stt.transcribeClip(Buffer.from('x'), { language: 'fr' })).rejects.toThrow(
      /cannot transcribe 'fr'/,
    );
  });
});
