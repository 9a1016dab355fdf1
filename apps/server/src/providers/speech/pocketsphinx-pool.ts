import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { workerEntry as entryOf } from '../../lib/worker-entry.js';
import type { DecodedPartial, DecodedUtterance, DecoderSettings } from './sphinx-decoder.js';
import { SpeechCapacityError } from './types.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/**
 * Decoder workers (one pocketsphinx decoder each) and the pool that hands them to streams and
 * clips: at most `maxDecoders` at once (each ~120 MiB of RSS with its thread, and up to a core),
 * a few kept warm after use (a model load takes ~0.5 s), the rest freed after `idleTimeoutMs`.
 */

/** The decoder worker's file (see lib/worker-entry.ts). */
export function workerEntry(): { file: string; bootstrap?: string } {
  return entryOf(import.meta.url, 'pocketsphinx-worker');
}

export interface WorkerSession {
  onUtterance(utterance: DecodedUtterance): void;
  /** The words so far of the utterance in progress (optional: clips ignore them). */
  onPartial?(partial: DecodedPartial): void;
  /** Samples decoded since the stream was opened. */
  onProgress(samples: number): void;
  onError(err: Error): void;
}

interface Pending {
  resolve(value: string): void;
  reject(err: Error): void;
}

export class DecoderWorker {
  private readonly worker: Worker;
  private session: WorkerSession | null = null;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private exited = false;
  private readonly exit: Promise<void>;
  /** Set when the decoder could not be made or the thread died. */
  failure: Error | null = null;
  loadMs: number | null = null;
  idleSince = 0;

  constructor(settings: DecoderSettings, onGone: (w: DecoderWorker) => void) {
    const entry = workerEntry();
    if (!existsSync(entry.file)) {
      throw new Error(`speech decoder worker not found at ${entry.file} (build the server with build.mjs)`);
    }
    this.worker = entry.bootstrap
      ? new Worker(entry.bootstrap, { eval: true, workerData: settings })
      : new Worker(entry.file, { workerData: settings });
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (err: Error) => this.fail(new Error(`speech decoder crashed: ${err.message}`)));
    this.exit = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.exited = true;
        this.fail(new Error('speech decoder stopped'));
        onGone(this);
        resolve();
      }),
    );
  }

  /** A busy worker keeps the process alive (a CLI awaiting its clip); an idle one does not. */
  hold(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  /** Starts a stream on this decoder; its utterances go to `session`. */
  open(session: WorkerSession, options: { maxUtteranceMs?: number } = {}): void {
    this.session = session;
    this.post({ type: 'open', partials: !!session.onPartial, ...options });
  }

  write(samples: Int16Array): void {
    this.post({ type: 'pcm', samples }, [samples.buffer as ArrayBuffer]);
  }

  skip(samples: number): void {
    this.post({ type: 'skip', samples });
  }

  flush(): Promise<void> {
    return this.request((seq) => ({ type: 'flush', seq })).then(() => undefined);
  }

  /** Ends the stream (delivering its last utterance); the session is detached afterwards. */
  async end(): Promise<void> {
    try {
      await this.request((seq) => ({ type: 'end', seq }));
    } finally {
      this.session = null;
    }
  }

  clip(samples: Int16Array): Promise<string> {
    return this.request((seq) => ({ type: 'clip', seq, samples }), [samples.buffer as ArrayBuffer]);
  }

  /** Frees the decoder's native memory, then the thread ends (terminated if it does not). */
  async free(): Promise<void> {
    if (this.exited) return;
    this.post({ type: 'free' });
    const timer = setTimeout(() => void this.worker.terminate(), 5_000);
    await this.exit;
    clearTimeout(timer);
  }

  private request(make: (seq: number) => ToWorker, transfer: ArrayBuffer[] = []): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = ++this.seq;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.post(make(seq), transfer);
    });
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (!this.exited) this.worker.postMessage(message, transfer);
  }

  private receive(m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        this.loadMs = m.loadMs;
        break;
      case 'failed':
        this.fail(new Error(`speech decoder could not start: ${m.message}`));
        break;
      case 'utterance':
        this.session?.onUtterance(m.utterance);
        break;
      case 'partial':
        this.session?.onPartial?.(m.partial);
        break;
      case 'progress':
        this.session?.onProgress(m.samples);
        break;
      case 'done':
      case 'clip': {
        const pending = this.pending.get(m.seq);
        this.pending.delete(m.seq);
        pending?.resolve(m.type === 'clip' ? m.text : '');
        break;
      }
      case 'error': {
        const err = new Error(`speech decoder: ${m.message}`);
        const pending = m.seq === undefined ? undefined : this.pending.get(m.seq);
        if (pending && m.seq !== undefined) {
          this.pending.delete(m.seq);
          pending.reject(err);
        } else this.session?.onError(err);
        break;
      }
    }
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.session?.onError(err);
  }
}

export interface PoolOptions {
  settings: DecoderSettings;
  maxDecoders: number;
  /** Decoders kept loaded after use, ready for the next stream. */
  maxIdle: number;
  idleTimeoutMs: number;
}

export class DecoderPool {
  private readonly idle: DecoderWorker[] = [];
  private readonly all = new Set<DecoderWorker>();
  private readonly waiting: Array<(w: DecoderWorker) => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  get size(): number {
    return this.all.size;
  }

  get busy(): number {
    return this.all.size - this.idle.length;
  }

  /** A decoder now, or a SpeechCapacityError when all `maxDecoders` are in use. */
  take(): DecoderWorker {
    if (this.closed) throw new Error('speech-to-text is closed');
    let worker = this.idle.pop();
    if (!worker) {
      if (this.all.size >= this.options.maxDecoders) throw new SpeechCapacityError(this.options.maxDecoders);
      worker = new DecoderWorker(this.options.settings, (w) => this.forget(w));
      this.all.add(worker);
    }
    worker.hold(true);
    return worker;
  }

  /** A decoder, waiting up to `waitMs` for one to be released when all are in use. */
  async acquire(waitMs: number): Promise<DecoderWorker> {
    try {
      return this.take();
    } catch (err) {
      if (!(err instanceof SpeechCapacityError)) throw err;
      return new Promise<DecoderWorker>((resolve, reject) => {
        const give = (w: DecoderWorker) => {
          clearTimeout(timer);
          w.hold(true);
          resolve(w);
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(give), 1);
          reject(err);
        }, waitMs);
        this.waiting.push(give);
      });
    }
  }

  release(worker: DecoderWorker): void {
    if (!this.all.has(worker)) return;
    if (worker.failure || this.closed) return void this.drop(worker);
    const next = this.waiting.shift();
    if (next) return next(worker);
    worker.idleSince = Date.now();
    worker.hold(false);
    this.idle.push(worker);
    while (this.idle.length > this.options.maxIdle) this.drop(this.idle.shift()!);
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.all].map((w) => this.drop(w)));
  }

  private drop(worker: DecoderWorker): Promise<void> {
    this.forget(worker);
    return worker.free();
  }

  private forget(worker: DecoderWorker): void {
    this.all.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** Frees decoders idle longer than idleTimeoutMs. */
  private schedule(): void {
    if (this.timer || this.idle.length === 0) return;
    const oldest = Math.min(...this.idle.map((w) => w.idleSince));
    const delay = Math.max(0, oldest + this.options.idleTimeoutMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = Date.now();
      for (const w of [...this.idle]) if (now - w.idleSince >= this.options.idleTimeoutMs) void this.drop(w);
      this.schedule();
    }, delay);
    this.timer.unref();
  }
}
