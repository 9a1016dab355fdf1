/**
 * Band-limited speech (sampled at 8 kHz somewhere on its way: a telephone line, a cheap headset,
 * a Bluetooth hands-free link) carries nothing above 4 kHz, while the English acoustic model was
 * trained on 16 kHz audio with a filter bank up to 6.8 kHz (feat.params: -upperf 6800, 25
 * filters): its top filters then see no speech at all, and fricatives (s, sh, f, t) lose what
 * tells them apart. Its features cannot be changed for such a speaker (the model's means belong
 * to those 25 filters), so the audio is changed instead:
 *
 * - `BandwidthDetector` tells band-limited input from its spectrum: the share of the energy above
 *   4.5 kHz over the louder pieces of the stream (speech), against a threshold.
 * - `BandwidthExtender` regenerates the missing band the classic cheap way (spectral
 *   translation): the 2–4 kHz band shifted up by 2 kHz into 4–6 kHz and added back, quieter. Its
 *   level hardly matters to the decoder, which subtracts each cepstral coefficient's running mean;
 *   what matters is that the top filters follow the speech again.
 *
 * Both are streaming (state carried across pieces) and cheap: two 63-tap filters per sample.
 */

export const SAMPLE_RATE = 16_000;
const TAPS = 63;

/** Windowed-sinc (Hamming) high-pass FIR with its cutoff at `cutoffHz`. */
export function highPass(cutoffHz: number, taps = TAPS): Float64Array {
  const h = new Float64Array(taps);
  const fc = cutoffHz / SAMPLE_RATE;
  const mid = (taps - 1) / 2;
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const w = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1));
    h[i] = sinc * w;
    sum += h[i]!;
  }
  // Low-pass normalised to unit gain at 0 Hz, then spectrally inverted.
  for (let i = 0; i < taps; i++) h[i] = -h[i]! / sum;
  h[mid] = h[mid]! + 1;
  return h;
}

/** A streaming FIR filter: history kept between calls. */
export class Fir {
  private readonly history: Float64Array;
  private at = 0;

  constructor(private readonly h: Float64Array) {
    this.history = new Float64Array(h.length);
  }

  next(x: number): number {
    const n = this.h.length;
    this.history[this.at] = x;
    let y = 0;
    let j = this.at;
    for (let i = 0; i < n; i++) {
      y += this.h[i]! * this.history[j]!;
      j = j === 0 ? n - 1 : j - 1;
    }
    this.at = this.at === n - 1 ? 0 : this.at + 1;
    return y;
  }

  reset(): void {
    this.history.fill(0);
    this.at = 0;
  }
}

export interface BandwidthOptions {
  /** Band-limited when the energy above 4.5 kHz is this far below the whole (dB). */
  thresholdDb: number;
  /** Speech heard (pieces louder than the floor) before any decision, in ms. */
  decideAfterMs: number;
  /** Pieces quieter than this RMS (of 32 768) count as silence. */
  floorRms: number;
}

export const DEFAULT_BANDWIDTH: BandwidthOptions = { thresholdDb: -50, decideAfterMs: 1_000, floorRms: 100 };

export type Band = 'unknown' | 'wide' | 'narrow';

/**
 * Whether a stream is band-limited: the energy above 4.5 kHz over everything, summed over the
 * pieces louder than a floor (so mostly speech), in dB. 'unknown' until `decideAfterMs` of such
 * pieces; afterwards the figure keeps being updated with every piece.
 */
export class BandwidthDetector {
  private readonly filter = new Fir(highPass(4_500));
  private high = 0;
  private total = 0;
  private loudSamples = 0;

  constructor(private readonly options: BandwidthOptions = DEFAULT_BANDWIDTH) {}

  /** Feeds one piece (typically 20 ms); returns the band as known after it. */
  update(samples: Int16Array): Band {
    let high = 0;
    let total = 0;
    for (const s of samples) {
      const y = this.filter.next(s);
      high += y * y;
      total += s * s;
    }
    if (samples.length && Math.sqrt(total / samples.length) >= this.options.floorRms) {
      this.high += high;
      this.total += total;
      this.loudSamples += samples.length;
    }
    return this.band;
  }

  /** High-band energy over the whole, in dB (-Infinity before any loud piece). */
  get highBandDb(): number {
    return this.total > 0 ? 10 * Math.log10(Math.max(this.high, 1e-12) / this.total) : -Infinity;
  }

  get band(): Band {
    if ((this.loudSamples * 1000) / SAMPLE_RATE < this.options.decideAfterMs) return 'unknown';
    return this.highBandDb < this.options.thresholdDb ? 'narrow' : 'wide';
  }

  reset(): void {
    this.filter.reset();
    this.high = this.total = this.loudSamples = 0;
  }
}

/**
 * Adds a 4–6 kHz band made from the 2–4 kHz band (shifted up 2 kHz), `gain` times as loud, to
 * band-limited audio. Streaming: filter state carries across calls; output as long as input.
 */
export class BandwidthExtender {
  private readonly source = new Fir(highPass(2_000));
  private readonly image = new Fir(highPass(4_000));
  private n = 0;

  constructor(private readonly gain = 0.5) {}

  process(samples: Int16Array): Int16Array {
    const out = new Int16Array(samples.length);
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i]!;
      // cos(2π·2000·n/16000): the 2–4 kHz band lands at 4–6 kHz (and 0–2 kHz, filtered out).
      const shifted = this.source.next(s) * 2 * Math.cos((Math.PI * (this.n & 7)) / 4);
      this.n = (this.n + 1) & 7;
      const v = s + this.gain * this.image.next(shifted);
      out[i] = v > 32_767 ? 32_767 : v < -32_768 ? -32_768 : Math.round(v);
    }
    return out;
  }

  reset(): void {
    this.source.reset();
    this.image.reset();
    this.n = 0;
  }
}
