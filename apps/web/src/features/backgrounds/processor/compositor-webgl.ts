import {
  FALLBACK_FILL,
  blurPlan,
  coverTransform,
  sourceSize,
  PREVIOUS_MASK,
  type CompositeSettings,
  type Compositor,
  type FrameSource,
  type MaskInput,
  type OutputCanvas,
} from './compositor';

/**
 * GPU compositing with WebGL2. Per frame: the camera frame and the mask are uploaded as textures;
 * for blur, a two-pass Gaussian runs on a scaled-down copy, weighting each sample by how much it
 * is background (so the person does not bleed into the blur as a halo); the final pass mixes the
 * frame over the background by the mask, softened with a 3x3 tent filter and a smoothstep.
 */

export const WEBGL_CONTEXT_ERROR = 'Failed to create WebGL canvas context when passing video frame.';

const VERTEX = `#version 300 es
in vec2 a_pos;
out vec2 v_uv;
void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}`;

/** One direction of the Gaussian. Pass 1 also weights by background-ness (premultiplied). */
const BLUR = `#version 300 es
precision mediump float;
uniform sampler2D u_src;
uniform sampler2D u_mask;
uniform vec2 u_step;
uniform float u_sigma;
uniform int u_taps;
uniform bool u_weighted;
uniform bool u_maskFlipped;
in vec2 v_uv;
out vec4 o;
void main() {
  vec4 acc = vec4(0.0);
  float norm = 0.0;
  for (int i = -u_taps; i <= u_taps; i++) {
    float x = float(i);
    float g = exp(-0.5 * x * x / (u_sigma * u_sigma));
    vec2 uv = v_uv + u_step * x;
    vec4 c = texture(u_src, uv);
    if (u_weighted) {
      float w = 1.0 - texture(u_mask, u_maskFlipped ? vec2(uv.x, 1.0 - uv.y) : uv).r;
      c = vec4(c.rgb * w, w);
    }
    acc += c * g;
    norm += g;
  }
  o = acc / norm;
}`;

const COMPOSITE = `#version 300 es
precision mediump float;
uniform sampler2D u_frame;
uniform sampler2D u_mask;
uniform sampler2D u_bg;
uniform int u_mode;
uniform vec2 u_maskTexel;
uniform vec4 u_cover;
uniform vec3 u_fill;
uniform bool u_maskFlipped;
in vec2 v_uv;
out vec4 o;
float m(vec2 d) {
  vec2 uv = u_maskFlipped ? vec2(v_uv.x, 1.0 - v_uv.y) : v_uv;
  return texture(u_mask, uv + d * u_maskTexel).r;
}
void main() {
  vec3 f = texture(u_frame, v_uv).rgb;
  if (u_mode == 0) { o = vec4(f, 1.0); return; }
  float mask = (4.0 * m(vec2(0.0))
    + 2.0 * (m(vec2(1.0, 0.0)) + m(vec2(-1.0, 0.0)) + m(vec2(0.0, 1.0)) + m(vec2(0.0, -1.0)))
    + m(vec2(1.0, 1.0)) + m(vec2(-1.0, 1.0)) + m(vec2(1.0, -1.0)) + m(vec2(-1.0, -1.0))) / 16.0;
  float a = smoothstep(0.3, 0.7, mask);
  vec3 bg;
  if (u_mode == 1) {
    vec4 b = texture(u_bg, v_uv);
    bg = b.a > 0.004 ? b.rgb / b.a : f;
  } else if (u_mode == 2) {
    bg = texture(u_bg, v_uv * u_cover.xy + u_cover.zw).rgb;
  } else {
    bg = u_fill;
  }
  o = vec4(mix(bg, f, a), 1.0);
}`;

function compile(gl: WebGL2RenderingContext, vs: string, fs: string): WebGLProgram {
  const program = gl.createProgram();
  for (const [type, src] of [
    [gl.VERTEX_SHADER, vs],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) throw new Error(WEBGL_CONTEXT_ERROR);
    gl.shaderSource(shader, src);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS))
      throw new Error(`shader: ${gl.getShaderInfoLog(shader) ?? 'did not compile'}`);
    gl.attachShader(program, shader);
  }
  gl.bindAttribLocation(program, 0, 'a_pos');
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS))
    throw new Error(`program: ${gl.getProgramInfoLog(program) ?? 'did not link'}`);
  return program;
}

function texture(gl: WebGL2RenderingContext): WebGLTexture {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}

interface Target {
  tex: WebGLTexture;
  fbo: WebGLFramebuffer;
  width: number;
  height: number;
}

