/**
 * Small helpers for the project's own background scenes: every catalogue picture is an SVG
 * written here and rendered by sharp, so nothing is downloaded and nothing is someone else's.
 */

export const W = 1280;
export const H = 720;

/** A seeded pseudo-random generator (mulberry32): the same scene renders the same every time. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A vertical linear gradient definition; stops as [offset 0..1, colour]. */
export function vgrad(id: string, stops: [number, string][]): string {
  return linear(id, stops, 0, 0, 0, 1);
}

export function linear(
  id: string,
  stops: [number, string][],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): string {
  const s = stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('');
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${s}</linearGradient>`;
}

export function radial(id: string, stops: [number, string, number?][], cx = 0.5, cy = 0.5, r = 0.5): string {
  const s = stops
    .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`)
    .join('');
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${s}</radialGradient>`;
}

export function blurFilter(id: string, std: number): string {
  return `<filter id="${id}" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${std}"/></filter>`;
}

/**
 * The whole picture. `soften` blurs it slightly, like a camera focused on the person in front:
 * a sharp background behind a soft mask edge looks pasted on.
 */
export function svg(defs: string, body: string, soften = 1.2): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<defs>${defs}${blurFilter('soften', soften)}</defs>` +
    `<g filter="url(#soften)">${body}</g></svg>`
  );
}

/** A closed path through points along the x axis, down to the bottom edge (hills, mountains). */
export function ridge(points: [number, number][], bottom = H): string {
  const [first, ...rest] = points;
  if (!first) return '';
  return `M${first[0]},${bottom} L${first[0]},${first[1]} ${rest.map(([x, y]) => `L${x},${y}`).join(' ')} L${points[points.length - 1]![0]},${bottom} Z`;
}

/** A smooth closed band through points (waves, rolling hills), with quadratic curves. */
export function smoothRidge(points: [number, number][], bottom = H): string {
  if (points.length < 2) return '';
  let d = `M${points[0]![0]},${bottom} L${points[0]![0]},${points[0]![1]}`;
  for (let i = 1; i < points.length; i++) {
    const [px, py] = points[i - 1]!;
    const [x, y] = points[i]!;
    const mx = (px + x) / 2;
    const my = (py + y) / 2;
    d += ` Q${px},${py} ${mx},${my}`;
    if (i === points.length - 1) d += ` T${x},${y}`;
  }
  return `${d} L${points[points.length - 1]![0]},${bottom} Z`;
}

/** Points of a sine wave across the width. */
export function wave(y: number, amp: number, periods: number, phase: number, steps = 32): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const x = (i / steps) * W;
    out.push([x, y + amp * Math.sin((i / steps) * periods * Math.PI * 2 + phase)]);
  }
  return out;
}
