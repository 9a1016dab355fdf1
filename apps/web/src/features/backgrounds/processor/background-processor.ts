import { Store } from '@/lib/store';
import { PREVIOUS_MASK, blurRadiusFor, type CompositeMode, type Compositor } from './compositor';
import { WEBGL_CONTEXT_ERROR } from './compositor-webgl';
import { createCompositor } from './create-compositor';
import { startFrameClock } from './frame-clock';
import type { WorkerStats } from './pipeline-protocol';
import { getSegmenter, type Segmenter } from './segmenter';
import { WorkerPipeline, workerPipelineSupported } from './worker-pipeline';

/**
 * Turns a camera track into a processed track. Where the browser can (Chromium: see
 * worker-pipeline.ts), all of it runs in a worker: the camera's frames stream there, are
 * segmented by MediaPipe Tasks on the CPU and composited on an OffscreenCanvas, and stream back
 * out as the output track; the page's main thread does nothing per frame. Measured on the 2-core
 * machine in a two-person call (bench/background-effects.ts, runs at load averages 3-15),
 * the page-thread pipeline below kept the sender's main thread 40-59% busy and the other person
 * received 47-85% of the frame rate they got without the effect; with the worker, 3.9-4.9% busy
 * and 89.5-101% of it (the target is 90%; the 89.5% run was at load 12-15).
 *
 * Elsewhere, the page-thread pipeline: a hidden <video> plays the camera, a worker clock
 * ticks at the output rate, each tick segments the current frame and composites it on a canvas,
 * and the canvas is captured as the output track. The output track is created once and stays the
 * same object whatever the effect or the camera, so a peer connection's sender is replaced once.
 *
 * While the segmenter loads, frames pass through unchanged (the output never freezes). Paused
 * (camera off, screen shared), nothing runs. The spec's errors (§8) reach `onError`.
 */

export const PROCESSOR_ERRORS = {
  notInitialized: 'Background processor not initialized',
  image: 'Failed to load background image',
  webgl: WEBGL_CONTEXT_ERROR,
} as const;

export interface ProcessorEffect {
  mode: CompositeMode;
  /** 1–10; the blur radius is twice this. */
  intensity: number;
  /** The picture for mode `image`. */
  imageUrl: string | null;
}

export type ProcessorStatus = 'initializing' | 'ready' | 'failed';

export interface ProcessorSnapshot {
  status: ProcessorStatus;
  compositor: Compositor['kind'] | null;
  /** Frames composited with a mask, and the median time one took (ms), over the last 120. */
  framesProcessed: number;
  medianMs: number | null;
}

export interface ProcessorOptions {
  fps?: number;
  onError?: (message: string) => void;
  /** The segmenter to use (tests give a fake); the page's MediaPipe one by default. */
  segmenter?: () => Promise<Segmenter>;
  /** Which compositor to make (tests); WebGL2 first, then 2D. */
  createCompositor?: (canvas: HTMLCanvasElement) => Compositor;
  /** Asks for the 2D compositor even where WebGL2 works (the demo's ?compositor=2d, to compare). */
  prefer?: Compositor['kind'];
  /** Shows the output on `canvas` (the demo's preview); a meeting only sends the track. */
  preview?: boolean;
  /** Segmentations a second in the worker pipeline (frames in between reuse the last mask). */
  segmentFps?: number;
  /** false keeps everything on the page's thread (to compare); a worker where possible otherwise. */
  worker?: boolean;
}

/**
 * Segmentations a second in the worker: every other frame of a 30 fps camera (on the 2-core
 * machine a segmented frame took 13.7-16.4 ms median, and every output frame 10.0-13.2 ms median).
 */
export const DEFAULT_SEGMENT_FPS = 15;

/** After this many failed frames in a row the effect stops and frames pass through. */
const MAX_FAILURES = 5;
const TIMINGS_KEPT = 120;
const STATS_EVERY = 15;
/**
 * Pacing, so the page keeps answering on a slow machine (measured: a host page that processed
 * back to back stopped answering clicks for 15 s in the two-participant test). After any work
 * that took d ms nothing runs for d × REST_SHARE ms; segmentation waits d × SEGMENT_REST after a
 * segmented frame, and the camera frames in between are composited with the previous mask (a few
 * ms each), so the output keeps more of the camera's rate. With a 40 ms segmentation and 9 ms
 * compositing (this machine under load) that is one segmented and two composited frames every
 * 133 ms, about 45% of the main thread; a frame that segments in under ~10 ms is never skipped.
 */
