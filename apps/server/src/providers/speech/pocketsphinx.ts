import { ClipAbortedError, clipDurationMs, decodeClip } from './ffmpeg.js';
import { type DecoderWorker, DecoderPool } from './pocketsphinx-pool.js';
import { type BandwidthMode, SAMPLE_RATE } from './sphinx-decoder.js';
import {
  type ClipOptions,
  type PartialUtterance,
  DEFAULT_CLIP_MAX_MS,
  SpeechCapacityError,
  type SpeechStream,
  type SpeechStreamOptions,
  type SpeechToText,
  type Transcription,
  UnsupportedSpeechLanguageError,
} from './types.js';
import { pcmSamples } from './wav.js';

/**
 * The embedded speech-to-text: Debian's pocketsphinx (US English) in worker threads, one decoder
 * per speaker stream, utterances ended where speech stops. No key, no download at run time.
 */
export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface PocketsphinxOptions {
  modelDir?: string;
  /** Streams and clips decoded at once (each a decoder thread: ~120 MiB RSS, up to a core). */
  maxStreams?: number;
  /**
   * Decoders kept loaded after use (default 2): a load takes ~0.5 s, and a fresh decoder's first
   * utterances are worse (its cepstral mean starts from the model's default; a used one has
   * adapted to real microphones: the packaged card recordings had 38% WER on a fresh decoder,
   * 19% on a used one). Speakers who pause and resume get a used decoder back.
   */
  maxIdle?: number;
  /** A decoder unused this long is freed. */
  idleTimeoutMs?: number;
  /**
   * A clip's utterance longer than this is ended while speech goes on, and a clip up to this long
   * is decoded whole (default 15 s).
   */
  maxUtteranceMs?: number;
  /**
   * The same for live streams (from 3 s before it, at the first pause between words): a caption
   * line holds at most this much speech. Default 8 s (issue 37: at 15 s, continuous speech waited
   * 15 s for its first line).
   */
  liveMaxUtteranceMs?: number;
  /**
   * How often (in audio) a stream's interim words are read from its decoder while speech goes on
   * (default 300 ms; 0: none). Reading them costs a backtrace, not a decode (sphinx-decoder.ts).
   */
  partialEveryMs?: number;
  /** Audio per decoder call; the speech/silence state is read after each. */
  frameMs?: number;
  /**
   * Band-limited speech (8 kHz somewhere on its way: nothing above 4 kHz) gets its top band
   * regenerated before decoding when a stream's spectrum says so (`auto`, the default), always
   * (`extend`) or never (`off`). See bandwidth.ts; measured in bench/speech-wer.ts.
   */
  bandwidth?: BandwidthMode;
  /** Extra pocketsphinx arguments as name/value pairs, e.g. ['-vad_threshold', '2.5']. */
  extraArgs?: string[];
  /**
   * Audio a stream may have waiting for its decoder (an overloaded machine) before new audio is
   * skipped (with onError) so captions stay near real time instead of falling ever further behind.
   */
  maxBacklogMs?: number;
  /** How long a clip waits for a decoder when all are in use. */
  clipWaitMs?: number;
  /**
   * Decoders clips can never take, kept for live captions (default 2 of 4, at least one decoder
   * left to clips): a burst of uploads must not leave a meeting's speakers uncaptioned ("busy").
   */
  reservedForLive?: number;
}

/**
 * A streamed clip may run this far ahead of its decoder before ffmpeg is held back: bounded memory
 * per clip (64 KB), and an aborted clip frees its decoder within about this much decoding.
 */
const CLIP_BACKLOG_SAMPLES = 2 * SAMPLE_RATE;

const ENGLISH = new Set(['en', 'auto']);

function checkLanguage(language: string | undefined): void {
  if (language === undefined) return;
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  if (!ENGLISH.has(base)) throw new UnsupportedSpeechLanguageError('pocketsphinx', language, ['en']);
}

export class PocketsphinxSpeechToText implements SpeechToText {
  readonly name = 'pocketsphinx';
  readonly languages = ['en'] as const;
  readonly maxStreams: number;
  private readonly pool: DecoderPool;
  private readonly streams = new Set<SphinxStream>();
  private readonly maxBacklogMs: number;
  private readonly clipWaitMs: number;
  private readonly maxUtteranceMs: number;
  private readonly liveMaxUtteranceMs: number;
  /** Clips served at once: the decoders not reserved for live captions. */
  readonly maxClips: number;
  private clipsRunning = 0;
  private readonly clipsWaiting: Array<() => void> = [];

