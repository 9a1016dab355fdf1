import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMjrHeader } from '../src/modules/recordings/process.js';

/**
 * test/fixtures/recording: .mjr files Janus 1.1.2 wrote in e2e/tests/recording.spec.ts (the
 * recording id replaced by `rec`): one person's audio (about 20 s), and a second person's first,
 * short connection (audio and video) before a reload.
 */
export const RECORDING_FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/recording',
);
export const recordingTools = { ppRec: 'janus-pp-rec', ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
/** Whether janus-tools and ffmpeg are installed (scripts/install-system-deps.sh). */
export const recordingToolsInstalled = ['janus-pp-rec', 'ffprobe'].every(
  (bin) => !spawnSync(bin, [bin === 'ffprobe' ? '-version' : '--help'], { stdio: 'ignore' }).error,
);

/** A start for the fixtures' recording: 300 ms before the first audio packet. */
export async function fixturesStartedAt(): Promise<Date> {
  const audio = readdirSync(RECORDING_FIXTURES).find((f) => f.startsWith('rec-001-'))!;
  const first = await readMjrHeader(recordingTools, path.join(RECORDING_FIXTURES, audio));
  return new Date(first.firstPacketUs / 1000 - 300);
}

/** The video size ffprobe reads (`WxH`). */
export const videoSizeOf = (file: string): string =>
  spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0:s=x',
      file,
    ],
    { encoding: 'utf8' },
  ).stdout.trim();
