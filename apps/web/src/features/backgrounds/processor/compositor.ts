/**
 * Compositing a person over a new background, given the camera frame and the segmentation mask
 * (person = 1). Two implementations share this interface: WebGL2 on the GPU (compositor-webgl.ts)
 * and a canvas-2D fallback (compositor-2d.ts) for browsers without WebGL2.
 */

export type CompositeMode = 'none' | 'blur' | 'image';

export interface CompositeSettings {
  mode: CompositeMode;
  /** Blur strength in output pixels (the Gaussian's standard deviation): 2 × intensity. */
  blurRadius: number;
  /** The picture for `image`; null draws a dark fill instead. */
  background: CanvasImageSource | null;
}

export type FrameSource = TexImageSource & CanvasImageSource;

/** The mask of the last segmented frame, kept by the compositor for frames in between. */
export const PREVIOUS_MASK = 'previous';
export type MaskInput = FrameSource | typeof PREVIOUS_MASK | null;

/** A page's canvas, or a worker's OffscreenCanvas. */
export type OutputCanvas = HTMLCanvasElement | OffscreenCanvas;

export interface Compositor {
  readonly kind: 'webgl2' | '2d';
  readonly canvas: OutputCanvas;
  /**
   * Draws one output frame. Without a mask (or in mode `none`) the frame is drawn as it is;
   * PREVIOUS_MASK reuses the last mask given (segmentation runs slower than the camera).
   */
  draw(frame: FrameSource, mask: MaskInput, settings: CompositeSettings): void;
  dispose(): void;
}

/** The fill behind the person when a background picture cannot be loaded (spec §8: a dark fill). */
export const FALLBACK_FILL: [number, number, number] = [0.09, 0.11, 0.15];

/** The spec's blur radius: twice the intensity (1–10), in pixels of the camera frame. */
export function blurRadiusFor(intensity: number): number {
  return 2 * intensity;
}

/**
 * Where a background picture is sampled so that it covers the frame without stretching (as CSS
 * object-fit: cover): the scale and offset to apply to the frame's texture coordinates.
 */
export function coverTransform(
  frame: { width: number; height: number },
  picture: { width: number; height: number },
): { scaleX: number; scaleY: number; offsetX: number; offsetY: number } {
  if (!frame.width || !frame.height || !picture.width || !picture.height)
    return { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0 };
  const frameAspect = frame.width / frame.height;
  const pictureAspect = picture.width / picture.height;
  if (pictureAspect > frameAspect) {
    const scaleX = frameAspect / pictureAspect;
    return { scaleX, scaleY: 1, offsetX: (1 - scaleX) / 2, offsetY: 0 };
  }
  const scaleY = pictureAspect / frameAspect;
  return { scaleX: 1, scaleY, offsetX: 0, offsetY: (1 - scaleY) / 2 };
}

/**
 * How the GPU blur is run for a radius: on a frame scaled down by `downscale` (a wide Gaussian
 * keeps no detail a full-size pass would), with `taps` samples each side of the centre.
 */
export function blurPlan(radius: number): { downscale: number; sigma: number; taps: number } {
  const downscale = radius >= 8 ? 4 : 2;
  const sigma = Math.max(0.5, radius / downscale);
  return { downscale, sigma, taps: Math.min(32, Math.ceil(2.5 * sigma)) };
}

export function sourceSize(s: CanvasImageSource): { width: number; height: number } {
  if (typeof HTMLVideoElement !== 'undefined' && s instanceof HTMLVideoElement)
    return { width: s.videoWidth, height: s.videoHeight };
  if (typeof HTMLImageElement !== 'undefined' && s instanceof HTMLImageElement)
    return { width: s.naturalWidth, height: s.naturalHeight };
  if (typeof VideoFrame !== 'undefined' && s instanceof VideoFrame)
    return { width: s.displayWidth, height: s.displayHeight };
  const sized = s as { width: number | SVGAnimatedLength; height: number | SVGAnimatedLength };
  return {
    width: typeof sized.width === 'number' ? sized.width : sized.width.baseVal.value,
    height: typeof sized.height === 'number' ? sized.height : sized.height.baseVal.value,
  };
}
