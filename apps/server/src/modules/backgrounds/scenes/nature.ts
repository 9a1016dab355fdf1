import { H, W, blurFilter, radial, ridge, rng, smoothRidge, svg, vgrad, wave } from './svg.js';

/** Nature scenes: layered silhouettes with atmospheric gradients. */

function peaks(seed: number, baseY: number, height: number, count: number): [number, number][] {
  const r = rng(seed);
  const pts: [number, number][] = [[-20, baseY]];
  for (let i = 0; i <= count; i++) {
    const x = (i / count) * (W + 40) - 20;
    const peak = i % 2 === 1;
    pts.push([x, baseY - (peak ? height * (0.6 + r() * 0.4) : height * r() * 0.35)]);
  }
  pts.push([W + 20, baseY]);
  return pts;
}

/** Snowy mountains over a still lake that mirrors them. */
export function mountainLake(): string {
  const defs =
    vgrad('sky', [
      [0, '#5b8fc9'],
      [0.7, '#cfe3f3'],
      [1, '#f6efe0'],
    ]) +
    vgrad('lake', [
      [0, '#6f9cc0'],
      [1, '#2f5576'],
    ]) +
    vgrad('far', [
      [0, '#f4f7fb'],
      [0.35, '#9fb4c9'],
      [1, '#7f97ae'],
    ]) +
    vgrad('near', [
      [0, '#4e6b5a'],
      [1, '#2e4a3a'],
    ]);
  const far = peaks(3, 430, 260, 8);
  const near = peaks(9, 450, 150, 10);
  const mirror = (pts: [number, number][]) => pts.map(([x, y]) => [x, 900 - y] as [number, number]);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<circle cx="980" cy="140" r="46" fill="#fff7df" opacity=".9"/>` +
    `<path d="${ridge(far, 450)}" fill="url(#far)"/>` +
    `<path d="${ridge(near, 455)}" fill="url(#near)"/>` +
    `<rect x="0" y="450" width="${W}" height="${H - 450}" fill="url(#lake)"/>` +
    `<g opacity=".35"><path d="${ridge(mirror(far), 450)}" fill="#9fb4c9" transform="translate(0,0)"/>` +
    `<path d="${ridge(mirror(near), 450)}" fill="#2e4a3a"/></g>` +
    Array.from(
      { length: 8 },
      (_, i) =>
        `<line x1="${100 + i * 140}" y1="${500 + i * 22}" x2="${220 + i * 140}" y2="${500 + i * 22}" stroke="#e4eef6" stroke-opacity=".35" stroke-width="3"/>`,
    ).join('');
  return svg(defs, body);
}

/** Pine forest in morning fog: rows of trees fading into the light. */
export function forestMorning(): string {
  const defs =
    vgrad('sky', [
      [0, '#d9e6dc'],
      [1, '#f3efe1'],
    ]) +
    radial('sun', [
      [0, '#fff6d8', 1],
      [1, '#fff6d8', 0],
    ]);
  const row = (seed: number, baseY: number, size: number, colour: string, opacity: number) => {
    const r = rng(seed);
    let out = '';
    for (let x = -40; x < W + 40; x += size * (0.55 + r() * 0.4)) {
      const h = size * (1.6 + r() * 1.2);
      const top = baseY - h;
      out += `<path d="M${x},${top} L${x + size * 0.45},${baseY} L${x - size * 0.45},${baseY} Z" fill="${colour}"/>`;
    }
    return `<g opacity="${opacity}">${out}<rect x="0" y="${baseY - 2}" width="${W}" height="${H - baseY + 2}" fill="${colour}"/></g>`;
  };
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<circle cx="860" cy="220" r="260" fill="url(#sun)"/>` +
    row(1, 420, 70, '#9db5a3', 0.55) +
    row(2, 500, 95, '#6f917a', 0.75) +
    row(3, 600, 130, '#41644f', 0.9) +
    row(4, 740, 170, '#22382b', 1);
  return svg(defs, body);
}

