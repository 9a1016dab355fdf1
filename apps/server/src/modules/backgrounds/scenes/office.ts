import { H, W, blurFilter, linear, radial, rng, svg, vgrad } from './svg.js';

/** Office scenes: rooms drawn from rectangles and gradients, seen from where a person sits. */

function plant(x: number, floorY: number, scale = 1): string {
  const r = rng(Math.round(x));
  let leaves = '';
  for (let i = 0; i < 9; i++) {
    const a = -150 + i * 15 + r() * 10;
    const len = (70 + r() * 50) * scale;
    const rad = (a * Math.PI) / 180;
    const lx = x + Math.cos(rad) * len;
    const ly = floorY - 90 * scale + Math.sin(rad) * len;
    leaves += `<path d="M${x},${floorY - 80 * scale} Q${(x + lx) / 2 + 12},${(floorY - 90 * scale + ly) / 2 - 18} ${lx},${ly}" stroke="${i % 2 ? '#3f7d4a' : '#2f6b3c'}" stroke-width="${14 * scale}" stroke-linecap="round" fill="none"/>`;
  }
  return (
    leaves +
    `<path d="M${x - 38 * scale},${floorY - 90 * scale} L${x + 38 * scale},${floorY - 90 * scale} L${x + 28 * scale},${floorY} L${x - 28 * scale},${floorY} Z" fill="#d9d2c5"/>` +
    `<rect x="${x - 40 * scale}" y="${floorY - 96 * scale}" width="${80 * scale}" height="${10 * scale}" rx="3" fill="#c9c0b0"/>`
  );
}

function windowGrid(
  x: number,
  y: number,
  w: number,
  h: number,
  cols: number,
  rows: number,
  frame: string,
): string {
  let bars = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="${frame}" stroke-width="14"/>`;
  for (let c = 1; c < cols; c++) {
    const bx = x + (w * c) / cols;
    bars += `<line x1="${bx}" y1="${y}" x2="${bx}" y2="${y + h}" stroke="${frame}" stroke-width="8"/>`;
  }
  for (let r = 1; r < rows; r++) {
    const by = y + (h * r) / rows;
    bars += `<line x1="${x}" y1="${by}" x2="${x + w}" y2="${by}" stroke="${frame}" stroke-width="8"/>`;
  }
  return bars;
}

function skyline(seed: number, baseY: number, colour: string, minH: number, maxH: number): string {
  const r = rng(seed);
  let x = -20;
  let out = '';
  while (x < W) {
    const w = 40 + r() * 90;
    const h = minH + r() * (maxH - minH);
    out += `<rect x="${x.toFixed(1)}" y="${(baseY - h).toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"/>`;
    x += w + 6 + r() * 10;
  }
  return out;
}

/** A bright loft: tall steel windows over a city, a wooden floor and a plant. */
export function officeLoft(): string {
  const defs =
    vgrad('sky', [
      [0, '#9cc8ee'],
      [1, '#e6f1fb'],
    ]) +
    vgrad('wall', [
      [0, '#eeeae3'],
      [1, '#d9d3c8'],
    ]) +
    vgrad('floor', [
      [0, '#b08562'],
      [1, '#7d5a3f'],
    ]) +
    radial('light', [
      [0, '#ffffff', 0.55],
      [1, '#ffffff', 0],
    ]) +
    `<clipPath id="pane"><rect x="180" y="70" width="920" height="470"/></clipPath>`;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#wall)"/>` +
    `<rect x="180" y="70" width="920" height="470" fill="url(#sky)"/>` +
    `<g clip-path="url(#pane)">${skyline(7, 540, '#a9bccd', 80, 260)}${skyline(11, 540, '#8ea4b8', 40, 170)}</g>` +
    windowGrid(180, 70, 920, 470, 5, 3, '#2e3338') +
    `<rect x="0" y="540" width="${W}" height="${H - 540}" fill="url(#floor)"/>` +
    Array.from(
      { length: 9 },
      (_, i) =>
        `<line x1="0" y1="${560 + i * 20}" x2="${W}" y2="${560 + i * 20}" stroke="#6e4f37" stroke-opacity=".25" stroke-width="2"/>`,
    ).join('') +
    `<ellipse cx="640" cy="330" rx="520" ry="300" fill="url(#light)"/>` +
    plant(1160, 640, 1.3) +
    plant(110, 620, 1);
  return svg(defs, body);
}

