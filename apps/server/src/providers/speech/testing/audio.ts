import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Speech for tests, made at run time with Debian's flite (no recording is committed). A missing
 * tool fails the test with the package to install: nothing is skipped silently.
 */
export function requireCommand(command: string, debianPackage: string, probe: string[] = ['--help']): void {
  try {
    execFileSync(command, probe, { stdio: 'ignore', timeout: 10_000 });
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing) {
      throw new Error(`${command} is missing: install Debian's ${debianPackage} to run this test`, {
        cause: err,
      });
    }
  }
}

/** Says `text` with a flite voice into dir/name.wav (16 kHz mono for slt/rms/awb). */
export function speak(dir: string, name: string, text: string, voice = 'slt'): string {
  const file = path.join(dir, `${name}.wav`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', file], { timeout: 20_000 });
  return file;
}

/** The 16-bit samples of a canonical 44-byte-header WAV as flite writes it, as PCM bytes. */
export function wavPcm(file: string): Buffer {
  const wav = readFileSync(file);
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.readUInt32LE(24) !== 16_000) {
    throw new Error(`${file} is not a 16 kHz WAV`);
  }
  return wav.subarray(44);
}

export const silence = (ms: number) => Buffer.alloc(Math.round((ms * 16_000) / 1000) * 2);
export const pcmMs = (pcm: Buffer) => (pcm.length / 2 / 16_000) * 1000;

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Share of the reference's words found in the hypothesis (each used once). */
export function wordOverlap(reference: string, hypothesis: string): number {
  const left = words(hypothesis);
  const ref = words(reference);
  let found = 0;
  for (const w of ref) {
    const i = left.indexOf(w);
    if (i >= 0) {
      found += 1;
      left.splice(i, 1);
    }
  }
  return ref.length ? found / ref.length : 0;
}
