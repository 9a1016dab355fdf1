import path from 'node:path';
import { type Band, BandwidthDetector, BandwidthExtender } from './bandwidth.js';
import type { ConfigHandle, DecoderHandle, SphinxApi } from './sphinx-binding.js';

/**
 * One pocketsphinx decoder fed one continuous stream, ending utterances where speech stops
 * (the library's own voice activity detector, `ps_get_in_speech`) and at a maximum length so
 * captions keep coming while someone talks without pause. Runs inside the decoder worker: every
 * call here blocks.
 */
export interface DecoderSettings {
  /** Folder holding `en-us/`, `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir: string;
  /** Extra decoder arguments, name/value pairs (e.g. ['-vad_postspeech', '60']). */
  extraArgs: readonly string[];
  /** Audio fed to the decoder per call; the speech/silence state is read after each piece. */
  frameMs: number;
  /**
   * An utterance longer than this is ended even while speech goes on (a stream may ask for less:
   * open()); a clip up to this long is decoded as one utterance.
   */
  maxUtteranceMs: number;
  /**
   * Band-limited speech (nothing above 4 kHz) gets its top band regenerated before decoding
   * (bandwidth.ts): `auto` when the stream's spectrum says it is band-limited, `extend` always,
   * `off` never. Default `off`.
   */
  bandwidth?: BandwidthMode;
  /**
   * While speech goes on, the decoder's best hypothesis so far is read this often (in audio) and
   * given as a partial when it changed: interim words. Absent or 0: no partials (clips).
   */
  partialEveryMs?: number;
}

export type BandwidthMode = 'off' | 'auto' | 'extend';

/** A spoken word of an utterance, with its stream offsets (ms). */
export interface DecodedWord {
  word: string;
  startMs: number;
  endMs: number;
}

export interface DecodedUtterance {
  text: string;
  startMs: number;
  endMs: number;
  /** The utterance's number in its stream (from 1): its partials carry the same. */
  seq: number;
  /** Its words with their times, from the decoder's best path (absent when it gave none). */
  words?: DecodedWord[];
  /**
   * Why it ended: speech stopped (`pause`), it reached the length limit while speech went on
   * (`length`: the speaker's sentence may go on in the next one), or the stream was flushed.
   */
  endedBy: UtteranceEnd;
}

export type UtteranceEnd = 'pause' | 'length' | 'flush';

/** The words heard so far in the utterance in progress (replaced by its DecodedUtterance). */
export interface DecodedPartial {
  text: string;
  startMs: number;
  endMs: number;
  seq: number;
}

/** Where a stream's results go. */
export interface DecoderSink {
  utterance(u: DecodedUtterance): void;
  partial?(p: DecodedPartial): void;
}

export const SAMPLE_RATE = 16_000;
const samplesToMs = (n: number) => (n * 1000) / SAMPLE_RATE;
/** pocketsphinx's frame rate (-frate 100): VAD settings count 10 ms frames. */
const VAD_FRAME_MS = 10;
/**
 * Past maxUtteranceMs minus this, the utterance is ended at the first quiet piece (a pause
 * between words), so the forced cut rarely splits a word; at maxUtteranceMs it is ended anyway.
 */
const SOFT_CUT_WINDOW_MS = 3_000;
const QUIET_RATIO = 0.3;

export function modelArgs(modelDir: string): string[] {
  return [
    '-hmm',
    path.join(modelDir, 'en-us'),
    '-lm',
    path.join(modelDir, 'en-us.lm.bin'),
    '-dict',
    path.join(modelDir, 'cmudict-en-us.dict'),
    // The library logs every utterance to stderr otherwise.
    '-logfn',
    '/dev/null',
  ];
}

const NOT_A_WORD = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/** Drops what is not a spoken word from a hypothesis: fillers, sentence marks, `word(2)`. */
export function cleanHypothesis(hyp: string | null): string {
  if (!hyp) return '';
  return hyp
    .split(/\s+/)
    .filter((w) => w && !NOT_A_WORD.test(w))
    .map((w) => w.replace(/\(\d+\)$/, ''))
    .join(' ');
}

export class SphinxDecoder {
  private readonly config: ConfigHandle;
  private readonly decoder: DecoderHandle;
  private readonly frameSamples: number;
  private mode: BandwidthMode;
  /** How far before the moment speech is detected the utterance's audio begins. */
  readonly prespeechMs: number;
  /** How much silence after speech the detector waits before it says speech stopped. */
  readonly postspeechMs: number;

