import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Audio in any container → 16 kHz mono signed 16-bit little-endian PCM, through the `ffmpeg`
 * command (Debian's ffmpeg package): whole clips, and the persistent per-stream decoder a
 * MediaRecorder stream needs (only its first WebM chunk carries the header, so later chunks
 * cannot be decoded alone; one ffmpeg fed every chunk in order decodes all of them).
 */
export const FFMPEG = 'ffmpeg';
const PCM_OUT = ['-f', 's16le', '-acodec', 'pcm_s16le', '-ar', '16000', '-ac', '1'];
/** ffmpeg's complaints kept for an error message (the end of its stderr). */
const STDERR_KEEP = 2_000;

/** The ffmpeg executable on PATH, or null. */
export function findFfmpeg(pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, FFMPEG);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

function run(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(FFMPEG, ['-hide_banner', '-nostats', '-loglevel', 'error', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function keepTail(child: ChildProcessWithoutNullStreams): () => string {
  let tail = '';
  child.stderr.on('data', (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-STDERR_KEEP);
  });
  return () => tail.trim().split('\n').slice(-3).join(' | ');
}

export class AudioDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

/**
 * A whole clip in any format ffmpeg reads → PCM. The clip goes through a temporary file rather
 * than a pipe: MP4/M4A files often keep their index at the end, which a pipe cannot seek to.
 */
export async function decodeToPcm(audio: Buffer, options: { timeoutMs?: number } = {}): Promise<Buffer> {
  if (audio.length === 0) throw new AudioDecodeError('the audio is empty');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-audio-'));
  try {
    const input = path.join(dir, 'input');
    await writeFile(input, audio);
    const child = run(['-nostdin', '-i', input, '-vn', ...PCM_OUT, 'pipe:1']);
    const stderr = keepTail(child);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', (err) => reject(new AudioDecodeError(`cannot run ffmpeg: ${err.message}`)));
      child.once('close', (c) => resolve(c));
    }).finally(() => clearTimeout(timer));
    if (code !== 0) {
      throw new AudioDecodeError(
        code === null
          ? 'ffmpeg took too long to decode the audio'
          : `ffmpeg cannot decode the audio: ${stderr().split(`${input}: `).join('')}`,
      );
    }
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface PcmStreamDecoder {
  /** The next chunk of the stream, in order (the first one carries the container's header). */
  write(chunk: Buffer): void;
  /** No more chunks: resolves once every sample was emitted and ffmpeg exited. */
  end(): Promise<void>;
  /** Stops now (kills ffmpeg); resolves when it exited. Safe to call twice or after end(). */
  close(): Promise<void>;
}

export interface PcmStreamOptions {
  /** ffmpeg's name of the container; MediaRecorder's 'audio/webm;codecs=opus' is 'webm'. */
  format?: string;
  onPcm(pcm: Buffer): void;
  /** ffmpeg failed (bad data, crash); the decoder is finished after it. */
  onError?(err: Error): void;
}

/**
 * One persistent ffmpeg for one recording: chunks are written as they arrive, PCM is emitted as
 * soon as ffmpeg decodes it (`-flush_packets 1`: without it ffmpeg holds back ~1 s of output).
 */
export function createPcmStreamDecoder(options: PcmStreamOptions): PcmStreamDecoder {
  const child = run([
    // Start decoding at once instead of probing the first seconds of the stream.
    '-probesize',
    '4096',
    '-analyzeduration',
    '0',
    '-f',
    options.format ?? 'webm',
    '-i',
    'pipe:0',
    '-vn',
    ...PCM_OUT,
    '-flush_packets',
    '1',
    'pipe:1',
  ]);
  const stderr = keepTail(child);
  let stopping = false;
  let failed = false;
  const fail = (err: Error) => {
    if (failed || stopping) return;
    failed = true;
    options.onError?.(err);
  };
  child.stdout.on('data', (pcm: Buffer) => options.onPcm(pcm));
  // ffmpeg leaving early makes later writes fail with EPIPE: reported once, through onError.
  child.stdin.on('error', (err) => fail(new AudioDecodeError(`ffmpeg stopped reading: ${err.message}`)));
  child.once('error', (err) => fail(new AudioDecodeError(`cannot run ffmpeg: ${err.message}`)));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void exited.then((code) => {
    if (code !== 0)
      fail(new AudioDecodeError(`ffmpeg cannot decode the stream: ${stderr() || `exit ${code}`}`));
  });

  return {
    write(chunk) {
      if (stopping || failed || !child.stdin.writable) return;
      child.stdin.write(chunk);
    },
    async end() {
      if (!stopping && child.stdin.writable) child.stdin.end();
      await exited;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        stopping = true;
        child.stdin.destroy();
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}
