import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_DIR, PocketsphinxSpeechToText } from './pocketsphinx.js';
import { probeSphinxLibraries } from './sphinx-binding.js';
import { pcmMs, requireCommand, silence, speak, wavPcm, wordOverlap } from './testing/audio.js';
import { SpeechCapacityError, UnsupportedSpeechLanguageError, type Utterance } from './types.js';

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