/** A warm study: a bookshelf full of books, a reading lamp, a framed print. */
export function homeStudy(): string {
  const r = rng(42);
  const colours = ['#8c3b2e', '#2f4f6f', '#c49a3a', '#4f6f52', '#6c4a7a', '#b5653c', '#2d5d62', '#e0c9a6'];
  let books = '';
  for (let shelf = 0; shelf < 4; shelf++) {
    const y = 130 + shelf * 120;
    let x = 660;
    while (x < 1160) {
      const w = 16 + r() * 22;
      const h = 70 + r() * 30;
      const tilt = r() < 0.08 ? -8 : 0;
      books += `<rect x="${x.toFixed(1)}" y="${(y + 100 - h).toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" rx="2" fill="${colours[Math.floor(r() * colours.length)]}" transform="rotate(${tilt} ${x} ${y + 100})"/>`;
      x += w + 2;
      if (r() < 0.07) x += 40;
    }
    books += `<rect x="640" y="${y + 100}" width="540" height="14" fill="#5a3d28"/>`;
  }
  const defs =
    vgrad('wall', [
      [0, '#d7b98f'],
      [1, '#b99a72'],
    ]) +
    radial('lamp', [
      [0, '#fff3c4', 0.9],
      [0.4, '#ffd98a', 0.35],
      [1, '#ffd98a', 0],
    ]);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#wall)"/>` +
    `<rect x="630" y="90" width="560" height="520" fill="#6b4a31"/>` +
    `<rect x="645" y="105" width="530" height="490" fill="#3d2a1c"/>` +
    books +
    `<rect x="140" y="150" width="300" height="220" fill="#f6efe2" stroke="#3b2f25" stroke-width="12"/>` +
    `<path d="M170,340 L250,240 L310,300 L350,260 L410,340 Z" fill="#7a9e9f"/><circle cx="370" cy="210" r="26" fill="#e8b04a"/>` +
    `<circle cx="260" cy="470" r="260" fill="url(#lamp)"/>` +
    `<path d="M215,420 L305,420 L285,360 L235,360 Z" fill="#f0d7a0"/><rect x="256" y="420" width="8" height="150" fill="#3b2f25"/>` +
    `<rect x="0" y="610" width="${W}" height="${H - 610}" fill="#5a3d28"/>`;
  return svg(defs, body);
}

