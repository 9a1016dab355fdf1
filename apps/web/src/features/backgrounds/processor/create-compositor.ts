import type { Compositor, OutputCanvas } from './compositor';
import { createCompositor2d } from './compositor-2d';
import { createCompositorWebgl } from './compositor-webgl';

/**
 * True when WebGL runs on a software rasterizer (SwiftShader, llvmpipe): the "GPU" is the CPU,
 * and its work queues behind the segmentation's own WebGL readbacks. Measured in headless
 * Chromium on this machine: with GPU compositing the segmented frames took 30-900 ms (stalls
 * while the GPU process caught up), with the 2D canvas a steady 46-57 ms.
 */
export function isSoftwareWebgl(): boolean {
  try {
    const probe =
      typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
    const gl = probe.getContext('webgl2') as WebGL2RenderingContext | null;
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

/** WebGL2 on a real GPU; the 2D canvas without one (or when asked, to compare). */
export function createCompositor(canvas: OutputCanvas, prefer?: Compositor['kind']): Compositor {
  if (prefer === '2d' || (prefer !== 'webgl2' && isSoftwareWebgl())) return createCompositor2d(canvas);
  try {
    return createCompositorWebgl(canvas);
  } catch (err) {
    console.warn('WebGL2 compositing unavailable, using the 2D canvas', err);
    return createCompositor2d(canvas);
  }
}
