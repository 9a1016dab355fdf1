import {
  FALLBACK_FILL,
  PREVIOUS_MASK,
  coverTransform,
  sourceSize,
  type CompositeSettings,
  type Compositor,
  type FrameSource,
  type MaskInput,
  type OutputCanvas,
} from './compositor';

/**
 * The mask's edge is softened by this much (px of the mask, which is about half the frame's size)
 * once per new mask; scaling it up to the frame smooths it further.
 */
const EDGE_SOFTNESS_PX = 1;
/** The blurred background is made at 1/4 of the frame's size (a wide blur keeps no detail). */
const BLUR_DOWNSCALE = 4;

/**
 * A 2D context of a page's canvas or of an OffscreenCanvas (in a worker). Typed as the page's:
 * the offscreen one has every method used here, and TypeScript cannot call the overloaded
 * drawImage on a union of the two.
 */
function context2d(canvas: OutputCanvas): CanvasRenderingContext2D | null {
  return canvas.getContext('2d') as CanvasRenderingContext2D | null;
}

function canvas2d(): { canvas: OutputCanvas; ctx: CanvasRenderingContext2D } {
  const canvas =
    typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
  const ctx = context2d(canvas);
  if (!ctx) throw new Error('No 2D canvas context');
  return { canvas, ctx };
}

/**
 * Canvas-2D compositing, for browsers without WebGL2 and for software-only WebGL (where the GPU
 * is emulated on the CPU and competes with the segmentation's own WebGL): the mask (softened with
 * a small blur) cuts the person out of the frame, then the background is drawn behind
 * (`destination-over`): the frame blurred at a quarter of its size and scaled up, or the picture
 * scaled to cover. The blurred background is remade with each new mask and reused in between.
 *
 * The mask, the blurred background and the picture are scaled to the frame's size once (when they
 * change) and then copied pixel for pixel into each frame: measured in a worker on the 2-core
 * machine, a frame composited from the scaled copies took 2.6 ms against 4.1 ms when the small
 * mask and blur were scaled up in every frame.
 */
export function createCompositor2d(canvas: OutputCanvas): Compositor {
  const ctx = context2d(canvas);
  if (!ctx) throw new Error('No 2D canvas context');
  // The last mask, copied (MediaPipe's own is only valid while it is being handed over).
  const kept = canvas2d();
  const blurred = canvas2d();
  // The same three at the frame's size.
  const keptFull = canvas2d();
  const blurredFull = canvas2d();
  const pictureFull = canvas2d();
  let picture: CanvasImageSource | null = null;
  let haveMask = false;
  /** Draws `source` over the whole of `target` (made w x h), replacing what it held. */
  const scaleInto = (
    target: { canvas: OutputCanvas; ctx: CanvasRenderingContext2D },
    w: number,
    h: number,
    draw: (ctx: CanvasRenderingContext2D) => void,
  ) => {
    if (target.canvas.width !== w || target.canvas.height !== h) {
      target.canvas.width = w;
      target.canvas.height = h;
    }
    target.ctx.globalCompositeOperation = 'copy';
    draw(target.ctx);
  };
  const sized = (c: OutputCanvas, w: number, h: number) => c.width === w && c.height === h;
  const fill = `rgb(${FALLBACK_FILL.map((c) => Math.round(c * 255)).join(',')})`;
  return {
    kind: '2d',
    canvas,
    draw(frame: FrameSource, input: MaskInput, settings: CompositeSettings) {
      const { width: w, height: h } = canvas;
      const fresh = !!input && input !== PREVIOUS_MASK;
      if (fresh) {
        const size = sourceSize(input);
        kept.canvas.width = size.width;
        kept.canvas.height = size.height;
        kept.ctx.globalCompositeOperation = 'copy';
        kept.ctx.filter = `blur(${EDGE_SOFTNESS_PX}px)`;
        kept.ctx.drawImage(input, 0, 0);
        haveMask = true;
      }
      if (haveMask && (fresh || !sized(keptFull.canvas, w, h)))
        scaleInto(keptFull, w, h, (c) => c.drawImage(kept.canvas, 0, 0, w, h));
      ctx.save();
      ctx.globalCompositeOperation = 'copy';
      if (!input || !haveMask || settings.mode === 'none') {
        ctx.drawImage(frame, 0, 0, w, h);
        ctx.restore();
        return;
      }
      if (
        settings.mode === 'blur' &&
        (fresh || blurred.canvas.width === 0 || !sized(blurredFull.canvas, w, h))
      ) {
        blurred.canvas.width = Math.max(1, Math.ceil(w / BLUR_DOWNSCALE));
        blurred.canvas.height = Math.max(1, Math.ceil(h / BLUR_DOWNSCALE));
        const sigma = settings.blurRadius / BLUR_DOWNSCALE;
        // Drawn a little larger than the canvas: a blur near an edge would otherwise take in the
        // transparent outside and darken the picture's border.
        const pad = Math.ceil(2 * sigma);
        blurred.ctx.filter = `blur(${sigma}px)`;
        blurred.ctx.drawImage(
          frame,
          -pad,
          -pad,
          blurred.canvas.width + 2 * pad,
          blurred.canvas.height + 2 * pad,
        );
        scaleInto(blurredFull, w, h, (c) => c.drawImage(blurred.canvas, 0, 0, w, h));
      }
      const background = settings.background;
      if (
        settings.mode === 'image' &&
        background &&
        (background !== picture || !sized(pictureFull.canvas, w, h))
      ) {
        picture = background;
        const pic = sourceSize(background);
        const cover = coverTransform({ width: w, height: h }, pic);
        scaleInto(pictureFull, w, h, (c) =>
          c.drawImage(
            background,
            cover.offsetX * pic.width,
            cover.offsetY * pic.height,
            cover.scaleX * pic.width,
            cover.scaleY * pic.height,
            0,
            0,
            w,
            h,
          ),
        );
      }
      ctx.drawImage(keptFull.canvas, 0, 0);
      ctx.globalCompositeOperation = 'source-in';
      ctx.drawImage(frame, 0, 0, w, h);
      ctx.globalCompositeOperation = 'destination-over';
      if (settings.mode === 'blur') {
        ctx.drawImage(blurredFull.canvas, 0, 0);
      } else if (background) {
        ctx.drawImage(pictureFull.canvas, 0, 0);
      } else {
        ctx.fillStyle = fill;
        ctx.fillRect(0, 0, w, h);
      }
      ctx.restore();
    },
    dispose() {
      kept.canvas.width = blurred.canvas.width = 0;
      keptFull.canvas.width = blurredFull.canvas.width = pictureFull.canvas.width = 0;
      picture = null;
    },
  };
}
