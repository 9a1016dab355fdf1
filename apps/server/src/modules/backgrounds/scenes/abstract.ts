import { H, W, blurFilter, linear, radial, rng, smoothRidge, svg, vgrad, wave } from './svg.js';

/** Abstract scenes: gradients, shapes and patterns. */

/** Large soft colour fields blending into each other (a "mesh gradient"). */
export function softGradient(): string {
  const defs =
    linear(
      'base',
      [
        [0, '#3a2f86'],
        [1, '#1d6f8c'],
      ],
      0,
      0,
      1,
      1,
    ) + blurFilter('melt', 90);
  const blobs: [number, number, number, string][] = [
    [240, 180, 260, '#f472b6'],
    [1000, 160, 300, '#60a5fa'],
    [700, 600, 320, '#34d399'],
    [200, 640, 240, '#fbbf24'],
    [1150, 620, 220, '#a78bfa'],
  ];
  const body =
    `<rect width="${W}" height="${H}" fill="url(#base)"/>` +
    `<g filter="url(#melt)">${blobs.map(([x, y, r, c]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${c}" opacity=".8"/>`).join('')}</g>`;
  return svg(defs, body, 0);
}

/** Low-poly triangles shading from teal to indigo. */
export function geometric(): string {
  const r = rng(1234);
  const cols = 12;
  const rows = 7;
  const cw = W / cols;
  const ch = H / rows;
  const pts: [number, number][][] = [];
  for (let j = 0; j <= rows; j++) {
    const line: [number, number][] = [];
    for (let i = 0; i <= cols; i++) {
      const jx = i > 0 && i < cols ? (r() - 0.5) * cw * 0.6 : 0;
      const jy = j > 0 && j < rows ? (r() - 0.5) * ch * 0.6 : 0;
      line.push([i * cw + jx, j * ch + jy]);
    }
    pts.push(line);
  }
  const colour = (x: number, y: number) => {
    const t = (x / W) * 0.6 + (y / H) * 0.4;
    const a = [20, 184, 166];
    const b = [67, 56, 202];
    const shade = 0.85 + r() * 0.3;
    const c = a.map((v, k) => Math.min(255, Math.round((v + (b[k]! - v) * t) * shade)));
    return `rgb(${c.join(',')})`;
  };
  let tris = '';
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const p00 = pts[j]![i]!;
      const p10 = pts[j]![i + 1]!;
      const p01 = pts[j + 1]![i]!;
      const p11 = pts[j + 1]![i + 1]!;
      for (const tri of [
        [p00, p10, p11],
        [p00, p11, p01],
      ]) {
        const cx = (tri[0]![0] + tri[1]![0] + tri[2]![0]) / 3;
        const cy = (tri[0]![1] + tri[1]![1] + tri[2]![1]) / 3;
        tris += `<polygon points="${tri.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}" fill="${colour(cx, cy)}" stroke="${colour(cx, cy)}" stroke-width="1"/>`;
      }
    }
  }
  return svg('', tris, 1.5);
}

/** Layered waves in ocean blues. */
export function waves(): string {
  const defs = vgrad('deep', [
    [0, '#e0f2fe'],
    [1, '#bae6fd'],
  ]);
  const layers: [number, number, number, number, string][] = [
    [260, 40, 1.2, 0.2, '#7dd3fc'],
    [340, 46, 1.5, 1.4, '#38bdf8'],
    [420, 50, 1.1, 2.6, '#0ea5e9'],
    [500, 44, 1.7, 0.9, '#0284c7'],
    [580, 40, 1.3, 3.3, '#0369a1'],
    [650, 30, 1.9, 2, '#075985'],
  ];
  const body =
    `<rect width="${W}" height="${H}" fill="url(#deep)"/>` +
    layers.map(([y, a, p, ph, c]) => `<path d="${smoothRidge(wave(y, a, p, ph))}" fill="${c}"/>`).join('');
  return svg(defs, body);
}

/** Out-of-focus city lights: glowing discs on a dark ground. */
export function bokeh(): string {
  const r = rng(99);
  const palette = ['#fbbf24', '#f97316', '#f472b6', '#60a5fa', '#fde68a'];
  let discs = '';
  for (let i = 0; i < 46; i++) {
    const rad = 20 + r() * 70;
    discs += `<circle cx="${(r() * W).toFixed(0)}" cy="${(r() * H).toFixed(0)}" r="${rad.toFixed(0)}" fill="${palette[Math.floor(r() * palette.length)]}" opacity="${(0.15 + r() * 0.35).toFixed(2)}"/>`;
  }
  const defs =
    radial(
      'dark',
      [
        [0, '#2a1f3d', 1],
        [1, '#07060d', 1],
      ],
      0.5,
      0.5,
      0.8,
    ) + blurFilter('lens', 6);
  const body = `<rect width="${W}" height="${H}" fill="url(#dark)"/>` + `<g filter="url(#lens)">${discs}</g>`;
  return svg(defs, body, 0);
}

/** A blueprint: a fine grid with a few drafted shapes. */
export function blueprint(): string {
  let grid = '';
  for (let x = 0; x <= W; x += 32)
    grid += `<line x1="${x}" y1="0" x2="${x}" y2="${H}" stroke="#93c5fd" stroke-opacity="${x % 160 === 0 ? 0.45 : 0.18}" stroke-width="${x % 160 === 0 ? 2 : 1}"/>`;
  for (let y = 0; y <= H; y += 32)
    grid += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="#93c5fd" stroke-opacity="${y % 160 === 0 ? 0.45 : 0.18}" stroke-width="${y % 160 === 0 ? 2 : 1}"/>`;
  const defs = radial('paper', [
    [0, '#1e4fa3', 1],
    [1, '#0f2c66', 1],
  ]);
  const ink = 'stroke="#dbeafe" stroke-opacity=".7" fill="none" stroke-width="3"';
  const body =
    `<rect width="${W}" height="${H}" fill="url(#paper)"/>` +
    grid +
    `<circle cx="1040" cy="200" r="110" ${ink}/><circle cx="1040" cy="200" r="60" ${ink}/>` +
    `<line x1="900" y1="200" x2="1180" y2="200" ${ink} stroke-dasharray="12 8"/>` +
    `<rect x="120" y="420" width="300" height="180" ${ink}/><path d="M120,420 L270,320 L420,420" ${ink}/>` +
    `<path d="${smoothRidge(wave(640, 18, 2, 0.3), 720)}" stroke="#dbeafe" stroke-opacity=".25" fill="none" stroke-width="2"/>`;
  return svg(defs, body, 0.6);
}