  private uttOpen = false;
  /** Samples fed since the stream was opened: the clock of every offset. */
  private fed = 0;
  /** Speech was detected in the open utterance (otherwise there is nothing to deliver). */
  private speaking = false;
  private uttStartMs = 0;
  private lastEndMs = 0;
  private energySum = 0;
  private energyPieces = 0;
  /** Utterances begun in this stream: the number of the one in progress. */
  private seq = 0;
  private lastPartialMs = 0;
  private lastPartialText = '';
  /** This stream's longest utterance (open() may lower it from the settings'). */
  private maxUtteranceMs: number;
  private readonly detector = new BandwidthDetector();
  private readonly extender = new BandwidthExtender();

  constructor(
    private readonly api: SphinxApi,
    private readonly settings: DecoderSettings,
  ) {
    const config = api.createConfig([...modelArgs(settings.modelDir), ...settings.extraArgs]);
    if (!config) throw new Error(`pocketsphinx refused its arguments: ${settings.extraArgs.join(' ')}`);
    const decoder = api.createDecoder(config);
    if (!decoder) {
      api.freeConfig(config);
      throw new Error(`pocketsphinx could not load its model from ${settings.modelDir}`);
    }
    this.config = config;
    this.decoder = decoder;
    this.frameSamples = Math.max(160, Math.round((settings.frameMs * SAMPLE_RATE) / 1000));
    this.mode = settings.bandwidth ?? 'off';
    this.maxUtteranceMs = settings.maxUtteranceMs;
    this.prespeechMs = api.configInt(config, '-vad_prespeech') * VAD_FRAME_MS;
    this.postspeechMs = api.configInt(config, '-vad_postspeech') * VAD_FRAME_MS;
  }

  /** Starts a new stream: offsets count from here. */
  open(options: { maxUtteranceMs?: number } = {}): void {
    this.closeUtt();
    this.maxUtteranceMs = options.maxUtteranceMs ?? this.settings.maxUtteranceMs;
    this.fed = 0;
    this.lastEndMs = 0;
    this.seq = 0;
    this.detector.reset();
    this.extender.reset();
    this.openUtt();
  }

  write(samples: Int16Array, sink: DecoderSink): void {
    if (!this.uttOpen) this.openUtt();
    for (let at = 0; at < samples.length; at += this.frameSamples) {
      const piece = samples.subarray(at, at + this.frameSamples);
      this.api.processRaw(this.decoder, this.widen(piece), false);
      this.fed += piece.length;
      const nowMs = samplesToMs(this.fed);
      const inSpeech = this.api.inSpeech(this.decoder);
      if (inSpeech && !this.speaking) {
        this.speaking = true;
        this.seq += 1;
        this.uttStartMs = Math.max(this.lastEndMs, nowMs - samplesToMs(piece.length) - this.prespeechMs);
        this.energySum = 0;
        this.energyPieces = 0;
        this.lastPartialMs = nowMs;
        this.lastPartialText = '';
      } else if (!inSpeech && this.speaking) {
        // The detector waited postspeechMs of silence before saying so.
        this.endUtt(Math.max(this.uttStartMs, nowMs - this.postspeechMs), sink, 'pause');
      } else if (this.speaking && this.overLength(piece, nowMs)) {
        this.endUtt(nowMs, sink, 'length');
      } else if (this.speaking) {
        this.maybePartial(nowMs, sink);
      }
    }
  }

  /**
   * The best hypothesis so far, when partialEveryMs of audio went by since the last look and it
   * changed. ps_get_hyp in an open utterance backtraces the search's table (well under a
   * millisecond): the audio is decoded once, as it comes, never again for a partial.
   */
  private maybePartial(nowMs: number, sink: DecoderSink): void {
    const every = this.settings.partialEveryMs ?? 0;
    if (!every || !sink.partial || nowMs - this.lastPartialMs < every) return;
    this.lastPartialMs = nowMs;
    const text = cleanHypothesis(this.api.hypothesis(this.decoder));
    if (!text || text === this.lastPartialText) return;
    this.lastPartialText = text;
    sink.partial({ text, startMs: Math.round(this.uttStartMs), endMs: Math.round(nowMs), seq: this.seq });
  }

  /** Audio that was not decoded (an overloaded machine): offsets still count it. */
  skip(samples: number, sink: DecoderSink): void {
    this.flush(sink);
    this.fed += samples;
    this.lastEndMs = samplesToMs(this.fed);
  }

  /** Ends the utterance in progress, if speech was heard in it, and delivers it. */
  flush(sink: DecoderSink): void {
    if (this.speaking) this.endUtt(samplesToMs(this.fed), sink, 'flush');
  }

  /** Flushes and leaves the decoder idle (for the next stream). */
  end(sink: DecoderSink): void {
    this.flush(sink);
    this.closeUtt();
  }

