import type { CompositeMode, Compositor } from './compositor';
import type { FromWorker, ToWorker, WorkerStats } from './pipeline-protocol';

/** Chromium's MediaStreamTrackProcessor and MediaStreamTrackGenerator (not in TypeScript's DOM). */
type TrackProcessorCtor = new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<VideoFrame> };
type TrackGeneratorCtor = new (init: { kind: 'video' }) => MediaStreamTrack & {
  writable: WritableStream<VideoFrame>;
};
const g = globalThis as {
  MediaStreamTrackProcessor?: TrackProcessorCtor;
  MediaStreamTrackGenerator?: TrackGeneratorCtor;
};

/**
 * Whether this browser can run the effect in a worker: the camera's frames as a stream
 * (MediaStreamTrackProcessor), a track made from frames (MediaStreamTrackGenerator), both streams
 * transferable to a worker, and OffscreenCanvas there. Chromium has them all (in this version the
 * processor and generator exist on the page only, so the page makes them and hands the worker
 * their streams; Chromium then moves the frames to the worker without the page's thread).
 */
export function workerPipelineSupported(): boolean {
  return (
    typeof Worker === 'function' &&
    typeof g.MediaStreamTrackProcessor === 'function' &&
    typeof g.MediaStreamTrackGenerator === 'function' &&
    typeof VideoFrame === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
  );
}

export interface WorkerPipelineOptions {
  /** Shows the output on this canvas too (its control moves to the worker). */
  preview: HTMLCanvasElement | null;
  prefer: Compositor['kind'] | null;
  segmentFps: number;
  onStatus: (status: 'ready' | 'failed') => void;
  onCompositor: (kind: Compositor['kind']) => void;
  onError: (message: string) => void;
  onStats: (stats: WorkerStats) => void;
}

/**
 * The worker of the last processor, kept for the next one: its model (13 MB of WebAssembly
 * compiled, the graph started) took 1.4-1.9 s to be ready on the 2-core machine, which turning
 * an effect off and on again in a meeting would otherwise pay each time. Idle, it uses no CPU;
 * the page-thread pipeline likewise keeps one segmenter for the page's life.
 */
let idleWorker: Worker | null = null;
let sessions = 0;

/** Ends the kept worker (its model's memory goes with it); the next effect starts a new one. */
export function releaseIdleWorker(): void {
  idleWorker?.terminate();
  idleWorker = null;
}

/** The page's side of pipeline-worker.ts: makes the streams, sends what changes, hears back. */
export class WorkerPipeline {
  readonly outputTrack: MediaStreamTrack;
  private readonly worker: Worker;
  private readonly session = ++sessions;
  private disposed = false;

  constructor(opts: WorkerPipelineOptions) {
    const Generator = g.MediaStreamTrackGenerator!;
    const generator = new Generator({ kind: 'video' });
    generator.contentHint = 'motion';
    this.outputTrack = generator;
    this.worker =
      idleWorker ?? new Worker(new URL('./pipeline-worker.ts', import.meta.url), { type: 'module' });
    idleWorker = null;
    this.worker.onmessage = (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      if (m.session !== this.session || this.disposed) return;
      if (m.type === 'status') opts.onStatus(m.status);
      else if (m.type === 'compositor') opts.onCompositor(m.compositor);
      else if (m.type === 'error') opts.onError(m.message);
      else if (m.type === 'stats') opts.onStats(m);
    };
    this.worker.onerror = (e) => {
      console.error('The background effect worker failed', e.message);
      if (!this.disposed) opts.onStatus('failed');
    };
    const canvas = opts.preview ? opts.preview.transferControlToOffscreen() : null;
    const transfer: Transferable[] = [generator.writable];
    if (canvas) transfer.push(canvas);
    this.post(
      {
        type: 'start',
        session: this.session,
        writable: generator.writable,
        canvas,
        prefer: opts.prefer,
        segmentFps: opts.segmentFps,
      },
      transfer,
    );
  }

  private post(m: ToWorker, transfer: Transferable[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  setInput(track: MediaStreamTrack | null): void {
    if (!track) {
      this.post({ type: 'input', readable: null });
      return;
    }
    const readable = new g.MediaStreamTrackProcessor!({ track }).readable;
    this.post({ type: 'input', readable }, [readable]);
  }

  setEffect(mode: CompositeMode, blurRadius: number): void {
    this.post({ type: 'effect', mode, blurRadius });
  }

  setBackground(bitmap: ImageBitmap | null): void {
    this.post({ type: 'background', bitmap }, bitmap ? [bitmap] : []);
  }

  setActive(active: boolean): void {
    this.post({ type: 'active', active });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.post({ type: 'stop' });
    this.outputTrack.stop();
    // Kept for the next processor (one at a time; a second idle one is not needed).
    if (idleWorker) this.worker.terminate();
    else idleWorker = this.worker;
  }
}
