/// <reference lib="webworker" />
import { PREVIOUS_MASK, type CompositeMode, type Compositor } from './compositor';
import { WEBGL_CONTEXT_ERROR } from './compositor-webgl';
import { createCompositor } from './create-compositor';
import type { FromWorker, ToWorker } from './pipeline-protocol';
import { MODEL_HEIGHT, MODEL_WIDTH, createTasksSegmenter, type FrameSegmenter } from './tasks-segmenter';

/**
 * The background effect's frame loop, off the page's main thread: camera frames in, segmented at
 * up to `segmentFps` (scaled to the model's 256x144 first), composited on an OffscreenCanvas,
 * frames out. The page's main thread does nothing per frame. Between segmentations a frame is
 * composited with the last mask, which is smoothed over time (a mix with the one before) so its
 * edge does not flicker. With effect None, or before the model is ready, frames pass through.
 */

/** The session (one BackgroundProcessor) being served: answers carry it, so stale ones drop. */
let session = 0;
const post = (m: DistributiveOmit<FromWorker, 'session'>) =>
  (self as DedicatedWorkerGlobalScope).postMessage({ ...m, session } as FromWorker);
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

// TFLite writes its INFO lines ("Created TensorFlow Lite XNNPACK delegate for CPU.") to stderr,
// which Emscripten hands to console.error: told as the information they are, in this worker only.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('INFO:')) console.info(...args);
  else consoleError(...args);
};

/** After this many failed frames in a row the effect stops and frames pass through. */
const MAX_FAILURES = 5;
const TIMINGS_KEPT = 120;
const STATS_EVERY = 15;
/** The new mask's share when it is mixed with the previous one. */
const MASK_NEW_WEIGHT = 0.7;

let canvas: OffscreenCanvas | null = null;
let compositor: Compositor | null = null;
let writer: WritableStreamDefaultWriter<VideoFrame> | null = null;
let reader: ReadableStreamDefaultReader<VideoFrame> | null = null;
let segmenter: FrameSegmenter | null = null;
let segmentEveryMs = 1000 / 15;
let mode: CompositeMode = 'none';
let blurRadius = 10;
let background: OffscreenCanvas | null = null;
let pictureVersion = 0;
let active = true;
let wake: (() => void) | null = null;
/** The model, loaded once per worker and kept while the page reuses the worker. */
let loading: Promise<FrameSegmenter> | null = null;
let failures = 0;

const small = new OffscreenCanvas(MODEL_WIDTH, MODEL_HEIGHT);
const smallCtx = small.getContext('2d', { willReadFrequently: false }) as OffscreenCanvasRenderingContext2D;
const maskCanvas = new OffscreenCanvas(MODEL_WIDTH, MODEL_HEIGHT);
const maskCtx = maskCanvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
let maskImage: ImageData | null = null;
let smoothed: Float32Array | null = null;
let hasMask = false;
let lastSegmentAt = -Infinity;

const stats = {
  framesProcessed: 0,
  timings: [] as number[],
  drawTimings: [] as number[],
  framesDrawn: 0,
  frameTimings: [] as number[],
  busyMs: 0,
};
const keep = (list: number[], v: number) => {
  list.push(v);
  if (list.length > TIMINGS_KEPT) list.shift();
};

/**
 * The new mask mixed with the previous one, as the alpha (and red, for WebGL) of maskCanvas. A
 * mask of another moment (before a pause, another camera, another effect) is not mixed in.
 */
function storeMask(data: Float32Array, width: number, height: number): void {
  if (!hasMask || maskCanvas.width !== width || maskCanvas.height !== height || !maskImage || !smoothed) {
    maskCanvas.width = width;
    maskCanvas.height = height;
    maskImage = new ImageData(width, height);
    smoothed = new Float32Array(width * height);
    smoothed.set(data);
  } else {
    for (let i = 0; i < data.length; i++)
      smoothed[i] = MASK_NEW_WEIGHT * data[i]! + (1 - MASK_NEW_WEIGHT) * smoothed[i]!;
  }
  const px = maskImage.data;
  for (let i = 0, j = 0; i < smoothed.length; i++, j += 4) {
    const v = Math.round(255 * smoothed[i]!);
    px[j] = px[j + 1] = px[j + 2] = px[j + 3] = v;
  }
  maskCtx.putImageData(maskImage, 0, 0);
}

