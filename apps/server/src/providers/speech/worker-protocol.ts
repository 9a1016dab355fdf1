import type { DecodedPartial, DecodedUtterance, DecoderSettings } from './sphinx-decoder.js';

/**
 * Messages between the server thread (pocketsphinx-pool.ts) and one decoder worker
 * (pocketsphinx-worker.ts). A worker holds one decoder and serves one stream or clip at a time.
 */
export type ToWorker =
  /**
   * A stream; `partials`: its interim words are sent too (live captions, not clips);
   * `maxUtteranceMs`: its longest utterance, when shorter than the decoder's setting.
   */
  | { type: 'open'; partials?: boolean; maxUtteranceMs?: number }
  /** 16 kHz mono s16 samples (the buffer is transferred). */
  | { type: 'pcm'; samples: Int16Array }
  /** Audio skipped on overload: ends the utterance in progress and moves the clock on. */
  | { type: 'skip'; samples: number }
  | { type: 'flush'; seq: number }
  /** Flushes, then leaves the decoder idle. */
  | { type: 'end'; seq: number }
  | { type: 'clip'; seq: number; samples: Int16Array }
  /**
   * Frees the decoder, then the worker ends. Workers share the process's native heap, so ending
   * one with terminate() would leak its ~90 MiB decoder: always free first.
   */
  | { type: 'free' };

export type FromWorker =
  | { type: 'ready'; loadMs: number }
  /** The decoder could not be made (library, model or arguments): the worker then exits. */
  | { type: 'failed'; message: string }
  | { type: 'utterance'; utterance: DecodedUtterance }
  /** The words so far of the utterance in progress (streams with partialEveryMs only). */
  | { type: 'partial'; partial: DecodedPartial }
  /** Samples decoded since the stream was opened (sent now and then, for the backlog). */
  | { type: 'progress'; samples: number }
  | { type: 'done'; seq: number }
  | { type: 'clip'; seq: number; text: string }
  | { type: 'error'; seq?: number; message: string };

export type WorkerData = DecoderSettings;