/** A glass meeting room: a long table, chairs, the city behind glass. */
export function meetingRoom(): string {
  const defs =
    vgrad('dusk', [
      [0, '#3b4f7a'],
      [0.6, '#c98b7a'],
      [1, '#f0c08a'],
    ]) +
    vgrad('table', [
      [0, '#e8e4dc'],
      [1, '#bdb6aa'],
    ]) +
    linear(
      'glass',
      [
        [0, '#ffffff'],
        [1, '#ffffff'],
      ],
      0,
      0,
      1,
      1,
    ) +
    blurFilter('glow', 6);
  const r = rng(5);
  let lights = '';
  for (let i = 0; i < 90; i++) {
    lights += `<rect x="${(r() * W).toFixed(0)}" y="${(260 + r() * 200).toFixed(0)}" width="4" height="6" fill="#ffe7a8" opacity="${(0.4 + r() * 0.6).toFixed(2)}"/>`;
  }
  let chairs = '';
  for (let i = 0; i < 5; i++) {
    const x = 300 + i * 170;
    chairs += `<rect x="${x}" y="430" width="90" height="120" rx="18" fill="#2b2f36"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="url(#dusk)"/>` +
    skyline(23, 470, '#2a3550', 120, 330) +
    skyline(29, 470, '#1f2840', 60, 220) +
    lights +
    `<rect width="${W}" height="${H}" fill="url(#glass)" opacity=".06"/>` +
    Array.from(
      { length: 7 },
      (_, i) => `<rect x="${i * 213}" y="0" width="10" height="${H}" fill="#1a1d22" opacity=".85"/>`,
    ).join('') +
    `<rect x="0" y="470" width="${W}" height="${H - 470}" fill="#3a3f47"/>` +
    chairs +
    `<path d="M180,540 L1100,540 L1220,${H} L60,${H} Z" fill="url(#table)"/>` +
    `<ellipse cx="640" cy="40" rx="420" ry="26" fill="#fff6dc" opacity=".8" filter="url(#glow)"/>`;
  return svg(defs, body);
}

/** A coworking space: brick wall, pendant lamps, a long shared desk. */
export function coworking(): string {
  let bricks = '';
  for (let row = 0; row < 22; row++) {
    const y = row * 26;
    const offset = row % 2 ? 40 : 0;
    for (let x = -offset; x < W; x += 80) {
      const shade = (row * 7 + x) % 3;
      const fill = shade === 0 ? '#9c4a35' : shade === 1 ? '#a8553d' : '#8f432f';
      bricks += `<rect x="${x + 2}" y="${y + 2}" width="76" height="22" fill="${fill}"/>`;
    }
  }
  const defs =
    radial('pool', [
      [0, '#ffe2a6', 0.85],
      [1, '#ffe2a6', 0],
    ]) +
    vgrad('shade', [
      [0, '#000000'],
      [1, '#000000'],
    ]);
  let lamps = '';
  for (const x of [300, 640, 980]) {
    lamps +=
      `<line x1="${x}" y1="0" x2="${x}" y2="170" stroke="#222" stroke-width="3"/>` +
      `<path d="M${x - 55},230 L${x + 55},230 L${x + 25},170 L${x - 25},170 Z" fill="#1f2328"/>` +
      `<ellipse cx="${x}" cy="330" rx="190" ry="150" fill="url(#pool)"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="#6e3326"/>` +
    bricks +
    `<rect width="${W}" height="${H}" fill="url(#shade)" opacity=".25"/>` +
    lamps +
    `<rect x="0" y="560" width="${W}" height="26" fill="#c8a27a"/>` +
    `<rect x="0" y="586" width="${W}" height="${H - 586}" fill="#2a2420"/>` +
    plant(1180, 560, 1.1);
  return svg(defs, body);
}

/** A calm, minimal wall: one shelf, two framed prints, soft daylight. */
export function minimalDesk(): string {
  const defs =
    linear(
      'wall',
      [
        [0, '#f4f1ec'],
        [1, '#dcd6cc'],
      ],
      0,
      0,
      1,
      1,
    ) +
    radial('sun', [
      [0, '#fff8e8', 0.9],
      [1, '#fff8e8', 0],
    ]);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#wall)"/>` +
    `<polygon points="820,0 1280,0 1280,520 980,720 700,720" fill="url(#sun)" opacity=".7"/>` +
    `<rect x="300" y="160" width="200" height="260" fill="#fff" stroke="#2c2c2c" stroke-width="8"/>` +
    `<circle cx="400" cy="270" r="60" fill="#d96c4e"/><rect x="330" y="330" width="140" height="50" fill="#2f5d62"/>` +
    `<rect x="540" y="220" width="160" height="200" fill="#fff" stroke="#2c2c2c" stroke-width="8"/>` +
    `<path d="M560,400 C600,300 640,360 680,260" stroke="#2f5d62" stroke-width="10" fill="none"/>` +
    `<rect x="260" y="450" width="560" height="14" fill="#b08a64"/>` +
    `<rect x="300" y="400" width="34" height="50" fill="#e9e2d6"/><rect x="344" y="410" width="24" height="40" fill="#c9bca8"/>` +
    plant(760, 450, 0.6) +
    `<rect x="0" y="640" width="${W}" height="${H - 640}" fill="#cfc6b8"/>`;
  return svg(defs, body);
}
