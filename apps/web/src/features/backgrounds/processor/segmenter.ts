import type { Results, SelfieSegmentation } from '@mediapipe/selfie_segmentation';
// The MediaPipe solution and every file it loads, served from our own origin (Vite copies each
// into the build with a content hash). Nothing comes from a CDN: locateFile below maps each
// name MediaPipe asks for to our copy.
import binarypbUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.binarypb?url';
import solutionUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.js?url';
import modelUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.tflite?url';
import landscapeModelUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite?url';
import simdDataUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.data?url';
import simdJsUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.js?url';
import simdWasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.wasm?url';
import wasmJsUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.js?url';
import wasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.wasm?url';

/**
 * Person segmentation in the browser with MediaPipe Selfie Segmentation, loaded once per page.
 * The package is a closure-compiled script that defines `window.SelfieSegmentation`, not an ES
 * module (bundling it breaks its globals), so it is added as a <script> from our origin.
 *
 * The landscape model (256x144 input) is used: it is the cheaper of the two and made for video
 * calls. Inference runs on the CPU (TFLite with XNNPACK in WebAssembly): measured in headless
 * Chromium on this 2-core machine, GPU inference took 265-380 ms a frame through its software
 * WebGL, CPU inference 55-77 ms from a 640x480 input and 22-26 ms from the same frame scaled to
 * 320x240 first, which is why frames are scaled down here (the model sees 256x144 anyway; the
 * compositor upsamples the mask with a soft edge). The mask MediaPipe answers is an image that is
 * only valid inside its callback, so callers consume it there (`segment(image, use)`).
 */

/** The width frames are scaled to before segmentation (height keeps the frame's aspect). */
export const SEGMENTATION_WIDTH = 320;

export const ASSET_URLS: Record<string, string> = {
  'selfie_segmentation.binarypb': binarypbUrl,
  'selfie_segmentation.tflite': modelUrl,
  'selfie_segmentation_landscape.tflite': landscapeModelUrl,
  'selfie_segmentation_solution_simd_wasm_bin.data': simdDataUrl,
  'selfie_segmentation_solution_simd_wasm_bin.js': simdJsUrl,
  'selfie_segmentation_solution_simd_wasm_bin.wasm': simdWasmUrl,
  'selfie_segmentation_solution_wasm_bin.js': wasmJsUrl,
  'selfie_segmentation_solution_wasm_bin.wasm': wasmUrl,
};

/** MediaPipe asks for its files by name; an unknown one is a packaging bug, said loudly. */
export function locateSegmentationFile(file: string): string {
  const url = ASSET_URLS[file];
  if (!url) throw new Error(`MediaPipe asked for an unknown file: ${file}`);
  return url;
}

export type SegmenterImage = HTMLVideoElement | HTMLCanvasElement | HTMLImageElement;
export type MaskUser = (mask: CanvasImageSource, image: CanvasImageSource) => void;

export interface Segmenter {
  /** Segments one frame; `use` gets the mask (person = opaque) while it is valid. */
  segment(image: SegmenterImage, use: MaskUser): Promise<void>;
}

type SelfieSegmentationCtor = new (config: { locateFile: (file: string) => string }) => SelfieSegmentation;

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Could not load the segmentation model'));
    document.head.appendChild(script);
  });
}

async function createSegmenter(): Promise<Segmenter> {
  const w = window as unknown as { SelfieSegmentation?: SelfieSegmentationCtor };
  if (!w.SelfieSegmentation) await loadScript(solutionUrl);
  const Ctor = w.SelfieSegmentation;
  if (!Ctor) throw new Error('The segmentation model did not load');
  const solution = new Ctor({ locateFile: locateSegmentationFile });
  // useCpuInference is a real option of the solution that its typings leave out.
  solution.setOptions({ modelSelection: 1, selfieMode: false, useCpuInference: true } as Parameters<
    SelfieSegmentation['setOptions']
  >[0]);
  let current: MaskUser | null = null;
  solution.onResults((results: Results) => {
    current?.(results.segmentationMask, results.image);
  });
  await solution.initialize();
  const small = document.createElement('canvas');
  const ctx = small.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas context');
  // One frame at a time: MediaPipe's graph is not re-entrant.
  let queue: Promise<void> = Promise.resolve();
  return {
    segment(image, use) {
      const run = queue.then(async () => {
        const { width, height } = imageSize(image);
        if (!width || !height) return;
        small.width = SEGMENTATION_WIDTH;
        small.height = Math.round((SEGMENTATION_WIDTH * height) / width);
        ctx.drawImage(image, 0, 0, small.width, small.height);
        current = use;
        try {
          await solution.send({ image: small });
        } finally {
          current = null;
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

function imageSize(image: SegmenterImage): { width: number; height: number } {
  if (image instanceof HTMLVideoElement) return { width: image.videoWidth, height: image.videoHeight };
  if (image instanceof HTMLImageElement) return { width: image.naturalWidth, height: image.naturalHeight };
  return { width: image.width, height: image.height };
}

let shared: Promise<Segmenter> | null = null;

/** The page's one segmenter, created on first use; a failed load is tried again next time. */
export function getSegmenter(): Promise<Segmenter> {
  if (!shared) {
    shared = createSegmenter();
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}
