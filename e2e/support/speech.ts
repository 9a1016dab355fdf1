import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Known speech for the fake microphone (Chromium's --use-file-for-fake-audio-capture plays a WAV
 * in a loop): each sentence spoken by flite, separated by silence, as 16-bit mono WAV. Returns
 * the file; the sentences are the reference the captions are compared with. `lastGapSeconds`:
 * the silence after the last sentence (default gapSeconds), e.g. continuous speech with short
 * gaps between sentences and a long pause before the loop starts again.
 */
export function speechWav(
  sentences: string[],
  options: { voice?: string; gapSeconds?: number; lastGapSeconds?: number } = {},
): string {
  const { voice = 'slt', gapSeconds = 1.2 } = options;
  const lastGapSeconds = options.lastGapSeconds ?? gapSeconds;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-speech-'));
  const parts: string[] = [];
  sentences.forEach((text, i) => {
    const raw = path.join(dir, `s${i}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', raw]);
    const padded = path.join(dir, `p${i}.wav`);
    // 48 kHz like a microphone; silence after each sentence so utterances end where speech stops.
    const gap = i === sentences.length - 1 ? lastGapSeconds : gapSeconds;
    execFileSync('sox', [raw, '-r', '48000', '-b', '16', '-c', '1', padded, 'pad', '0', String(gap)]);
    parts.push(padded);
  });
  const out = path.join(dir, 'speech.wav');
  execFileSync('sox', [...parts, out]);
  return out;
}

/** Lower case words without punctuation. */
export const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** The share of the reference's words found in the heard text (each heard word counts once). */
export function wordOverlap(reference: string, heard: string): number {
  const pool = new Map<string, number>();
  for (const w of words(heard)) pool.set(w, (pool.get(w) ?? 0) + 1);
  const ref = words(reference);
  let found = 0;
  for (const w of ref) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      found += 1;
      pool.set(w, n - 1);
    }
  }
  return ref.length ? found / ref.length : 0;
}
