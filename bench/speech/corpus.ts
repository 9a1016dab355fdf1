/**
 * The speech corpus, made at run time (no audio is committed): the meeting sentences of
 * sentences.txt said by several flite and espeak-ng voices, plus the recordings with reference
 * transcriptions that Debian's pocketsphinx-testdata package ships (real human speech).
 * Everything goes through an Opus round trip (libopus 32 kb/s in WebM), as browser audio does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { benchRoot } from '../support/results.js';

export interface Voice {
  /** e.g. 'flite slt', 'espeak-ng en-us'. */
  id: string;
  engine: 'flite' | 'espeak-ng';
  name: string;
  /** Audio narrower than the 16 kHz the English model was trained on. */
  narrowband?: string;
}

/** flite's voices (`flite -lv`, less awb_time: a limited-domain voice that only tells the time). */
export const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal16', 'kal'];
export const ESPEAK_VOICES = ['en-us', 'en-gb'];

export const VOICES: Voice[] = [
  ...FLITE_VOICES.map((name): Voice => ({
    id: `flite ${name}`,
    engine: 'flite',
    name,
    ...(name === 'kal' ? { narrowband: '8 kHz voice (telephone band, nothing above 4 kHz)' } : {}),
  })),
  ...ESPEAK_VOICES.map((name): Voice => ({ id: `espeak-ng ${name}`, engine: 'espeak-ng', name })),
];

/** A sentence list under bench/speech/, one a line: sentences.txt, or held-out-2.txt. */
export function loadSentences(file = 'sentences.txt'): string[] {
  return readFileSync(path.join(benchRoot, 'speech', file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

const run = (cmd: string, args: string[], input?: Buffer) =>
  execFileSync(cmd, args, { input, maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });

/** Says `text` into a WAV file. */
export function synthesize(voice: Voice, text: string, file: string): void {
  if (voice.engine === 'flite') run('flite', ['-voice', voice.name, '-t', text, '-o', file]);
  else run('espeak-ng', ['-v', voice.name, '-w', file, text]);
}

const PCM = ['-f', 's16le', '-ar', '16000', '-ac', '1'];

/** Any audio file → 16 kHz mono s16le. */
export function fileToPcm(file: string): Buffer {
  return run('ffmpeg', ['-loglevel', 'error', '-i', file, ...PCM, 'pipe:1']);
}

/** 16 kHz PCM → WebM/Opus at 32 kb/s, what MediaRecorder sends. */
export function pcmToWebm(pcm: Buffer): Buffer {
  return run(
    'ffmpeg',
    ['-loglevel', 'error', ...PCM, '-i', 'pipe:0', '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm', 'pipe:1'],
    pcm,
  );
}

/** WebM/Opus → 16 kHz PCM: what the server decodes from a browser's recording. */
export function webmToPcm(webm: Buffer): Buffer {
  return run('ffmpeg', ['-loglevel', 'error', '-f', 'webm', '-i', 'pipe:0', ...PCM, 'pipe:1'], webm);
}

export interface Recording {
  id: string;
  reference: string;
  file: string;
}

export interface RecordingSet {
  id: string;
  recordings: Recording[];
}

const TESTDATA = '/usr/share/pocketsphinx/test/data';

/**
 * pocketsphinx-testdata's recordings that come with a reference transcription (Sphinx's
 * `<s> words </s> (id)` lines): five LibriVox sentences read by a person, and five spoken card
 * names. Its other audio (goforward.raw, numbers.raw, something.raw, tidigits) has no reference
 * in the package, and is left out.
 */
export function packagedRecordings(): { sets: RecordingSet[]; note: string } {
  if (!existsSync(TESTDATA)) {
    return {
      sets: [],
      note: `no recordings: ${TESTDATA} is absent (Debian's pocketsphinx-testdata package is not installed)`,
    };
  }
  const sets: RecordingSet[] = [];
  for (const [folder, transcription] of [
    ['librivox', 'transcription'],
    ['cards', 'cards.transcription'],
  ] as const) {
    const dir = path.join(TESTDATA, folder);
    const wavs = new Set(readdirSync(dir).filter((f) => f.endsWith('.wav')));
    const recordings: Recording[] = [];
    for (const line of readFileSync(path.join(dir, transcription), 'utf8').split('\n')) {
      const m = line.match(/^\s*<s>(.*)<\/s>\s*\((.+)\)\s*$/);
      if (!m || !wavs.has(`${m[2]}.wav`)) continue;
      recordings.push({ id: m[2]!, reference: m[1]!.trim(), file: path.join(dir, `${m[2]}.wav`) });
    }
    sets.push({ id: `pocketsphinx-testdata ${folder}`, recordings });
  }
  return {
    sets,
    note: `${TESTDATA} (Debian's pocketsphinx-testdata): librivox and cards, the recordings shipped with reference transcriptions`,
  };
}

/**
 * The audio with steady background noise mixed in (hiss plus a low rumble, like a laptop fan
 * through a built-in microphone), `noiseDbfs` loud. Deterministic, so runs compare.
 */
export function withNoise(pcm: Buffer, noiseDbfs: number): Buffer {
  const n = pcm.length >> 1;
  const noise = new Float64Array(n);
  let seed = 1;
  let rumble = 0;
  let power = 0;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const white = (seed / 2 ** 31) * 2 - 1;
    rumble = 0.97 * rumble + 0.03 * white * 8;
    noise[i] = white * 0.5 + rumble;
    power += noise[i]! ** 2;
  }
  const gain = (32_768 * 10 ** (noiseDbfs / 20)) / Math.sqrt(power / Math.max(1, n));
  const out = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const v = pcm.readInt16LE(i * 2) + Math.round(noise[i]! * gain);
    out.writeInt16LE(Math.max(-32_768, Math.min(32_767, v)), i * 2);
  }
  return out;
}

/** The level of the loudest half of the 20 ms frames (the speech), in dBFS. */
export function speechDbfs(pcm: Buffer): number {
  const levels: number[] = [];
  for (let at = 0; at + 640 <= pcm.length; at += 640) {
    let sum = 0;
    for (let i = 0; i < 320; i++) sum += pcm.readInt16LE(at + i * 2) ** 2;
    levels.push(sum / 320);
  }
  levels.sort((a, b) => b - a);
  const top = levels.slice(0, Math.max(1, Math.floor(levels.length / 2)));
  return 10 * Math.log10(top.reduce((s, p) => s + p, 0) / top.length / 32_768 ** 2);
}