const REST_SHARE = 0.5;
const SEGMENT_REST = 2;

export { createCompositor, isSoftwareWebgl } from './create-compositor';

/** Chromium's MediaStreamTrackGenerator (not in TypeScript's DOM types): a track fed with frames. */
type TrackGeneratorCtor = new (init: { kind: 'video' }) => MediaStreamTrack & {
  writable: WritableStream<VideoFrame>;
};

export class BackgroundProcessor {
  readonly canvas: HTMLCanvasElement;
  private readonly video: HTMLVideoElement;
  /** The page-thread compositor (null when the worker pipeline runs). */
  private readonly compositor: Compositor | null = null;
  private readonly pipeline: WorkerPipeline | null = null;
  private workerStats: WorkerStats | null = null;
  private readonly store = new Store<ProcessorSnapshot>({
    status: 'initializing',
    compositor: null,
    framesProcessed: 0,
    medianMs: null,
  });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;
  private segmenter: Segmenter | null = null;
  private effect: ProcessorEffect = { mode: 'none', intensity: 5, imageUrl: null };
  private background: HTMLImageElement | null = null;
  private loadingUrl: string | null = null;
  private input: MediaStreamTrack | null = null;
  private output: MediaStreamTrack | null = null;
  private active = true;
  private busy = false;
  private failures = 0;
  private stopClock: (() => void) | null = null;
  private disposed = false;
  private readonly timings: number[] = [];
  private processed = 0;
  /** Output frames drawn with a mask (segmented ones and those in between). */
  private drawn = 0;
  private restUntil = 0;
  private segmentAfter = 0;
  private lastTick = 0;
  private writer: WritableStreamDefaultWriter<VideoFrame> | null = null;
  private writing = false;
  /** The compositor holds a mask of this camera (frames in between may reuse it). */
  private hasMask = false;
  private readonly drawTimings: number[] = [];

