import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CLIP_MAX_MS } from './types.js';

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
 * The containers a clip may come in (ffmpeg demuxer names; `matroska` is WebM too, `mov` is
 * MP4/M4A). Anything else, notably the `hls` and `concat` playlists, which name further inputs
 * to open, is refused before a byte is decoded (security review, issue 34 item 8).
 */
export const CLIP_FORMATS = ['wav', 'mp3', 'ogg', 'matroska', 'webm', 'flac', 'mov', 'aac'] as const;
/** 16 kHz mono s16le: bytes per millisecond. */
const PCM_BYTES_PER_MS = 32;

/** The clip holds more audio than allowed (however long its header says it is). */
export class ClipTooLongError extends AudioDecodeError {
  constructor(readonly maxMs: number) {
    super(`the audio is longer than ${Math.round(maxMs / 1000)} seconds`);
    this.name = 'ClipTooLongError';
  }
}

/** The clip is in a container (or a playlist) that is not accepted. */
export class ClipFormatError extends AudioDecodeError {
  constructor(detail: string) {
    super(`the audio format is not accepted (${detail})`);
    this.name = 'ClipFormatError';
  }
}

/** The caller went away (its request was aborted): ffmpeg was killed. */
export class ClipAbortedError extends Error {
  constructor() {
    super('the clip was abandoned by its caller');
    this.name = 'ClipAbortedError';
  }
}

export interface ClipDecodeOptions {
  /** Decoded audio allowed (default 10 minutes); past it ffmpeg is killed: ClipTooLongError. */
  maxMs?: number;
  /** Aborting kills ffmpeg (ClipAbortedError). */
  signal?: AbortSignal;
  /** ffmpeg is killed past this (default 60 s). */
  timeoutMs?: number;
}

/**
 * A whole clip → its PCM, in pieces as ffmpeg decodes them (a consumer slower than ffmpeg holds
 * it back: stdout is read only as the pieces are taken). The clip goes in on stdin and ffmpeg may
 * open nothing else (`-protocol_whitelist pipe`: no file:, http: or other URL a container could
 * name) and read only the containers of CLIP_FORMATS. The limit is counted on the decoded samples,
 * not read from a header that can lie; ffmpeg is killed when the clip reaches it, when the caller
 * aborts, on the time budget, and when the consumer stops early.
 */
export async function* decodeClip(audio: Buffer, options: ClipDecodeOptions): AsyncGenerator<Buffer> {
  if (audio.length === 0) throw new AudioDecodeError('the audio is empty');
  if (options.signal?.aborted) throw new ClipAbortedError();
  const child = run([
    '-nostdin',
    '-protocol_whitelist',
    'pipe',
    '-format_whitelist',
    CLIP_FORMATS.join(','),
    '-i',
    'pipe:0',
    '-vn',
    ...PCM_OUT,
    'pipe:1',
  ]);
  const stderr = keepTail(child);
  let why: Error | null = null;
  const kill = (reason: Error) => {
    why ??= reason;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const onAbort = () => kill(new ClipAbortedError());
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timer = setTimeout(
    () => kill(new AudioDecodeError(`ffmpeg took longer than ${timeoutMs / 1000} s to decode the audio`)),
    timeoutMs,
  );
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (err) => {
      why ??= new AudioDecodeError(`cannot run ffmpeg: ${err.message}`);
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  // ffmpeg stops reading when it gives up or is killed: the rest of the clip is not wanted.
  child.stdin.on('error', () => undefined);
  child.stdin.end(audio);
  const maxMs = options.maxMs ?? DEFAULT_CLIP_MAX_MS;
  const maxBytes = maxMs * PCM_BYTES_PER_MS;
  let total = 0;
  try {
    for await (const piece of child.stdout as AsyncIterable<Buffer>) {
      total += piece.length;
      if (total > maxBytes) kill(new ClipTooLongError(maxMs));
      if (why) break;
      yield piece;
    }
    const code = await exited;
    if (why) throw why;
    if (code !== 0) {
      const said = stderr();
      if (/not on whitelist|Unsafe file name|Protocol not found/i.test(said)) {
        const format = /\[(\w+) @/.exec(said)?.[1];
        throw new ClipFormatError(format ? `${format} is not an audio container we read` : said);
      }
      throw new AudioDecodeError(`ffmpeg cannot decode the audio: ${said || `exit ${code}`}`);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    kill(why ?? new ClipAbortedError());
    await exited;
  }
}

/** How much audio a clip holds, decoding it once (nothing kept) and stopping at the limit. */
export async function clipDurationMs(audio: Buffer, options: ClipDecodeOptions = {}): Promise<number> {
  let bytes = 0;
  for await (const piece of decodeClip(audio, options)) bytes += piece.length;
  return bytes / PCM_BYTES_PER_MS;
}

/** A whole clip → all its PCM at once (at most `maxMs` of it: 32 KB a second). */
export async function decodeToPcm(audio: Buffer, options: ClipDecodeOptions = {}): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of decodeClip(audio, options)) pieces.push(piece);
  return Buffer.concat(pieces);
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