/** A beach at sunset: the sun low over the sea, warm sand in front. */
export function beachSunset(): string {
  const defs =
    vgrad('sky', [
      [0, '#2b3a67'],
      [0.45, '#c7617a'],
      [0.75, '#f4a261'],
      [1, '#f9d89c'],
    ]) +
    vgrad('sea', [
      [0, '#e98a6a'],
      [0.3, '#5a6f9a'],
      [1, '#263a62'],
    ]) +
    vgrad('sand', [
      [0, '#e9c89a'],
      [1, '#c99a6b'],
    ]) +
    radial('halo', [
      [0, '#ffe3a3', 0.9],
      [1, '#ffe3a3', 0],
    ]) +
    blurFilter('haze', 10);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<circle cx="640" cy="400" r="260" fill="url(#halo)"/>` +
    `<circle cx="640" cy="405" r="70" fill="#ffd27a"/>` +
    `<rect x="0" y="400" width="${W}" height="220" fill="url(#sea)"/>` +
    Array.from(
      { length: 7 },
      (_, i) =>
        `<rect x="${600 - i * 14}" y="${420 + i * 18}" width="${80 + i * 28}" height="5" fill="#ffd27a" opacity="${(0.7 - i * 0.08).toFixed(2)}"/>`,
    ).join('') +
    `<ellipse cx="300" cy="160" rx="220" ry="26" fill="#f7b7a3" opacity=".5" filter="url(#haze)"/>` +
    `<ellipse cx="1000" cy="230" rx="260" ry="20" fill="#f7b7a3" opacity=".45" filter="url(#haze)"/>` +
    `<path d="${smoothRidge(wave(600, 12, 1.5, 0.5), H)}" fill="url(#sand)"/>` +
    `<path d="${smoothRidge(wave(596, 10, 1.5, 0.5), 606)}" fill="#ffffff" opacity=".55"/>`;
  return svg(defs, body);
}

/** Northern lights over snowy hills, under a starry sky. */
export function northernLights(): string {
  const r = rng(77);
  let stars = '';
  for (let i = 0; i < 160; i++) {
    stars += `<circle cx="${(r() * W).toFixed(0)}" cy="${(r() * 430).toFixed(0)}" r="${(0.6 + r() * 1.6).toFixed(1)}" fill="#ffffff" opacity="${(0.3 + r() * 0.7).toFixed(2)}"/>`;
  }
  const defs =
    vgrad('night', [
      [0, '#050b1f'],
      [0.7, '#0f2a3f'],
      [1, '#173c4a'],
    ]) +
    blurFilter('veil', 22) +
    vgrad('snow', [
      [0, '#d9e6f2'],
      [1, '#93a9c2'],
    ]);
  const band = (y: number, amp: number, phase: number, colour: string, opacity: number) =>
    `<path d="${smoothRidge(wave(y, amp, 1.2, phase), y + 90)}" fill="${colour}" opacity="${opacity}" filter="url(#veil)"/>`;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#night)"/>` +
    stars +
    band(170, 60, 0.3, '#5ef2b0', 0.55) +
    band(230, 50, 1.6, '#3fd6c2', 0.45) +
    band(130, 40, 2.4, '#a78bfa', 0.3) +
    `<path d="${smoothRidge(wave(560, 40, 1.1, 2), H)}" fill="#0c1c2a"/>` +
    `<path d="${smoothRidge(wave(610, 30, 1.7, 0.2), H)}" fill="url(#snow)"/>`;
  return svg(defs, body);
}

/** Green rolling hills under a bright sky with soft clouds. */
export function rollingHills(): string {
  const defs =
    vgrad('sky', [
      [0, '#6fb1e8'],
      [1, '#d8eefc'],
    ]) + blurFilter('cloud', 8);
  const cloud = (x: number, y: number, s: number) =>
    `<g filter="url(#cloud)" opacity=".9"><ellipse cx="${x}" cy="${y}" rx="${90 * s}" ry="${30 * s}" fill="#fff"/>` +
    `<ellipse cx="${x - 40 * s}" cy="${y - 16 * s}" rx="${50 * s}" ry="${30 * s}" fill="#fff"/>` +
    `<ellipse cx="${x + 35 * s}" cy="${y - 22 * s}" rx="${55 * s}" ry="${34 * s}" fill="#fff"/></g>`;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    cloud(260, 150, 1.2) +
    cloud(900, 110, 1) +
    cloud(1150, 220, 0.7) +
    `<path d="${smoothRidge(wave(430, 40, 1.2, 0.4))}" fill="#9cc97a"/>` +
    `<path d="${smoothRidge(wave(500, 50, 0.9, 2.2))}" fill="#7db35c"/>` +
    `<path d="${smoothRidge(wave(590, 45, 1.4, 4))}" fill="#5e9444"/>` +
    `<path d="${smoothRidge(wave(670, 30, 1, 1))}" fill="#467a33"/>`;
  return svg(defs, body);
}
