import { decodeToPcm } from './ffmpeg.js';
import { type DecoderWorker, DecoderPool } from './pocketsphinx-pool.js';
import { type BandwidthMode, SAMPLE_RATE } from './sphinx-decoder.js';
import {
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
  maxUtteranceMs?: number;
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
}

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

  constructor(options: PocketsphinxOptions = {}) {
    this.maxStreams = options.maxStreams ?? 4;
    this.maxBacklogMs = options.maxBacklogMs ?? 30_000;
    this.clipWaitMs = options.clipWaitMs ?? 10_000;
    this.pool = new DecoderPool({
      settings: {
        modelDir: options.modelDir ?? DEFAULT_MODEL_DIR,
        extraArgs: options.extraArgs ?? [],
        frameMs: options.frameMs ?? 20,
        maxUtteranceMs: options.maxUtteranceMs ?? 15_000,
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
    const stream = new SphinxStream(worker, options, this.maxBacklogMs, () => {
      this.streams.delete(stream);
      this.pool.release(worker);
    });
    this.streams.add(stream);
    return stream;
  }

  async transcribeClip(audio: Buffer, options: { language?: string } = {}): Promise<Transcription> {
    checkLanguage(options.language);
    const samples = pcmSamples(await decodeToPcm(audio));
    const worker = await this.pool.acquire(this.clipWaitMs);
    try {
      return { text: await worker.clip(samples), language: 'en' };
    } finally {
      this.pool.release(worker);
    }
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
    private readonly onClosed: () => void,
  ) {
    worker.open({
      onUtterance: (u) => this.guard(() => options.onUtterance({ ...u, language: 'en' })),
      onProgress: (samples) => {
        this.decoded = samples;
      },
      onError: (err) => this.report(err),
    });
  }

  write(pcm: Buffer): void {
    if (this.closed) return;
    let data = this.carry ? Buffer.concat([this.carry, pcm]) : pcm;
    this.carry = data.length % 2 ? Buffer.from(data.subarray(data.length - 1)) : null;
    if (this.carry) data = data.subarray(0, data.length - 1);
    if (data.length === 0) return;
    const samples = pcmSamples(data);
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
      this.worker.skip(samples.length);
    } else {
      this.skipping = false;
      this.worker.write(samples);
    }
    this.written += samples.length;
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