async function process(frame: VideoFrame): Promise<void> {
  if (!canvas || !compositor || !writer) {
    frame.close();
    return;
  }
  const started = performance.now();
  const w = frame.displayWidth;
  const h = frame.displayHeight;
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const settings = { mode, blurRadius, background };
  const effect = mode !== 'none' && !!segmenter && failures < MAX_FAILURES;
  let segmented = false;
  let drawStart = started;
  try {
    if (!effect) {
      compositor.draw(frame, null, settings);
    } else {
      if (started - lastSegmentAt >= segmentEveryMs * 0.9 || !hasMask) {
        lastSegmentAt = started;
        smallCtx.drawImage(frame, 0, 0, MODEL_WIDTH, MODEL_HEIGHT);
        const mask = segmenter!.segment(small, frame.timestamp / 1000);
        storeMask(mask.data, mask.width, mask.height);
        hasMask = true;
        segmented = true;
      }
      drawStart = performance.now();
      compositor.draw(frame, segmented ? maskCanvas : PREVIOUS_MASK, settings);
    }
    failures = 0;
  } catch (err) {
    failures += 1;
    console.error('Background processing failed on a frame', err);
    // The spec's error for a frame that cannot be processed, as on the page's pipeline.
    if (failures === MAX_FAILURES) post({ type: 'error', message: WEBGL_CONTEXT_ERROR });
    // The camera frame as it is, rather than none.
    try {
      compositor.draw(frame, null, { ...settings, mode: 'none' });
    } catch {
      // The canvas keeps its last picture.
    }
  }
  let out: VideoFrame;
  try {
    out = new VideoFrame(canvas, { timestamp: frame.timestamp });
  } catch (err) {
    console.error('No output frame could be made', err);
    return;
  } finally {
    frame.close();
  }
  const ended = performance.now();
  stats.busyMs += ended - started;
  if (effect) {
    stats.framesDrawn += 1;
    keep(stats.frameTimings, ended - started);
    if (segmented) {
      stats.framesProcessed += 1;
      keep(stats.timings, ended - started);
      keep(stats.drawTimings, ended - drawStart);
    }
    if (stats.framesDrawn % STATS_EVERY === 1) sendStats();
  }
  try {
    await writer.write(out);
  } catch {
    out.close();
  }
}

function sendStats(): void {
  post({
    type: 'stats',
    ...stats,
    timings: [...stats.timings],
    drawTimings: [...stats.drawTimings],
    frameTimings: [...stats.frameTimings],
  });
}

/** Reads frames while active; paused (camera off), nothing is read or drawn. */
async function pump(r: ReadableStreamDefaultReader<VideoFrame>): Promise<void> {
  while (reader === r) {
    if (!active) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    let result: ReadableStreamReadResult<VideoFrame>;
    try {
      result = await r.read();
    } catch {
      return;
    }
    if (result.done) return;
    if (reader !== r || !active) {
      result.value.close();
      continue;
    }
    try {
      await process(result.value);
    } catch (err) {
      // One bad frame must not stop the loop (process closes the frame it was given).
      console.error('Background processing failed on a frame', err);
    }
  }
}

function toCanvas(bitmap: ImageBitmap): Promise<OffscreenCanvas> {
  // A canvas, not the bitmap: WebGL ignores UNPACK_FLIP_Y for ImageBitmaps.
  const c = new OffscreenCanvas(bitmap.width, bitmap.height);
  (c.getContext('2d') as OffscreenCanvasRenderingContext2D).drawImage(bitmap, 0, 0);
  bitmap.close();
  return Promise.resolve(c);
}

/** Ends the session: nothing is read, drawn or written; the model stays for the next one. */
function stop(): void {
  const r = reader;
  reader = null;
  void r?.cancel().catch(() => undefined);
  void writer?.close().catch(() => undefined);
  writer = null;
  compositor?.dispose();
  compositor = null;
  canvas = null;
  mode = 'none';
  background = null;
  pictureVersion += 1;
  active = true;
  wake?.();
  wake = null;
  hasMask = false;
  failures = 0;
  lastSegmentAt = -Infinity;
  stats.framesProcessed = stats.framesDrawn = stats.busyMs = 0;
  stats.timings.length = stats.drawTimings.length = stats.frameTimings.length = 0;
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  switch (m.type) {
    case 'start': {
      stop();
      session = m.session;
      canvas = m.canvas ?? new OffscreenCanvas(640, 480);
      compositor = createCompositor(canvas, m.prefer ?? undefined);
      segmentEveryMs = 1000 / m.segmentFps;
      writer = m.writable.getWriter();
      post({ type: 'compositor', compositor: compositor.kind });
      // The model is loaded by the worker's first session and reused by the next ones.
      if (!loading) {
        loading = createTasksSegmenter();
        loading.catch(() => (loading = null));
      }
      const forSession = session;
      loading.then(
        (s) => {
          segmenter = s;
          if (forSession === session)
            post({ type: 'status', status: 'ready', compositor: compositor?.kind ?? null });
        },
        (err: unknown) => {
          console.error('Background segmentation could not start', err);
          if (forSession === session)
            post({ type: 'status', status: 'failed', compositor: compositor?.kind ?? null });
        },
      );
      break;
    }
    case 'input': {
      void reader?.cancel().catch(() => undefined);
      reader = m.readable ? m.readable.getReader() : null;
      hasMask = false;
      if (reader) void pump(reader);
      break;
    }
    case 'effect': {
      if (m.mode !== mode) hasMask = false;
      mode = m.mode;
      blurRadius = m.blurRadius;
      failures = 0;
      break;
    }
    case 'background': {
      background = null;
      if (m.bitmap) {
        const bitmap = m.bitmap;
        pictureVersion += 1;
        const version = pictureVersion;
        void toCanvas(bitmap).then((c) => {
          if (version === pictureVersion) background = c;
        });
      } else {
        pictureVersion += 1;
      }
      break;
    }
    case 'active': {
      active = m.active;
      hasMask = false;
      if (active) {
        wake?.();
        wake = null;
      }
      break;
    }
    case 'stop': {
      stop();
      break;
    }
  }
};
