import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundProcessor, DEFAULT_SEGMENT_FPS, PROCESSOR_ERRORS } from './background-processor';
import type { FromWorker, ToWorker } from './pipeline-protocol';
import { releaseIdleWorker, workerPipelineSupported } from './worker-pipeline';

/**
 * The page's side of the worker pipeline, with Chromium's classes stood in for (jsdom has none):
 * what the processor sends the worker, and what it makes of the worker's answers.
 */
type Answer = FromWorker extends infer T ? (T extends unknown ? Omit<T, 'session'> : never) : never;

class FakeWorker {
  static last: FakeWorker | null = null;
  static made = 0;
  readonly sent: { message: ToWorker; transfer: unknown[] }[] = [];
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor() {
    FakeWorker.last = this;
    FakeWorker.made += 1;
  }
  postMessage(message: ToWorker, transfer: unknown[] = []) {
    this.sent.push({ message, transfer });
  }
  terminate() {
    this.terminated = true;
  }
  /** The session of the last 'start' (the processor being served now). */
  session(): number {
    const starts = this.sent.filter((s) => s.message.type === 'start');
    return (starts.at(-1)!.message as { session: number }).session;
  }
  answer(m: Answer, session = this.session()) {
    this.onmessage?.({ data: { ...m, session } } as MessageEvent<FromWorker>);
  }
  types() {
    return this.sent.map((s) => s.message.type);
  }
}

function standIn() {
  const readables: object[] = [];
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal(
    'MediaStreamTrackProcessor',
    class {
      readable = { kind: 'readable' };
      constructor() {
        readables.push(this.readable);
      }
    },
  );
  vi.stubGlobal(
    'MediaStreamTrackGenerator',
    class {
      writable = { kind: 'writable' };
      enabled = true;
      contentHint = '';
      stop = vi.fn();
    },
  );
  vi.stubGlobal('VideoFrame', class {});
  vi.stubGlobal('OffscreenCanvas', class {});
  const offscreen = { kind: 'offscreen' };
  HTMLCanvasElement.prototype.transferControlToOffscreen = vi.fn(
    () => offscreen as unknown as OffscreenCanvas,
  );
  return { readables, offscreen };
}

afterEach(() => {
  releaseIdleWorker();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete (HTMLCanvasElement.prototype as Partial<HTMLCanvasElement>).transferControlToOffscreen;
  FakeWorker.last = null;
  FakeWorker.made = 0;
});

describe('the worker pipeline, page side', () => {
  it('is used only where the browser has every piece', () => {
    expect(workerPipelineSupported()).toBe(false);
    standIn();
    expect(workerPipelineSupported()).toBe(true);
    vi.stubGlobal('MediaStreamTrackGenerator', undefined);
    expect(workerPipelineSupported()).toBe(false);
  });

  it('hands the worker the output and camera streams, the preview canvas and each change', () => {
    const { readables, offscreen } = standIn();
    const p = new BackgroundProcessor({ preview: true });
    const worker = FakeWorker.last!;
    const start = worker.sent[0]!;
    expect(start.message).toMatchObject({ type: 'start', segmentFps: DEFAULT_SEGMENT_FPS });
    // The output track's stream and the preview canvas are transferred, not copied.
    expect(start.transfer).toContain(offscreen);
    expect(start.transfer).toContain((p.outputTrack as unknown as { writable: object }).writable);

    p.setInput({ kind: 'video' } as MediaStreamTrack);
    expect(worker.sent.at(-1)).toEqual({
      message: { type: 'input', readable: readables[0] },
      transfer: [readables[0]],
    });

    p.setEffect({ mode: 'blur', intensity: 7, imageUrl: null });
    // The spec's radius: twice the intensity.
    expect(worker.sent.at(-1)!.message).toEqual({ type: 'effect', mode: 'blur', blurRadius: 14 });

    p.setActive(false);
    expect(worker.sent.at(-1)!.message).toEqual({ type: 'active', active: false });
    expect(p.outputTrack.enabled).toBe(false);

    p.dispose();
    expect(worker.types().at(-1)).toBe('stop');
  });

  it("reuses the last processor's worker (and its model) and ignores what it said for that one", () => {
    standIn();
    const onError = vi.fn();
    const first = new BackgroundProcessor({ onError });
    const worker = FakeWorker.last!;
    const oldSession = worker.session();
    first.dispose();
    const second = new BackgroundProcessor({ onError });
    expect(FakeWorker.made).toBe(1);
    expect(worker.types().slice(-2)).toEqual(['stop', 'start']);
    expect(worker.session()).not.toBe(oldSession);
    // A late answer for the first processor changes nothing for the second.
    worker.answer({ type: 'error', message: PROCESSOR_ERRORS.webgl }, oldSession);
    worker.answer({ type: 'status', status: 'failed', compositor: '2d' }, oldSession);
    expect(onError).not.toHaveBeenCalled();
    expect(second.getSnapshot().status).toBe('initializing');
    worker.answer({ type: 'status', status: 'ready', compositor: '2d' });
    expect(second.getSnapshot().status).toBe('ready');
    second.dispose();
    // Kept for the next one until released.
    expect(worker.terminated).toBe(false);
    releaseIdleWorker();
    expect(worker.terminated).toBe(true);
  });

  it('reports ready, the worker counts, and the spec errors the worker sends', () => {
    standIn();
    const onError = vi.fn();
    const p = new BackgroundProcessor({ onError });
    const worker = FakeWorker.last!;
    expect(p.getSnapshot().status).toBe('initializing');
    worker.answer({ type: 'compositor', compositor: '2d' });
    worker.answer({ type: 'status', status: 'ready', compositor: '2d' });
    expect(p.getSnapshot()).toMatchObject({ status: 'ready', compositor: '2d' });

    worker.answer({
      type: 'stats',
      framesProcessed: 3,
      timings: [12, 14, 30],
      drawTimings: [6, 7, 8],
      framesDrawn: 6,
      frameTimings: [12, 6, 14, 6, 30, 6],
      busyMs: 74,
    });
    expect(p.stats()).toMatchObject({ framesProcessed: 3, framesDrawn: 6, medianMs: 14, pipeline: 'worker' });
    expect(p.getSnapshot().medianMs).toBe(14);

    worker.answer({ type: 'error', message: PROCESSOR_ERRORS.webgl });
    expect(onError).toHaveBeenCalledWith('Failed to create WebGL canvas context when passing video frame.');
    p.dispose();
  });

  it("says 'Background processor not initialized' when the worker's model fails and an effect is on", () => {
    standIn();
    const onError = vi.fn();
    const p = new BackgroundProcessor({ onError });
    p.setEffect({ mode: 'blur', intensity: 5, imageUrl: null });
    FakeWorker.last!.answer({ type: 'status', status: 'failed', compositor: '2d' });
    expect(p.getSnapshot().status).toBe('failed');
    expect(onError).toHaveBeenCalledWith(PROCESSOR_ERRORS.notInitialized);
    p.dispose();
  });

  it('keeps the page-thread pipeline when asked (worker: false)', () => {
    standIn();
    // jsdom draws nothing: a 2D context that is never drawn on is enough to make the compositor.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(((type: string) =>
      type === '2d' ? {} : null) as unknown as HTMLCanvasElement['getContext']);
    const p = new BackgroundProcessor({ worker: false });
    expect(FakeWorker.last).toBeNull();
    expect(p.stats().pipeline).toBe('page');
    p.dispose();
  });
});
