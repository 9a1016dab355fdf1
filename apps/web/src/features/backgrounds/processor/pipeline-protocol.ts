import type { CompositeMode, Compositor } from './compositor';

/**
 * Messages between a BackgroundProcessor and its worker (pipeline-worker.ts). The worker reads
 * the camera's frames from `readable` (a MediaStreamTrackProcessor's), segments and composites
 * them, and writes the result to `writable` (a MediaStreamTrackGenerator's, the output track).
 */
export type ToWorker =
  | {
      type: 'start';
      /** Which processor this is (a worker serves one after another, keeping its model). */
      session: number;
      writable: WritableStream<VideoFrame>;
      /** The preview canvas (transferred), or null: the worker draws on its own. */
      canvas: OffscreenCanvas | null;
      prefer: Compositor['kind'] | null;
      /** How many frames a second are segmented; frames in between reuse the last mask. */
      segmentFps: number;
    }
  | { type: 'input'; readable: ReadableStream<VideoFrame> | null }
  | { type: 'effect'; mode: CompositeMode; blurRadius: number }
  /** The decoded picture for mode `image`; null draws the dark fill. */
  | { type: 'background'; bitmap: ImageBitmap | null }
  | { type: 'active'; active: boolean }
  /** The processor is gone: the worker stops and waits for the next one. */
  | { type: 'stop' };

export interface WorkerStats {
  /** Segmented frames, and per such frame the whole time (segmentation, compositing, output). */
  framesProcessed: number;
  timings: number[];
  /** The compositing and output part of those frames. */
  drawTimings: number[];
  /** Every output frame drawn with a mask (segmented or not), and what each took. */
  framesDrawn: number;
  frameTimings: number[];
  /** The worker's busy time since it started, ms (its share of a core over time). */
  busyMs: number;
}

/** Every answer names the session it is for; the page drops those of an earlier one. */
export type FromWorker = { session: number } & (
  | { type: 'status'; status: 'ready' | 'failed'; compositor: Compositor['kind'] | null }
  | { type: 'compositor'; compositor: Compositor['kind'] }
  | { type: 'error'; message: string }
  | ({ type: 'stats' } & WorkerStats)
);
