import { z } from 'zod';
import { decodeToPcm } from './ffmpeg.js';
import { toLanguageCode } from './languages.js';
import {
  type ClipOptions,
  DEFAULT_CLIP_MAX_MS,
  type SpeechStream,
  type SpeechStreamOptions,
  type SpeechToText,
  type Transcription,
} from './types.js';
import { DEFAULT_VAD, EnergySegmenter, type Segment, type VadOptions } from './vad.js';
import { pcmToWav } from './wav.js';

/**
 * Speech-to-text through any OpenAI-compatible `POST {base}/audio/transcriptions` (OpenAI,
 * whisper servers, LocalAI, vLLM): audio goes as a 16 kHz WAV, `verbose_json` asks for the
 * detected language. A live stream is cut into utterances by an energy detector (vad.ts) and
 * each utterance is transcribed as a clip, in order.
 */
export interface OpenAiSpeechOptions {
  /** e.g. https://api.openai.com/v1 (no trailing slash). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  vad?: Partial<VadOptions>;
  /** Utterances waiting for the API per stream before new ones are dropped (with onError). */
  maxQueued?: number;
}

const answerSchema = z.object({ text: z.string(), language: z.string().nullish() });

export class SpeechApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SpeechApiError';
  }
}

export class OpenAiSpeechToText implements SpeechToText {
  readonly name = 'openai-compatible';
  readonly languages = 'any' as const;
  private readonly endpoint: string;
  /** The API's address without credentials, for messages. */
  private readonly where: string;
  private readonly streams = new Set<SpeechStream>();

  constructor(private readonly options: OpenAiSpeechOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    const url = new URL(this.endpoint);
    this.where = `${url.origin}${url.pathname}`;
  }

  /** The API takes one file: the PCM is held whole, at most `maxMs` of it (32 KB a second). */
  async transcribeClip(audio: Buffer, options: ClipOptions = {}): Promise<Transcription> {
    const { signal } = options;
    const pcm = await decodeToPcm(audio, { maxMs: options.maxMs ?? DEFAULT_CLIP_MAX_MS, signal });
    return this.transcribePcm(pcm, options.language, signal);
  }

  /** 16 kHz mono s16le PCM → text. */
  async transcribePcm(pcm: Buffer, language?: string, abort?: AbortSignal): Promise<Transcription> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pcmToWav(pcm))], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', this.options.model);
    form.append('response_format', 'verbose_json');
    const hint = language && language !== 'auto' ? toLanguageCode(language) : null;
    if (hint) form.append('language', hint);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const timeoutMs = this.options.timeoutMs ?? 30_000;

    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: form,
        signal: abort
          ? AbortSignal.any([abort, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        throw new SpeechApiError(
          `the speech-to-text API at ${this.where} did not answer within ${timeoutMs} ms`,
        );
      }
      const cause =
        err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new SpeechApiError(`cannot reach the speech-to-text API at ${this.where}: ${this.redact(cause)}`);
    }
    const body = await res.text();
    if (!res.ok) throw new SpeechApiError(this.refusal(res.status, body), res.status);
    let parsed: z.infer<typeof answerSchema>;
    try {
      parsed = answerSchema.parse(JSON.parse(body));
    } catch {
      throw new SpeechApiError(`the speech-to-text API at ${this.where} answered without a transcription`);
    }
    return {
      text: parsed.text.trim(),
      language: toLanguageCode(parsed.language) ?? hint ?? 'auto',
    };
  }

  openStream(options: SpeechStreamOptions): SpeechStream {
    const stream = new ClipStream(this, options, this.options.vad, this.options.maxQueued ?? 8, () =>
      this.streams.delete(stream),
    );
    this.streams.add(stream);
    return stream;
  }

  async close(): Promise<void> {
    await Promise.all([...this.streams].map((s) => s.close()));
  }

  private refusal(status: number, body: string): string {
    let detail = body.slice(0, 300);
    try {
      const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
      if (typeof message === 'string') detail = message.slice(0, 300);
    } catch {
      // not JSON: the start of the body
    }
    const what =
      status === 401 || status === 403
        ? 'refused the API key (check AI_API_KEY)'
        : status === 404
          ? `has no such endpoint or model '${this.options.model}' (check AI_BASE_URL and AI_STT_MODEL)`
          : status === 429
            ? 'is rate limiting this server'
            : `failed`;
    return `the speech-to-text API at ${this.where} ${what}: HTTP ${status}${detail ? ` ${this.redact(detail)}` : ''}`;
  }

  /** An API may quote the key it refused; it never reaches a log or a user through us. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key ? text.split(key).join('[key]') : text;
  }
}

/** One speaker's stream: utterances found by the energy detector, transcribed one at a time. */
class ClipStream implements SpeechStream {
  private readonly segmenter: EnergySegmenter;
  private carry: Buffer | null = null;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly api: OpenAiSpeechToText,
    private readonly options: SpeechStreamOptions,
    vad: Partial<VadOptions> | undefined,
    private readonly maxQueued: number,
    private readonly onClosed: () => void,
  ) {
    this.segmenter = new EnergySegmenter((s) => this.enqueue(s), { ...DEFAULT_VAD, ...vad });
  }

  write(pcm: Buffer): void {
    if (this.closed) return;
    // The segmenter works on whole samples: an odd byte waits for the next write.
    let data = this.carry ? Buffer.concat([this.carry, pcm]) : pcm;
    this.carry = data.length % 2 ? Buffer.from(data.subarray(data.length - 1)) : null;
    if (this.carry) data = data.subarray(0, data.length - 1);
    this.segmenter.write(data);
  }

  async flush(): Promise<void> {
    if (!this.closed) this.segmenter.flush();
    await this.tail;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.flush();
      this.closed = true;
      this.onClosed();
    })();
    return this.closing;
  }

  private enqueue(segment: Segment): void {
    if (this.queued >= this.maxQueued) {
      this.report(
        new SpeechApiError('the speech-to-text API is too slow for this stream: an utterance was dropped'),
      );
      return;
    }
    this.queued += 1;
    this.tail = this.tail.then(async () => {
      try {
        const t = await this.api.transcribePcm(segment.pcm, this.options.language);
        if (t.text) {
          this.options.onUtterance({
            text: t.text,
            language: t.language,
            startMs: segment.startMs,
            endMs: segment.endMs,
          });
        }
      } catch (err) {
        this.report(err instanceof Error ? err : new Error(String(err)));
      } finally {
        this.queued -= 1;
      }
    });
  }

  private report(err: Error): void {
    try {
      this.options.onError?.(err);
    } catch {
      // a failing error handler must not stop the stream
    }
  }
}