  constructor(options: PocketsphinxOptions = {}) {
    this.maxStreams = options.maxStreams ?? 4;
    this.maxClips = Math.max(1, this.maxStreams - (options.reservedForLive ?? 2));
    this.maxUtteranceMs = options.maxUtteranceMs ?? 15_000;
    this.liveMaxUtteranceMs = options.liveMaxUtteranceMs ?? 8_000;
    this.maxBacklogMs = options.maxBacklogMs ?? 30_000;
    this.clipWaitMs = options.clipWaitMs ?? 10_000;
    this.pool = new DecoderPool({
      settings: {
        modelDir: options.modelDir ?? DEFAULT_MODEL_DIR,
        extraArgs: options.extraArgs ?? [],
        frameMs: options.frameMs ?? 20,
        maxUtteranceMs: this.maxUtteranceMs,
        partialEveryMs: options.partialEveryMs ?? 300,
        bandwidth: options.bandwidth ?? 'auto',
      },
      maxDecoders: this.maxStreams,
      maxIdle: options.maxIdle ?? 2,
      idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
    });
  }

  /** Decoders loaded now (busy and idle), for logs and the benchmark. */
  get decoders(): number {
    return this.pool.size;
  }

  /** Throws SpeechCapacityError when every decoder is in use. */
  openStream(options: SpeechStreamOptions): SpeechStream {
    checkLanguage(options.language);
    const worker = this.pool.take();
    const stream = new SphinxStream(worker, options, this.maxBacklogMs, this.liveMaxUtteranceMs, () => {
      this.streams.delete(stream);
      this.pool.release(worker);
    });
    this.streams.add(stream);
    return stream;
  }

  /** Clips being transcribed now (measured, waiting for or using a decoder). */
  get clipsInFlight(): number {
    return this.clipsRunning;
  }

  /**
   * A clip: its length first (ffmpeg alone, nothing kept: an hour of MP3 is refused in ~2 s
   * without a decoder), then its PCM streamed into a decoder as ffmpeg makes it. A clip that fits
   * in one utterance is decoded whole (the better case for pocketsphinx, and at most 480 KB).
   */
  async transcribeClip(audio: Buffer, options: ClipOptions = {}): Promise<Transcription> {
    checkLanguage(options.language);
    const maxMs = options.maxMs ?? DEFAULT_CLIP_MAX_MS;
    const { signal } = options;
    const done = await this.clipSlot();
    try {
      await clipDurationMs(audio, { maxMs, signal });
      const worker = await this.pool.acquire(this.clipWaitMs);
      try {
        return { text: await this.decodeStreamed(worker, audio, maxMs, signal), language: 'en' };
      } finally {
        this.pool.release(worker);
      }
    } finally {
      done();
    }
  }

