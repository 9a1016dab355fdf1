import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AudioDecodeError,
  ClipAbortedError,
  ClipFormatError,
  ClipTooLongError,
  clipDurationMs,
  createPcmStreamDecoder,
  decodeToPcm,
} from './ffmpeg.js';
import { requireCommand, speak, wavPcm } from './testing/audio.js';

let dir: string;
let wavFile: string;
/** A browser-like recording: the flite sentence as WebM/Opus, as MediaRecorder makes it. */
let webm: Buffer;

beforeAll(() => {
  requireCommand('flite', 'flite');
  requireCommand('ffmpeg', 'ffmpeg', ['-version']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'parley-ffmpeg-'));
  wavFile = speak(dir, 'sentence', 'We decided to hire two more engineers for the support team next month.');
  const out = path.join(dir, 'sentence.webm');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-i',
    wavFile,
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-f',
    'webm',
    out,
  ]);
  webm = readFileSync(out);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const expectLengthNear = (pcm: Buffer, expected: number) => {
  expect(pcm.length).toBeGreaterThan(expected * 0.95);
  expect(pcm.length).toBeLessThan(expected * 1.05);
};

describe('decodeToPcm', () => {
  it('decodes any container to 16 kHz mono PCM of the same duration', async () => {
    const original = wavPcm(wavFile);
    expectLengthNear(await decodeToPcm(readFileSync(wavFile)), original.length);
    expectLengthNear(await decodeToPcm(webm), original.length);
  });

  it('says clearly when the bytes are not audio', async () => {
    await expect(decodeToPcm(Buffer.from('this is not audio at all'))).rejects.toThrow(AudioDecodeError);
    await expect(decodeToPcm(Buffer.alloc(0))).rejects.toThrow(/empty/);
  });

  it('refuses playlists that name other inputs: HLS and concat pointing at a local file', async () => {
    const hls = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile://${wavFile}\n#EXT-X-ENDLIST\n`;
    await expect(decodeToPcm(Buffer.from(hls))).rejects.toThrow(ClipFormatError);
    const concat = `ffconcat version 1.0\nfile ${wavFile}\n`;
    await expect(decodeToPcm(Buffer.from(concat))).rejects.toThrow(/concat is not an audio container/);
  });

  it('counts the decoded audio against the limit and stops there', async () => {
    const wav = readFileSync(wavFile);
    const ms = await clipDurationMs(wav);
    expect(ms).toBeGreaterThan(2000);
    await expect(clipDurationMs(wav, { maxMs: 1000 })).rejects.toThrow(ClipTooLongError);
  });

  it('kills ffmpeg when the caller aborts', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(decodeToPcm(readFileSync(wavFile), { signal: abort.signal })).rejects.toThrow(
      ClipAbortedError,
    );
  });
});

describe('createPcmStreamDecoder', () => {
  it('decodes a WebM/Opus stream whose header arrives only in its first chunk', async () => {
    const pieces: Buffer[] = [];
    const errors: Error[] = [];
    const decoder = createPcmStreamDecoder({ onPcm: (p) => pieces.push(p), onError: (e) => errors.push(e) });
    // Eight chunks cut anywhere, as MediaRecorder's timeslice cuts them (only the first has the header).
    const size = Math.ceil(webm.length / 8);
    for (let at = 0; at < webm.length; at += size) {
      decoder.write(webm.subarray(at, at + size));
      await new Promise((r) => setTimeout(r, 20));
    }
    // PCM comes out while the stream is still open, not only at its end.
    for (let i = 0; i < 100 && pieces.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(pieces.length).toBeGreaterThan(0);
    await decoder.end();

    expect(errors).toEqual([]);
    expectLengthNear(Buffer.concat(pieces), wavPcm(wavFile).length);
  });

  it('stops ffmpeg on close, mid-stream', async () => {
    const errors: Error[] = [];
    const decoder = createPcmStreamDecoder({ onPcm: () => undefined, onError: (e) => errors.push(e) });
    decoder.write(webm.subarray(0, 2000));
    await decoder.close();
    await decoder.close();
    decoder.write(webm.subarray(2000, 4000)); // ignored after close
    expect(errors).toEqual([]);
  });

  it('reports a stream that is not WebM through onError', async () => {
    const errors: Error[] = [];
    const decoder = createPcmStreamDecoder({ onPcm: () => undefined, onError: (e) => errors.push(e) });
    decoder.write(Buffer.from('not a webm header, just words'.repeat(20)));
    await decoder.end();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AudioDecodeError);
  });
});
