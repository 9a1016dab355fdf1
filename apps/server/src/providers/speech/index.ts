import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { FFMPEG } from './ffmpeg.js';
import { OpenAiSpeechToText } from './openai.js';
import { DEFAULT_MODEL_DIR, PocketsphinxSpeechToText, type PocketsphinxOptions } from './pocketsphinx.js';
import { workerEntry } from './pocketsphinx-pool.js';
import { probeSphinxLibraries } from './sphinx-binding.js';
import type { SpeechToText } from './types.js';

export type { SpeechStream, SpeechStreamOptions, SpeechToText, Transcription, Utterance } from './types.js';
export { SpeechCapacityError, UnsupportedSpeechLanguageError } from './types.js';
export { createPcmStreamDecoder, decodeToPcm, AudioDecodeError, type PcmStreamDecoder } from './ffmpeg.js';

/** What the server logs through (pino's logger fits). */
export interface SpeechLog {
  info(message: string): void;
}

export interface SpeechChoice {
  stt: SpeechToText | null;
  /** Why speech-to-text is off, for the start-up log and the capabilities endpoint. */
  reason?: string;
}

/** Every way the embedded engine can be missing a part, each naming the Debian package. */
function embeddedMissing(modelDir: string): string | null {
  const library = probeSphinxLibraries();
  if (library)
    return `the pocketsphinx library cannot be loaded (install Debian's libpocketsphinx3): ${library}`;
  const files = ['en-us/mdef', 'en-us.lm.bin', 'cmudict-en-us.dict'].map((f) => path.join(modelDir, f));
  const absent = files.filter((f) => !existsSync(f));
  if (absent.length)
    return `the pocketsphinx English model is missing (install pocketsphinx-en-us): ${absent.join(', ')}`;
  const worker = workerEntry().file;
  if (!existsSync(worker))
    return `the speech decoder worker is missing at ${worker} (build the server with build.mjs)`;
  return null;
}

let ffmpegProbe: string | null | undefined;

/** Once per process: every app a test builds asks again. */
function ffmpegMissing(): string | null {
  if (ffmpegProbe !== undefined) return ffmpegProbe;
  try {
    execFileSync(FFMPEG, ['-version'], { stdio: 'ignore', timeout: 10_000 });
    ffmpegProbe = null;
  } catch (err) {
    ffmpegProbe = `ffmpeg cannot run (install Debian's ffmpeg): ${err instanceof Error ? err.message : String(err)}`;
  }
  return ffmpegProbe;
}

/**
 * The speech-to-text the configuration asks for, or null with a human reason when it is off or a
 * part it needs is missing (checked now, so the server says at start-up what is off and why).
 * Nothing heavy happens here: decoders load on first use.
 */
export function createSpeechToText(
  ai: Config['ai'],
  log: SpeechLog,
  embedded: PocketsphinxOptions = {},
): SpeechChoice {
  // The caller says what is off at start-up (with the reason); here only what is on is told.
  const off = (reason: string): SpeechChoice => ({ stt: null, reason });
  if (ai.stt === 'off') return off('AI_STT_PROVIDER=off');

  // Both providers read browser audio (WebM/Opus) and clips through ffmpeg.
  const noFfmpeg = ffmpegMissing();
  if (noFfmpeg) return off(noFfmpeg);

  if (ai.stt === 'openai') {
    const { baseUrl, apiKey, sttModel } = ai.openai;
    if (!baseUrl) return off('AI_STT_PROVIDER=openai needs AI_BASE_URL');
    log.info(`speech-to-text: OpenAI-compatible API (model ${sttModel}, any language)`);
    return { stt: new OpenAiSpeechToText({ baseUrl, apiKey, model: sttModel }) };
  }

  const missing = embeddedMissing(embedded.modelDir ?? DEFAULT_MODEL_DIR);
  if (missing) return off(missing);
  const stt = new PocketsphinxSpeechToText(embedded);
  log.info(`speech-to-text: embedded pocketsphinx (English only, up to ${stt.maxStreams} speakers at once)`);
  return { stt };
}