/** Throws when WebGL2 is not available; the caller then falls back to the 2D compositor. */
export function createCompositorWebgl(canvas: OutputCanvas): Compositor {
  const context = canvas.getContext('webgl2', {
    alpha: false,
    antialias: false,
    premultipliedAlpha: false,
  }) as WebGL2RenderingContext | null;
  if (!context) throw new Error(WEBGL_CONTEXT_ERROR);
  const gl: WebGL2RenderingContext = context;
  const blurProgram = compile(gl, VERTEX, BLUR);
  const compositeProgram = compile(gl, VERTEX, COMPOSITE);
  const quad = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, quad);
  // One triangle that covers the viewport.
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);

  const frameTex = texture(gl);
  const maskTex = texture(gl);
  const bgTex = texture(gl);
  let bgSource: CanvasImageSource | null = null;
  let maskSize = { width: 1, height: 1 };
  let blurred: WebGLTexture | null = null;
  /**
   * WebGL ignores UNPACK_FLIP_Y_WEBGL for ImageBitmaps (MediaPipe's mask is one), so such a mask
   * lies upside down compared with the frame and is sampled flipped.
   */
  let maskFlipped = false;
  const targets: Target[] = [];
  const uniforms = new Map<string, WebGLUniformLocation | null>();
  const u = (program: WebGLProgram, name: string) => {
    const key = `${program === blurProgram ? 'b' : 'c'}:${name}`;
    if (!uniforms.has(key)) uniforms.set(key, gl.getUniformLocation(program, name));
    return uniforms.get(key) ?? null;
  };

  function target(i: number, width: number, height: number): Target {
    let t = targets[i];
    if (t && t.width === width && t.height === height) return t;
    if (t) {
      gl.deleteTexture(t.tex);
      gl.deleteFramebuffer(t.fbo);
    }
    const tex = texture(gl);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    t = { tex, fbo, width, height };
    targets[i] = t;
    return t;
  }

  function upload(tex: WebGLTexture, source: TexImageSource): void {
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
  }

  function bind(unit: number, tex: WebGLTexture): void {
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, tex);
  }

  function blur(radius: number, width: number, height: number): WebGLTexture {
    const plan = blurPlan(radius);
    const w = Math.max(1, Math.ceil(width / plan.downscale));
    const h = Math.max(1, Math.ceil(height / plan.downscale));
    const a = target(0, w, h);
    const b = target(1, w, h);
    gl.useProgram(blurProgram);
    gl.uniform1i(u(blurProgram, 'u_src'), 0);
    gl.uniform1i(u(blurProgram, 'u_mask'), 1);
    gl.uniform1f(u(blurProgram, 'u_sigma'), plan.sigma);
    gl.uniform1i(u(blurProgram, 'u_taps'), plan.taps);
    gl.uniform1i(u(blurProgram, 'u_maskFlipped'), maskFlipped ? 1 : 0);
    gl.viewport(0, 0, w, h);
    // Horizontal, from the frame, weighted by background-ness.
    gl.bindFramebuffer(gl.FRAMEBUFFER, a.fbo);
    bind(0, frameTex);
    bind(1, maskTex);
    gl.uniform2f(u(blurProgram, 'u_step'), 1 / w, 0);
    gl.uniform1i(u(blurProgram, 'u_weighted'), 1);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    // Vertical, of the weighted result.
    gl.bindFramebuffer(gl.FRAMEBUFFER, b.fbo);
    bind(0, a.tex);
    gl.uniform2f(u(blurProgram, 'u_step'), 0, 1 / h);
    gl.uniform1i(u(blurProgram, 'u_weighted'), 0);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    return b.tex;
  }

  return {
    kind: 'webgl2',
    canvas,
    draw(frame: FrameSource, mask: MaskInput, settings: CompositeSettings) {
      if (gl.isContextLost()) throw new Error(WEBGL_CONTEXT_ERROR);
      const { width, height } = canvas;
      upload(frameTex, frame);
      const mode =
        !mask || settings.mode === 'none' ? 0 : settings.mode === 'blur' ? 1 : settings.background ? 2 : 3;
      let bg: WebGLTexture = frameTex;
      if (mask && mask !== PREVIOUS_MASK && mode !== 0) {
        upload(maskTex, mask);
        maskSize = sourceSize(mask);
        maskFlipped = typeof ImageBitmap !== 'undefined' && mask instanceof ImageBitmap;
      }
      // The blurred background is made with each new mask; frames in between (PREVIOUS_MASK) reuse
      // it: a blurred room hardly changes in 100 ms, and the blur is most of the GPU's work.
      if (mode === 1)
        bg =
          mask === PREVIOUS_MASK && blurred ? blurred : (blurred = blur(settings.blurRadius, width, height));
      if (mode === 2 && settings.background) {
        if (bgSource !== settings.background) {
          upload(bgTex, settings.background as TexImageSource);
          bgSource = settings.background;
        }
        bg = bgTex;
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, width, height);
      gl.useProgram(compositeProgram);
      bind(0, frameTex);
      bind(1, maskTex);
      bind(2, bg);
      gl.uniform1i(u(compositeProgram, 'u_frame'), 0);
      gl.uniform1i(u(compositeProgram, 'u_mask'), 1);
      gl.uniform1i(u(compositeProgram, 'u_bg'), 2);
      gl.uniform1i(u(compositeProgram, 'u_mode'), mode);
      gl.uniform1i(u(compositeProgram, 'u_maskFlipped'), maskFlipped ? 1 : 0);
      gl.uniform2f(
        u(compositeProgram, 'u_maskTexel'),
        1.5 / Math.max(1, maskSize.width),
        1.5 / Math.max(1, maskSize.height),
      );
      const cover =
        mode === 2 && settings.background
          ? coverTransform({ width, height }, sourceSize(settings.background))
          : { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0 };
      // Texture rows are flipped on upload, so the vertical offset counts from the bottom.
      gl.uniform4f(u(compositeProgram, 'u_cover'), cover.scaleX, cover.scaleY, cover.offsetX, cover.offsetY);
      gl.uniform3f(u(compositeProgram, 'u_fill'), ...FALLBACK_FILL);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    },
    dispose() {
      for (const t of targets) {
        gl.deleteTexture(t.tex);
        gl.deleteFramebuffer(t.fbo);
      }
      for (const t of [frameTex, maskTex, bgTex]) gl.deleteTexture(t);
      gl.deleteProgram(blurProgram);
      gl.deleteProgram(compositeProgram);
      gl.deleteBuffer(quad);
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    },
  };
}
