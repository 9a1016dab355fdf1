import { describe, expect, it } from 'vitest';
import { BandwidthDetector, BandwidthExtender, Fir, highPass, SAMPLE_RATE } from './bandwidth.js';

/** A sum of sines (Hz, amplitude of 32 768) for `ms`, as 16 kHz samples. */
function tones(freqs: Array<[number, number]>, ms: number): Int16Array {
  const n = Math.round((ms * SAMPLE_RATE) / 1000);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (const [f, a] of freqs) v += a * Math.sin((2 * Math.PI * f * i) / SAMPLE_RATE);
    out[i] = Math.round(v);
  }
  return out;
}

/** Power at one frequency (Goertzel), over the samples after the filters settle. */
function powerAt(samples: Int16Array | Float64Array, freq: number): number {
  const k = 2 * Math.cos((2 * Math.PI * freq) / SAMPLE_RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 200; i < samples.length; i++) {
    const s0 = samples[i]! + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / (samples.length - 200) ** 2;
}

/** Feeds `samples` in 20 ms pieces; returns the band after each piece. */
function feed(detector: BandwidthDetector, samples: Int16Array) {
  const bands = [];
  for (let at = 0; at < samples.length; at += 320)
    bands.push(detector.update(samples.subarray(at, at + 320)));
  return bands;
}

describe('highPass', () => {
  it('passes what is above its cutoff and stops what is below', () => {
    const filter = (x: Int16Array) => {
      const fir = new Fir(highPass(4_500));
      return Float64Array.from(x, (s) => fir.next(s));
    };
    const low = tones([[1_000, 10_000]], 200);
    const high = tones([[6_000, 10_000]], 200);
    expect(powerAt(filter(low), 1_000) / powerAt(low, 1_000)).toBeLessThan(1e-3);
    expect(powerAt(filter(high), 6_000) / powerAt(high, 6_000)).toBeGreaterThan(0.8);
  });
});

describe('BandwidthDetector', () => {
  it('calls speech with energy above 4.5 kHz wide, once it has heard a second of it', () => {
    const detector = new BandwidthDetector();
    const bands = feed(
      detector,
      tones(
        [
          [500, 8_000],
          [1_500, 4_000],
          [6_000, 1_000],
        ],
        1_500,
      ),
    );
    expect(bands[10]).toBe('unknown');
    expect(bands.at(-1)).toBe('wide');
  });

  it('calls speech with nothing above 4 kHz narrow', () => {
    const detector = new BandwidthDetector();
    feed(
      detector,
      tones(
        [
          [500, 8_000],
          [1_500, 4_000],
          [3_200, 2_000],
        ],
        1_500,
      ),
    );
    expect(detector.band).toBe('narrow');
    expect(detector.highBandDb).toBeLessThan(-50);
  });

  it('does not decide on silence or hiss below its floor, and forgets on reset', () => {
    const detector = new BandwidthDetector();
    feed(detector, tones([[500, 50]], 3_000));
    expect(detector.band).toBe('unknown');
    feed(detector, tones([[500, 8_000]], 1_500));
    expect(detector.band).toBe('narrow');
    detector.reset();
    expect(detector.band).toBe('unknown');
  });
});

describe('BandwidthExtender', () => {
  it('adds a copy of the 2–4 kHz band 2 kHz higher, keeping the length', () => {
    const input = tones([[3_000, 8_000]], 300);
    const out = new BandwidthExtender().process(input);
    expect(out).toHaveLength(input.length);
    expect(powerAt(input, 5_000)).toBeLessThan(1e-6 * powerAt(input, 3_000));
    expect(powerAt(out, 5_000)).toBeGreaterThan(0.05 * powerAt(out, 3_000));
    // The original band is kept as it was.
    expect(powerAt(out, 3_000) / powerAt(input, 3_000)).toBeCloseTo(1, 1);
  });

  it('adds nothing for what is below 2 kHz', () => {
    const input = tones([[800, 8_000]], 300);
    const out = new BandwidthExtender().process(input);
    for (const f of [4_800, 2_800, 5_200]) expect(powerAt(out, f)).toBeLessThan(1e-3 * powerAt(out, 800));
  });

  it('carries its filters across pieces: two halves give what the whole gives', () => {
    const input = tones(
      [
        [2_500, 6_000],
        [3_500, 3_000],
      ],
      100,
    );
    const whole = new BandwidthExtender().process(input);
    const split = new BandwidthExtender();
    const half = input.length / 2;
    const joined = [...split.process(input.subarray(0, half)), ...split.process(input.subarray(half))];
    expect(joined).toEqual([...whole]);
  });
});
