/**
 * A small energy-based voice activity detector that cuts a continuous 16 kHz mono s16le stream
 * into utterances, for engines that transcribe whole clips (the OpenAI-compatible adapter):
 * speech starts after a few loud frames, ends after `silenceMs` of quiet, and is cut at
 * `maxUtteranceMs` (at a quiet frame near it when there is one) so captions keep coming.
 * "Loud" is relative to a tracked noise floor, so a noisy microphone does not talk forever.
 */
export interface VadOptions {
  frameMs: number;
  /** Quiet after speech that ends an utterance. */
  silenceMs: number;
  maxUtteranceMs: number;
  /** Audio kept before the first loud frame (soft word onsets). */
  prerollMs: number;
  /** Loud frames in a row that start speech (a click is not speech). */
  startFrames: number;
  /** A frame is speech when this many dB above the noise floor… */
  aboveFloorDb: number;
  /** …and above this absolute level (dBFS). */
  minDb: number;
}

export const DEFAULT_VAD: VadOptions = {
  frameMs: 20,
  silenceMs: 600,
  maxUtteranceMs: 15_000,
  prerollMs: 200,
  startFrames: 3,
  aboveFloorDb: 12,
  minDb: -50,
};

export interface Segment {
  pcm: Buffer;
  startMs: number;
  endMs: number;
}

const SAMPLE_RATE = 16_000;
/** The floor follows quieter frames at once and louder ones slowly (dB a frame). */
const FLOOR_RISE_DB = 0.02;
const SOFT_CUT_WINDOW_MS = 3_000;

export function frameDb(frame: Buffer): number {
  let sum = 0;
  const n = frame.length >> 1;
  for (let i = 0; i < n; i++) {
    const s = frame.readInt16LE(i * 2);
    sum += s * s;
  }
  const rms = n ? Math.sqrt(sum / n) : 0;
  return rms < 1 ? -100 : 20 * Math.log10(rms / 32_768);
}

export class EnergySegmenter {
  private readonly frameBytes: number;
  private carry = Buffer.alloc(0);
  private frameIndex = 0;
  private floorDb = -70;
  private loudRun = 0;
  private quietRun = 0;
  /** Frames before speech (the pre-roll, and the loud frames not yet counted as speech). */
  private pending: Buffer[] = [];
  private segment: Buffer[] | null = null;
  private segmentStart = 0;
  /** Frame index just after the last speech frame of the segment. */
  private lastSpeechEnd = 0;

  constructor(
    private readonly onSegment: (segment: Segment) => void,
    private readonly options: VadOptions = DEFAULT_VAD,
  ) {
    this.frameBytes = Math.round((options.frameMs * SAMPLE_RATE) / 1000) * 2;
  }

  write(pcm: Buffer): void {
    let data = this.carry.length ? Buffer.concat([this.carry, pcm]) : pcm;
    while (data.length >= this.frameBytes) {
      this.frame(data.subarray(0, this.frameBytes));
      data = data.subarray(this.frameBytes);
    }
    this.carry = Buffer.from(data);
  }

  /** Ends the utterance in progress, if any (the stream paused or closed). */
  flush(): void {
    if (this.segment) this.emit(this.lastSpeechEnd);
  }

  private frame(frame: Buffer): void {
    const { frameMs, silenceMs, maxUtteranceMs, startFrames, aboveFloorDb, minDb } = this.options;
    const db = frameDb(frame);
    const loud = db > Math.max(minDb, this.floorDb + aboveFloorDb);
    this.floorDb = db < this.floorDb ? db : this.floorDb + FLOOR_RISE_DB;
    const index = this.frameIndex++;
    const copy = Buffer.from(frame);

    if (!this.segment) {
      this.pending.push(copy);
      this.loudRun = loud ? this.loudRun + 1 : 0;
      const keep = Math.round(this.options.prerollMs / frameMs) + startFrames;
      if (this.pending.length > keep) this.pending.shift();
      if (this.loudRun >= startFrames) {
        this.segment = this.pending;
        this.pending = [];
        this.segmentStart = index + 1 - this.segment.length;
        this.lastSpeechEnd = index + 1;
        this.quietRun = 0;
      }
      return;
    }

    this.segment.push(copy);
    if (loud) {
      this.quietRun = 0;
      this.lastSpeechEnd = index + 1;
    } else this.quietRun += 1;
    const lengthMs = (index + 1 - this.segmentStart) * frameMs;
    if (this.quietRun * frameMs >= silenceMs) this.emit(this.lastSpeechEnd);
    else if (lengthMs >= maxUtteranceMs || (!loud && lengthMs >= maxUtteranceMs - SOFT_CUT_WINDOW_MS)) {
      this.emit(index + 1);
    }
  }

  /** Delivers the segment up to frame `end` (trailing quiet beyond a short tail is dropped). */
  private emit(end: number): void {
    const segment = this.segment;
    if (!segment) return;
    const tailFrames = Math.round(this.options.prerollMs / this.options.frameMs);
    const keep = Math.min(segment.length, end - this.segmentStart + tailFrames);
    const { frameMs } = this.options;
    this.segment = null;
    this.loudRun = 0;
    this.quietRun = 0;
    this.onSegment({
      pcm: Buffer.concat(segment.slice(0, keep)),
      startMs: this.segmentStart * frameMs,
      endMs: end * frameMs,
    });
  }
}