  constructor(private readonly opts: ProcessorOptions = {}) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 640;
    this.canvas.height = 480;
    this.video = document.createElement('video');
    this.video.muted = true;
    this.video.playsInline = true;
    this.video.autoplay = true;
    const useWorker =
      opts.worker !== false && !opts.createCompositor && !opts.segmenter && workerPipelineSupported();
    if (useWorker) {
      this.pipeline = new WorkerPipeline({
        preview: opts.preview ? this.canvas : null,
        prefer: opts.prefer ?? null,
        segmentFps: opts.segmentFps ?? DEFAULT_SEGMENT_FPS,
        onStatus: (status) => {
          if (this.disposed) return;
          this.store.patch({ status });
          if (status === 'failed' && this.effect.mode !== 'none')
            this.opts.onError?.(PROCESSOR_ERRORS.notInitialized);
        },
        onCompositor: (compositor) => this.store.patch({ compositor }),
        onError: (message) => this.opts.onError?.(message),
        onStats: (stats) => {
          this.workerStats = stats;
          const sorted = [...stats.timings].sort((a, b) => a - b);
          this.store.patch({
            framesProcessed: stats.framesProcessed,
            medianMs: sorted[Math.floor(sorted.length / 2)] ?? null,
          });
        },
      });
      return;
    }
    this.compositor = opts.createCompositor
      ? opts.createCompositor(this.canvas)
      : createCompositor(this.canvas, opts.prefer);
    this.store.patch({ compositor: this.compositor.kind });
    void (opts.segmenter ?? getSegmenter)().then(
      (s) => {
        if (this.disposed) return;
        this.segmenter = s;
        this.store.patch({ status: 'ready' });
      },
      (err: unknown) => {
        console.error('Background segmentation could not start', err);
        if (this.disposed) return;
        this.store.patch({ status: 'failed' });
        if (this.effect.mode !== 'none') this.opts.onError?.(PROCESSOR_ERRORS.notInitialized);
      },
    );
  }

  /**
   * The processed track (made on first use, then always the same one). Where the browser has
   * MediaStreamTrackGenerator (Chromium), each drawn frame is written to it: a canvas capture
   * stream only takes frames when the page renders, and a page busy with a video call and the
   * segmentation rendered so rarely that its capture stream delivered 0-1 frames a second
   * (measured with two participants in headless Chromium). Elsewhere the canvas is captured.
   */
  get outputTrack(): MediaStreamTrack {
    if (this.pipeline) return (this.output = this.pipeline.outputTrack);
    if (!this.output) {
      const Generator = (globalThis as { MediaStreamTrackGenerator?: TrackGeneratorCtor })
        .MediaStreamTrackGenerator;
      let track: MediaStreamTrack | undefined;
      if (typeof Generator === 'function' && typeof VideoFrame === 'function') {
        const generator = new Generator({ kind: 'video' });
        this.writer = generator.writable.getWriter();
        track = generator;
      } else {
        track = this.canvas.captureStream(this.opts.fps ?? 30).getVideoTracks()[0];
      }
      if (!track) throw new Error('The canvas gave no video track');
      track.contentHint = 'motion';
      this.output = track;
    }
    return this.output;
  }

  /** Hands the canvas's current picture to the generator (one write at a time; late ones drop). */
  private emit(): void {
    const writer = this.writer;
    if (!writer || this.writing) return;
    const frame = new VideoFrame(this.canvas, { timestamp: Math.round(performance.now() * 1000) });
    this.writing = true;
    writer
      .write(frame)
      .catch(() => frame.close())
      .finally(() => {
        this.writing = false;
      });
  }

  /** The camera track to process (a device switch gives a new one); null stops reading. */
  setInput(track: MediaStreamTrack | null): void {
    this.input = track;
    if (this.pipeline) {
      this.pipeline.setInput(track);
      return;
    }
    this.hasMask = false;
    this.video.srcObject = track ? new MediaStream([track]) : null;
    if (track) void this.video.play().catch(() => undefined);
    this.schedule();
  }

  setEffect(effect: ProcessorEffect): void {
    this.effect = effect;
    this.failures = 0;
    if (effect.mode !== 'none' && this.getSnapshot().status === 'failed') {
      this.opts.onError?.(PROCESSOR_ERRORS.notInitialized);
    }
    if (effect.mode === 'image' && effect.imageUrl !== this.loadingUrl) this.loadBackground(effect.imageUrl);
    this.pipeline?.setEffect(effect.mode, blurRadiusFor(effect.intensity));
  }

  /** Paused while false: no frame is read, segmented or drawn. */
  setActive(active: boolean): void {
    this.active = active;
    if (this.output) this.output.enabled = active;
    this.pipeline?.setActive(active);
    this.schedule();
  }

  private loadBackground(url: string | null): void {
    this.loadingUrl = url;
    this.background = null;
    this.pipeline?.setBackground(null);
    if (!url) return;
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    img.decode().then(
      () => {
        if (this.loadingUrl !== url || this.disposed) return;
        this.background = img;
        if (this.pipeline)
          void createImageBitmap(img).then(
            (bitmap) => {
              if (this.loadingUrl === url && !this.disposed) this.pipeline?.setBackground(bitmap);
              else bitmap.close();
            },
            () => this.opts.onError?.(PROCESSOR_ERRORS.image),
          );
      },
      () => {
        // The dark fill stands in (the compositor draws it when there is no picture).
        if (this.loadingUrl === url && !this.disposed) this.opts.onError?.(PROCESSOR_ERRORS.image);
      },
    );
  }

  private get interval(): number {
    return 1000 / (this.opts.fps ?? 30);
  }

  private schedule(): void {
    const run = this.active && !!this.input && !this.disposed && !this.pipeline;
    if (run && !this.stopClock) {
      this.stopClock = startFrameClock(this.interval, () => void this.tick());
    } else if (!run && this.stopClock) {
      this.stopClock();
      this.stopClock = null;
    }
  }

  private async tick(): Promise<void> {
    const v = this.video;
    const compositor = this.compositor;
    if (!compositor || this.busy || this.disposed || !this.active || v.readyState < 2 || !v.videoWidth)
      return;
    // Ticks that queued up while the main thread was busy arrive back to back: one frame per
    // interval, or each would draw and queue more (measured: 230 draws a second, then a crash).
    const now = performance.now();
    if (now - this.lastTick < this.interval * 0.8) return;
    this.lastTick = now;
    if (this.canvas.width !== v.videoWidth || this.canvas.height !== v.videoHeight) {
      this.canvas.width = v.videoWidth;
      this.canvas.height = v.videoHeight;
    }
    const settings = {
      mode: this.effect.mode,
      blurRadius: blurRadiusFor(this.effect.intensity),
      background: this.background,
    };
    if (settings.mode === 'none' || !this.segmenter || this.failures >= MAX_FAILURES) {
      compositor.draw(v, null, settings);
      this.emit();
      return;
    }
    // The main thread rests after each piece of work (see REST_SHARE).
    if (now < this.restUntil) return;
    // Segmentation rests longer: in between, camera frames go out with the previous mask, so
    // the output keeps the camera's frame rate when segmenting every frame is too slow.
    if (now < this.segmentAfter) {
      if (this.hasMask) {
        compositor.draw(v, PREVIOUS_MASK, settings);
        this.drawn += 1;
        this.emit();
        this.restUntil = performance.now() + (performance.now() - now) * REST_SHARE;
      }
      return;
    }
    this.busy = true;
    const started = performance.now();
    let drawMs = 0;
    try {
      await this.segmenter.segment(v, (mask) => {
        const t = performance.now();
        compositor.draw(v, mask as HTMLCanvasElement, settings);
        this.hasMask = true;
        this.drawn += 1;
        this.emit();
        drawMs = performance.now() - t;
      });
      this.failures = 0;
      const took = performance.now() - started;
      this.record(took, drawMs);
      // Leave the page's main thread idle for a share of what the frame took: a slow machine gets
      // fewer processed frames, never a page that stops answering.
      this.restUntil = performance.now() + took * REST_SHARE;
      this.segmentAfter = performance.now() + took * SEGMENT_REST;
    } catch (err) {
      this.failures += 1;
      console.error('Background processing failed on a frame', err);
      if (this.failures === MAX_FAILURES) this.opts.onError?.(PROCESSOR_ERRORS.webgl);
    } finally {
      this.busy = false;
    }
  }

  private record(ms: number, drawMs: number): void {
    this.timings.push(ms);
    this.drawTimings.push(drawMs);
    if (this.timings.length > TIMINGS_KEPT) this.timings.shift();
    if (this.drawTimings.length > TIMINGS_KEPT) this.drawTimings.shift();
    this.processed += 1;
    // Told every STATS_EVERY frames, not 30 times a second: the page re-renders on each change.
    if (this.processed % STATS_EVERY !== 1) return;
    const sorted = [...this.timings].sort((a, b) => a - b);
    this.store.patch({
      framesProcessed: this.processed,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? null,
    });
  }

  /** Frames composited with a mask so far and their median time, as of now. */
  stats(): {
    framesProcessed: number;
    framesDrawn: number;
    medianMs: number | null;
    timings: number[];
    drawTimings: number[];
    /** Every frame drawn with a mask (segmented or not): what each took (worker pipeline). */
    frameTimings?: number[];
    /** The worker's busy time so far, ms. */
    workerBusyMs?: number;
    pipeline: 'worker' | 'page';
  } {
    if (this.pipeline) {
      const w = this.workerStats;
      const sorted = [...(w?.timings ?? [])].sort((a, b) => a - b);
      return {
        framesProcessed: w?.framesProcessed ?? 0,
        framesDrawn: w?.framesDrawn ?? 0,
        medianMs: sorted[Math.floor(sorted.length / 2)] ?? null,
        timings: [...(w?.timings ?? [])],
        drawTimings: [...(w?.drawTimings ?? [])],
        frameTimings: [...(w?.frameTimings ?? [])],
        workerBusyMs: w?.busyMs ?? 0,
        pipeline: 'worker',
      };
    }
    const sorted = [...this.timings].sort((a, b) => a - b);
    return {
      framesProcessed: this.processed,
      framesDrawn: this.drawn,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? null,
      timings: [...this.timings],
      drawTimings: [...this.drawTimings],
      pipeline: 'page',
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.schedule();
    void this.writer?.close().catch(() => undefined);
    this.output?.stop();
    this.video.srcObject = null;
    this.pipeline?.dispose();
    this.compositor?.dispose();
  }
}