  /** One of the clip slots (maxClips), waiting up to clipWaitMs, else SpeechCapacityError. */
  private clipSlot(): Promise<() => void> {
    const release = () => {
      const next = this.clipsWaiting.shift();
      if (next) next();
      else this.clipsRunning -= 1;
    };
    if (this.clipsRunning < this.maxClips) {
      this.clipsRunning += 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const give = () => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(() => {
        this.clipsWaiting.splice(this.clipsWaiting.indexOf(give), 1);
        reject(new SpeechCapacityError(this.maxClips));
      }, this.clipWaitMs);
      this.clipsWaiting.push(give);
    });
  }

  private async decodeStreamed(
    worker: DecoderWorker,
    audio: Buffer,
    maxMs: number,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const wholeBytes = (this.maxUtteranceMs * SAMPLE_RATE * 2) / 1000;
    const head: Buffer[] = [];
    let headBytes = 0;
    let streaming = false;
    let carry: Buffer | null = null;
    let written = 0;
    let decoded = 0;
    let wake: (() => void) | null = null;
    let failure: Error | null = null;
    const texts: string[] = [];
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    /** Into the decoder in slices of a second, ffmpeg held back while it is CLIP_BACKLOG behind. */
    const feed = async (pcm: Buffer) => {
      let data = carry ? Buffer.concat([carry, pcm]) : pcm;
      carry = data.length % 2 ? Buffer.from(data.subarray(data.length - 1)) : null;
      if (carry) data = data.subarray(0, data.length - 1);
      for (let at = 0; at < data.length; at += SAMPLE_RATE * 2) {
        while (!failure && !signal?.aborted && written - decoded > CLIP_BACKLOG_SAMPLES) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        if (failure) throw failure;
        if (signal?.aborted) throw new ClipAbortedError();
        const samples = pcmSamples(data.subarray(at, at + SAMPLE_RATE * 2));
        // Counted before write(): it transfers the buffer, and a detached array has length 0.
        written += samples.length;
        worker.write(samples);
      }
    };
    try {
      for await (const piece of decodeClip(audio, { maxMs, signal })) {
        if (!streaming) {
          head.push(piece);
          headBytes += piece.length;
          if (headBytes <= wholeBytes) continue;
          streaming = true;
          worker.open({
            onUtterance: (u) => void (u.text && texts.push(u.text)),
            onProgress: (samples) => {
              decoded = samples;
              wake?.();
            },
            onError: (err) => {
              failure = err;
              wake?.();
            },
          });
          await feed(Buffer.concat(head));
          head.length = 0;
          continue;
        }
        await feed(piece);
      }
      if (!streaming) {
        if (signal?.aborted) throw new ClipAbortedError();
        return await worker.clip(pcmSamples(Buffer.concat(head)));
      }
    } finally {
      // Ends the stream (what is queued is decoded, at most the backlog) before the pool gets the
      // decoder back: a clip abandoned mid-way stops here.
      signal?.removeEventListener('abort', onAbort);
      if (streaming) await worker.end().catch(() => undefined);
    }
    if (failure) throw failure;
    return texts.join(' ');
  }

  async close(): Promise<void> {
    await Promise.all([...this.streams].map((s) => s.close()));
    await this.pool.close();
  }
}

class SphinxStream implements SpeechStream {
  private carry: Buffer | null = null;
  private written = 0;
  private decoded = 0;
  private skipping = false;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly worker: DecoderWorker,
    private readonly options: SpeechStreamOptions,
    private readonly maxBacklogMs: number,
    maxUtteranceMs: number,
    private readonly onClosed: () => void,
  ) {
    worker.open(
      {
        onUtterance: (u) => this.guard(() => options.onUtterance({ ...u, language: 'en' })),
        ...(options.onPartial
          ? { onPartial: (p: PartialUtterance) => this.guard(() => options.onPartial?.(p)) }
          : {}),
        onProgress: (samples) => {
          this.decoded = samples;
        },
        onError: (err) => this.report(err),
      },
      { maxUtteranceMs },
    );
  }

  write(pcm: Buffer): void {
    if (this.closed) return;
    let data = this.carry ? Buffer.concat([this.carry, pcm]) : pcm;
    this.carry = data.length % 2 ? Buffer.from(data.subarray(data.length - 1)) : null;
    if (this.carry) data = data.subarray(0, data.length - 1);
    if (data.length === 0) return;
    const samples = pcmSamples(data);
    // Read before write(): it transfers the buffer, and a detached array has length 0.
    const count = samples.length;
    const backlogMs = ((this.written - this.decoded) * 1000) / SAMPLE_RATE;
    if (backlogMs > this.maxBacklogMs) {
      if (!this.skipping) {
        this.report(
          new Error(
            `speech decoder is ${Math.round(backlogMs / 1000)} s behind (machine overloaded): skipping audio`,
          ),
        );
      }
      this.skipping = true;
      this.worker.skip(count);
    } else {
      this.skipping = false;
      this.worker.write(samples);
    }
    this.written += count;
  }

  flush(): Promise<void> {
    if (this.closed) return this.closing ?? Promise.resolve();
    return this.worker.flush();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      try {
        await this.worker.end();
      } catch {
        // the decoder died: its error already went to onError
      }
      this.onClosed();
    })();
    return this.closing;
  }

  private guard(deliver: () => void): void {
    try {
      deliver();
    } catch (err) {
      this.report(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private report(err: Error): void {
    try {
      this.options.onError?.(err);
    } catch {
      // a failing error handler must not take the decoder down
    }
  }
}
