/**
 * Speaking detection from the local microphone's level, with hysteresis: speech starts when the
 * level stays above `onLevel` for `attackMs`, and ends when it stays below `offLevel` for
 * `releaseMs` (the pauses between words and sentences stay inside one stretch). The two levels
 * and the timings keep a steady noise floor or a single click from flapping the state, and keep
 * the messages to a few a minute in normal talk.
 */
export interface HysteresisOptions {
  /** RMS of the signal (full scale 1.0) above which it may be speech (≈ -36 dBFS). */
  onLevel: number;
  /** RMS below which it may be silence (≈ -44 dBFS). */
  offLevel: number;
  attackMs: number;
  releaseMs: number;
}

export const SPEECH_HYSTERESIS: HysteresisOptions = {
  onLevel: 0.016,
  offLevel: 0.0063,
  attackMs: 120,
  releaseMs: 900,
};

export class SpeakingHysteresis {
  private speaking = false;
  private since: number | null = null;

  constructor(private readonly o: HysteresisOptions = SPEECH_HYSTERESIS) {}

  get isSpeaking(): boolean {
    return this.speaking;
  }

  /** Feeds one level reading at `now` (ms); answers the new state when it changed, else null. */
  feed(level: number, now: number): boolean | null {
    const crossing = this.speaking ? level < this.o.offLevel : level > this.o.onLevel;
    if (!crossing) {
      this.since = null;
      return null;
    }
    this.since ??= now;
    if (now - this.since < (this.speaking ? this.o.releaseMs : this.o.attackMs)) return null;
    this.speaking = !this.speaking;
    this.since = null;
    return this.speaking;
  }

  /** Muted, or the microphone went: silence from now on. Answers false when it was speaking. */
  reset(): boolean | null {
    this.since = null;
    if (!this.speaking) return null;
    this.speaking = false;
    return false;
  }
}

/** RMS of a block of samples (full scale 1.0). */
export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}