  /**
   * A whole clip. One that fits in an utterance is decoded as one (`full_utt`: the cepstral mean
   * is taken over the whole clip, the best case); a longer one is cut where speech stops, as a
   * stream is, and the utterances are joined.
   */
  decodeClip(samples: Int16Array): string {
    this.closeUtt();
    this.detector.reset();
    this.extender.reset();
    if (this.mode === 'auto') this.detector.update(samples);
    samples = this.widen(samples, false);
    this.extender.reset();
    const mode = this.mode;
    // Decided on the whole clip above; the stream path below must not decide again.
    this.mode = 'off';
    try {
      return this.decodeWhole(samples);
    } finally {
      this.mode = mode;
    }
  }

  /** The band of the stream (or the last clip) as the detector sees it now. */
  get band(): Band {
    return this.detector.band;
  }

  private decodeWhole(samples: Int16Array): string {
    if (samplesToMs(samples.length) <= this.settings.maxUtteranceMs) {
      this.api.startUtt(this.decoder);
      this.api.processRaw(this.decoder, samples, true);
      this.api.endUtt(this.decoder);
      return cleanHypothesis(this.api.hypothesis(this.decoder));
    }
    const texts: string[] = [];
    const collect: DecoderSink = { utterance: (u) => void (u.text && texts.push(u.text)) };
    this.open();
    this.write(samples, collect);
    this.end(collect);
    return texts.join(' ');
  }

  free(): void {
    this.closeUtt();
    this.api.freeDecoder(this.decoder);
    this.api.freeConfig(this.config);
  }

  /**
   * The piece as the decoder should hear it: with its top band regenerated when the stream is
   * band-limited (`auto`, once the detector knows) or always (`extend`).
   */
  private widen(piece: Int16Array, detect = true): Int16Array {
    if (this.mode === 'off') return piece;
    const band = detect && this.mode === 'auto' ? this.detector.update(piece) : this.detector.band;
    return this.mode === 'extend' || band === 'narrow' ? this.extender.process(piece) : piece;
  }

  /** Past the length limit, or near it at a pause (a piece much quieter than the utterance). */
  private overLength(piece: Int16Array, nowMs: number): boolean {
    const lengthMs = nowMs - this.uttStartMs;
    const energy = rms(piece);
    this.energySum += energy;
    this.energyPieces += 1;
    if (lengthMs >= this.maxUtteranceMs) return true;
    if (lengthMs < this.maxUtteranceMs - SOFT_CUT_WINDOW_MS) return false;
    return energy < QUIET_RATIO * (this.energySum / this.energyPieces);
  }

  private endUtt(endMs: number, sink: DecoderSink, endedBy: UtteranceEnd): void {
    this.api.endUtt(this.decoder);
    this.uttOpen = false;
    const text = cleanHypothesis(this.api.hypothesis(this.decoder));
    const startMs = this.uttStartMs;
    const words = text ? this.wordsOf(startMs, endMs) : [];
    // Partials were shown for it: an empty final is delivered too, so listeners drop them.
    const shown = this.lastPartialText !== '';
    this.speaking = false;
    this.lastEndMs = endMs;
    this.lastPartialText = '';
    this.openUtt();
    if (text || shown) {
      sink.utterance({
        text,
        startMs: Math.round(startMs),
        endMs: Math.round(endMs),
        seq: this.seq,
        endedBy,
        ...(words.length ? { words } : {}),
      });
    }
  }

  /**
   * The final hypothesis's words with their stream times. The library counts frames from the
   * first one it kept for the utterance (it drops the silence before speech but for its
   * prespeech), which is where uttStartMs puts the utterance's start.
   */
  private wordsOf(startMs: number, endMs: number): DecodedWord[] {
    if (!this.api.segments) return [];
    const words: DecodedWord[] = [];
    for (const seg of this.api.segments(this.decoder)) {
      if (NOT_A_WORD.test(seg.word)) continue;
      words.push({
        word: seg.word.replace(/\(\d+\)$/, ''),
        startMs: Math.round(Math.min(endMs, startMs + seg.startFrame * VAD_FRAME_MS)),
        endMs: Math.round(Math.min(endMs, startMs + (seg.endFrame + 1) * VAD_FRAME_MS)),
      });
    }
    return words;
  }

  private openUtt(): void {
    if (this.uttOpen) return;
    this.api.startUtt(this.decoder);
    this.uttOpen = true;
    this.speaking = false;
  }

  private closeUtt(): void {
    if (!this.uttOpen) return;
    this.api.endUtt(this.decoder);
    this.uttOpen = false;
    this.speaking = false;
  }
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}
