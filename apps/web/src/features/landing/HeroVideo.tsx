import { useEffect, useRef } from 'react';

/**
 * The hero's background "video": a looping meeting scene drawn on a canvas (six tiles, people
 * nodding, a speaking ring moving between them, live caption bars). Nothing is fetched. It runs
 * at about 24 fps only while visible, and stands still for people who prefer reduced motion.
 */
const TILE_COLORS = ['#6366f1', '#ec4899', '#14b8a6', '#f59e0b', '#8b5cf6', '#0ea5e9'];
const LOOP_MS = 12_000;
const FRAME_MS = 1000 / 24;

function roundRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  radius: number,
) {
  const r = Math.max(0, Math.min(radius, w / 2, h / 2));
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function drawFrame(ctx: CanvasRenderingContext2D, w: number, h: number, t: number) {
  // A canvas not laid out yet (or hidden) has no room for tiles: draw nothing.
  if (w < 160 || h < 120) return;
  const phase = (t % LOOP_MS) / LOOP_MS; // 0..1, one loop
  const bg = ctx.createLinearGradient(0, 0, w, h);
  bg.addColorStop(0, '#1e1b4b');
  bg.addColorStop(1, '#4c1d95');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, w, h);

  const cols = w > 700 ? 3 : 2;
  const rows = Math.ceil(TILE_COLORS.length / cols);
  const gap = Math.max(8, w * 0.012);
  const tileW = (w - gap * (cols + 1)) / cols;
  const tileH = (h - gap * (rows + 1)) / rows;
  const speaker = Math.floor(phase * TILE_COLORS.length) % TILE_COLORS.length;

  TILE_COLORS.forEach((color, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    if (row >= rows) return;
    const x = gap + col * (tileW + gap);
    const y = gap + row * (tileH + gap);
    const r = Math.min(tileW, tileH) * 0.06;

    ctx.save();
    roundRect(ctx, x, y, tileW, tileH, r);
    ctx.clip();
    const g = ctx.createLinearGradient(x, y, x, y + tileH);
    g.addColorStop(0, '#0f172a');
    g.addColorStop(1, `${color}55`);
    ctx.fillStyle = g;
    ctx.fillRect(x, y, tileW, tileH);

    // A person: shoulders and a head that nods gently, each at its own pace.
    const bob = Math.sin(phase * Math.PI * 2 * (2 + (i % 3)) + i) * tileH * 0.015;
    const cx = x + tileW / 2 + Math.sin(phase * Math.PI * 2 + i * 1.7) * tileW * 0.02;
    const headR = Math.min(tileW, tileH) * 0.16;
    ctx.fillStyle = color;
    ctx.globalAlpha = 0.9;
    ctx.beginPath();
    ctx.ellipse(cx, y + tileH * 0.98, tileW * 0.26, tileH * 0.3, 0, Math.PI, 0);
    ctx.fill();
    ctx.beginPath();
    ctx.arc(cx, y + tileH * 0.45 + bob, headR, 0, Math.PI * 2);
    ctx.fill();
    ctx.globalAlpha = 1;

    // Name plate with a tiny audio meter for the speaker.
    ctx.fillStyle = 'rgba(15,23,42,0.65)';
    roundRect(ctx, x + 8, y + tileH - 26, Math.min(tileW * 0.45, 120), 18, 6);
    ctx.fill();
    if (i === speaker) {
      for (let b = 0; b < 4; b++) {
        const level = 0.3 + 0.7 * Math.abs(Math.sin(t / 140 + b * 1.3));
        ctx.fillStyle = '#34d399';
        ctx.fillRect(x + 14 + b * 5, y + tileH - 12 - level * 10, 3, level * 10);
      }
    }
    ctx.restore();

    if (i === speaker) {
      ctx.strokeStyle = '#34d399';
      ctx.lineWidth = 3;
      roundRect(ctx, x + 1.5, y + 1.5, tileW - 3, tileH - 3, r);
      ctx.stroke();
    }
  });

  // Live caption bars growing in, as a transcript would.
  const barW = Math.min(w * 0.6, 560);
  const grow = (phase * 4) % 1;
  ctx.fillStyle = 'rgba(15,23,42,0.7)';
  roundRect(ctx, (w - barW) / 2, h - 54, barW, 38, 10);
  ctx.fill();
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect((w - barW) / 2 + 14, h - 42, (barW - 28) * Math.min(1, grow * 1.4), 5);
  ctx.fillStyle = 'rgba(255,255,255,0.5)';
  ctx.fillRect((w - barW) / 2 + 14, h - 30, (barW - 28) * 0.7 * Math.max(0, grow * 1.4 - 0.4), 5);
}

export function HeroVideo({ className }: { className?: string }) {
  const ref = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    let raf = 0;
    let last = 0;
    let visible = true;

    const resize = () => {
      const dpr = Math.min(window.devicePixelRatio || 1, 1.5);
      canvas.width = Math.max(1, Math.round(canvas.clientWidth * dpr));
      canvas.height = Math.max(1, Math.round(canvas.clientHeight * dpr));
      drawFrame(ctx, canvas.width, canvas.height, last);
    };
    const tick = (now: number) => {
      raf = 0;
      if (!visible || document.hidden) return;
      if (now - last >= FRAME_MS) {
        last = now;
        drawFrame(ctx, canvas.width, canvas.height, now);
      }
      raf = requestAnimationFrame(tick);
    };
    const start = () => {
      if (!still && !raf) raf = requestAnimationFrame(tick);
    };

    resize();
    start();
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(resize) : null;
    ro?.observe(canvas);
    const io =
      typeof IntersectionObserver !== 'undefined'
        ? new IntersectionObserver(([entry]) => {
            visible = !!entry?.isIntersecting;
            if (visible) start();
          })
        : null;
    io?.observe(canvas);
    const onVisibility = () => start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelAnimationFrame(raf);
      ro?.disconnect();
      io?.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);

  return <canvas ref={ref} aria-hidden="true" data-testid="hero-video" className={className} />;
}
