import { describe, expect, it } from 'vitest';
import { rms, SpeakingHysteresis } from './speaking-detector';

const o = { onLevel: 0.02, offLevel: 0.01, attackMs: 100, releaseMs: 800 };

/** Feeds `level` every 50 ms from `from` to `to`; answers the changes as [time, speaking]. */
function run(h: SpeakingHysteresis, level: number, from: number, to: number): [number, boolean][] {
  const changes: [number, boolean][] = [];
  for (let t = from; t < to; t += 50) {
    const c = h.feed(level, t);
    if (c !== null) changes.push([t, c]);
  }
  return changes;
}

describe('SpeakingHysteresis', () => {
  it('starts after the attack and ends only after the release', () => {
    const h = new SpeakingHysteresis(o);
    expect(run(h, 0.001, 0, 500)).toEqual([]);
    expect(run(h, 0.1, 500, 1000)).toEqual([[600, true]]);
    // A 500 ms pause between words stays inside the stretch.
    expect(run(h, 0.001, 1000, 1500)).toEqual([]);
    expect(run(h, 0.1, 1500, 2000)).toEqual([]);
    expect(run(h, 0.001, 2000, 3500)).toEqual([[2800, false]]);
  });

  it('ignores a click shorter than the attack, and levels between the two thresholds', () => {
    const h = new SpeakingHysteresis(o);
    expect(run(h, 0.5, 0, 100)).toEqual([]);
    expect(run(h, 0.015, 100, 3000)).toEqual([]);
    expect(h.isSpeaking).toBe(false);
    run(h, 0.5, 3000, 3500);
    expect(h.isSpeaking).toBe(true);
    // Between the thresholds while speaking: still speaking.
    expect(run(h, 0.015, 3500, 6000)).toEqual([]);
  });

  it('reset (muted) ends a stretch at once', () => {
    const h = new SpeakingHysteresis(o);
    run(h, 0.5, 0, 500);
    expect(h.reset()).toBe(false);
    expect(h.reset()).toBeNull();
  });

  it('measures RMS', () => {
    expect(rms(new Float32Array([0.5, -0.5, 0.5, -0.5]))).toBeCloseTo(0.5);
    expect(rms(new Float32Array())).toBe(0);
  });
});
