/**
 * Speech-to-text: one continuous stream per speaker (16 kHz mono s16le PCM in, utterances out),
 * and whole clips of any format ffmpeg reads. Cutting audio into independent pieces is what hurts
 * word error rate (AI-ENGINES.md: 5–12% whole utterances vs 29–74% for separate 2 s pieces), so
 * the room keeps one stream per speaker and lets the engine end utterances where speech stops.
 */
export interface Utterance {
  text: string;
  /** The language of the text (a spec §9 code, e.g. 'en'). */
  language: string;
  /** Offsets from the start of the stream, in milliseconds of audio. */
  startMs: number;
  endMs: number;
  /**
   * The utterance's number in its stream (from 1), shared with its partials; absent from
   * providers that give no partials.
   */
  seq?: number;
  /** Its words with their stream times (ms), when the engine gives them: pauses show between. */
  words?: Array<{ word: string; startMs: number; endMs: number }>;
  /**
   * `length`: cut at the length limit while speech went on (the sentence may continue in the
   * next utterance); `pause` or `flush`: speech stopped. Absent: not known (taken as a stop).
   */
  endedBy?: 'pause' | 'length' | 'flush';
}

/**
 * The words heard so far in an utterance still in progress (interim words). Replaced by the
 * Utterance of the same `seq`; its text may change completely from one partial to the next.
 */
export interface PartialUtterance {
  text: string;
  seq: number;
  startMs: number;
  endMs: number;
}

/**
 * An utterance's text may be empty when partials were given for it and the final hypothesis
 * kept no word: the listener drops the partials.
 */
export interface SpeechStream {
  /** 16 kHz mono signed 16-bit little-endian PCM; any length (odd trailing bytes are kept). */
  write(pcm: Buffer): void;
  /** Ends the utterance in progress (if any) and delivers it; resolves when it was delivered. */
  flush(): Promise<void>;
  /** Flushes, then frees the decoder. Writes after close are ignored. */
  close(): Promise<void>;
}

export interface SpeechStreamOptions {
  /** The speaker's language when known; providers that detect it may ignore this. */
  language?: string;
  onUtterance(utterance: Utterance): void;
  /** Interim words, from providers that can give them (pocketsphinx); others never call it. */
  onPartial?(partial: PartialUtterance): void;
  onError?(err: Error): void;
}

export interface Transcription {
  text: string;
  language: string;
}

export interface ClipOptions {
  language?: string;
  /** Decoded audio allowed (ClipTooLongError past it); default DEFAULT_CLIP_MAX_MS. */
  maxMs?: number;
  /** The caller went away: ffmpeg and the decoder stop, and the decoder is given back. */
  signal?: AbortSignal;
}

/** The longest clip transcribed when the caller names no limit (AI_CLIP_MAX_SECONDS). */
export const DEFAULT_CLIP_MAX_MS = 10 * 60_000;

export interface SpeechToText {
  /** For logs and the capabilities endpoint: 'pocketsphinx', 'openai-compatible'. */
  readonly name: string;
  /** Languages it transcribes (spec §9 codes); 'any' for a provider that detects the language. */
  readonly languages: readonly string[] | 'any';
  openStream(options: SpeechStreamOptions): SpeechStream;
  /**
   * A whole clip in an accepted container (ffmpeg.ts CLIP_FORMATS: webm/opus, ogg, wav, mp3,
   * flac, m4a): ClipTooLongError, ClipFormatError, ClipAbortedError, SpeechCapacityError.
   */
  transcribeClip(audio: Buffer, options?: ClipOptions): Promise<Transcription>;
  /** Frees every decoder, worker and child process. */
  close(): Promise<void>;
  /** Streams and clips served at once (an embedded engine's cap); absent when unbounded. */
  readonly maxStreams?: number;
}

/** A provider asked for a language it cannot transcribe (never faked with another language). */
export class UnsupportedSpeechLanguageError extends Error {
  constructor(
    readonly provider: string,
    readonly language: string,
    readonly supported: readonly string[],
  ) {
    super(`${provider} cannot transcribe '${language}'; it transcribes ${supported.join(', ')}`);
    this.name = 'UnsupportedSpeechLanguageError';
  }
}

/**
 * Thrown by openStream (and by transcribeClip after a short wait) when every decoder is in use:
 * an embedded engine holds ~120 MiB and up to a core per stream, so it serves a fixed number.
 */
export class SpeechCapacityError extends Error {
  constructor(readonly maxStreams: number) {
    super(`Speech-to-text is busy: all ${maxStreams} decoders are in use; try again when a speaker stops`);
    this.name = 'SpeechCapacityError';
  }
}
