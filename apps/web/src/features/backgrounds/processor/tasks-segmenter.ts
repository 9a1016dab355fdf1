import { ImageSegmenter } from '@mediapipe/tasks-vision';
import wasmLoaderUrl from '@mediapipe/tasks-vision/vision_wasm_module_internal.js?url';
import wasmBinaryUrl from '@mediapipe/tasks-vision/vision_wasm_module_internal.wasm?url';
// The same landscape selfie model the MediaPipe solution uses (segmenter.ts), from our origin.
import landscapeModelUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite?url';
import { imageMetadata, withMetadata } from './tflite-metadata';

/**
 * Person segmentation with MediaPipe Tasks' ImageSegmenter on the CPU (TFLite with XNNPACK in
 * WebAssembly), made to run in a worker (the older solution in segmenter.ts needs a page's DOM).
 * The model is the landscape selfie model (input 256x144) that `@mediapipe/selfie_segmentation`
 * ships; Tasks needs to be told how to scale its pixels, which that file does not say, so the
 * metadata is added on load (tflite-metadata.ts): (x - 0) / 255, as that package's own graph does.
 * Every file (loader, wasm, model) is served from our origin; nothing comes from a CDN.
 *
 * Measured in a worker of headless Chromium on the 2-core machine (load 1.9), fake camera: 8.4 ms
 * median from a 640x480 VideoFrame (its mask comes back at 640x480), 5.0 ms from the frame drawn
 * at the model's own 256x144 first (plus 1.5 ms for that draw), so frames are scaled down first.
 */

/** The model's input size: frames are drawn at this size before segmentation. */
export const MODEL_WIDTH = 256;
export const MODEL_HEIGHT = 144;

export interface SegmentationMask {
  width: number;
  height: number;
  /** Person confidence 0–1 per pixel, row by row from the top. */
  data: Float32Array;
}

export interface FrameSegmenter {
  segment(image: OffscreenCanvas, timestampMs: number): SegmentationMask;
  close(): void;
}

export async function createTasksSegmenter(): Promise<FrameSegmenter> {
  // A static file of the build, not an API call (apiRequest is for /api and runs on the page).
  // eslint-disable-next-line no-restricted-globals
  const response = await fetch(landscapeModelUrl);
  if (!response.ok) throw new Error(`The segmentation model did not load (${response.status})`);
  const model = withMetadata(
    new Uint8Array(await response.arrayBuffer()),
    imageMetadata('selfie_segmentation_landscape', 0, 255),
  );
  const segmenter = await ImageSegmenter.createFromOptions(
    { wasmLoaderPath: wasmLoaderUrl, wasmBinaryPath: wasmBinaryUrl },
    {
      baseOptions: { modelAssetBuffer: model, delegate: 'CPU' },
      runningMode: 'VIDEO',
      outputConfidenceMasks: true,
      outputCategoryMask: false,
    },
  );
  let last = -1;
  return {
    segment(image, timestampMs) {
      // Tasks refuses a timestamp that does not grow.
      const ts = Math.max(Math.round(timestampMs), last + 1);
      last = ts;
      let mask: SegmentationMask | null = null;
      segmenter.segmentForVideo(image, ts, (result) => {
        const m = result.confidenceMasks?.[0];
        // The mask lives only inside this callback: copied out.
        if (m) mask = { width: m.width, height: m.height, data: m.getAsFloat32Array().slice() };
      });
      if (!mask) throw new Error('The segmenter gave no mask');
      return mask;
    },
    close() {
      segmenter.close();
    },
  };
}
