/**
 * The two ways audio reaches the embedded speech-to-text, measured on one voice (or recording
 * set) at a time:
 * - clip: each sentence alone as a WebM/Opus clip through transcribeClip (POST /api/ai/transcribe);
 * - live: every sentence, ~1 s of silence between them, streamed in 20 ms PCM frames into ONE
 *   openStream, as the room does with a speaker's microphone; the utterances it delivers are
 *   joined and compared with the joined references.
 */
import type { PocketsphinxSpeechToText } from '../../apps/server/src/providers/speech/pocketsphinx.js';
import type { Utterance } from '../../apps/server/src/providers/speech/types.js';
import { pcmToWebm, webmToPcm, withNoise } from './corpus.js';
import { sumErrors, type WordErrors, werPercent, wordErrors } from './wer.js';

export interface Item {
  reference: string;
  /** 16 kHz mono s16le, before the Opus round trip. */
  pcm: Buffer;
}

export interface PathFigures {
  werPercent: number;
  errors: number;
  referenceWords: number;
  audioSeconds: number;
  /** Wall time of decoding / audio duration (1 = as long as the audio). */
  realTimeFactor: number;
}

export interface LiveFigures extends PathFigures {
  sentences: number;
  utterances: number;
  /** The first few hypotheses, to see what goes wrong. */
  sample: string[];
}

const FRAME_BYTES = 640; // 20 ms of 16 kHz s16
const pcmSeconds = (pcm: Buffer) => pcm.length / 32_000;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

function figures(e: WordErrors, audioSeconds: number, wallMs: number): PathFigures {
  return {
    werPercent: werPercent(e),
    errors: e.errors,
    referenceWords: e.referenceWords,
    audioSeconds: round(audioSeconds, 1),
    realTimeFactor: round(wallMs / 1000 / audioSeconds),
  };
}

export async function clipPath(stt: PocketsphinxSpeechToText, items: Item[]): Promise<PathFigures> {
  const parts: WordErrors[] = [];
  let wallMs = 0;
  let seconds = 0;
  for (const item of items) {
    const webm = pcmToWebm(item.pcm);
    const started = performance.now();
    const { text } = await stt.transcribeClip(webm);
    wallMs += performance.now() - started;
    seconds += pcmSeconds(item.pcm);
    parts.push(wordErrors(item.reference, text));
  }
  return figures(sumErrors(parts), seconds, wallMs);
}

/**
 * The items one after another with `gapMs` of silence after each, background noise `noiseDbfs`
 * loud over all of it when asked, through the Opus round trip.
 */
export function session(items: Item[], gapMs: number, noiseDbfs?: number): { pcm: Buffer; endsMs: number[] } {
  const gap = Buffer.alloc(Math.round(gapMs * 16) * 2);
  const parts: Buffer[] = [];
  const endsMs: number[] = [];
  let at = 0;
  for (const item of items) {
    parts.push(item.pcm, gap);
    at += pcmSeconds(item.pcm) * 1000;
    endsMs.push(at);
    at += gapMs;
  }
  const clean = Buffer.concat(parts);
  const pcm = noiseDbfs === undefined ? clean : withNoise(clean, noiseDbfs);
  return { pcm: webmToPcm(pcmToWebm(pcm)), endsMs };
}

export async function livePath(
  stt: PocketsphinxSpeechToText,
  items: Item[],
  options: { gapMs?: number; noiseDbfs?: number } = {},
): Promise<LiveFigures> {
  const { pcm } = session(items, options.gapMs ?? 1000, options.noiseDbfs);
  const utterances: Utterance[] = [];
  const errors: Error[] = [];
  const started = performance.now();
  const stream = stt.openStream({ onUtterance: (u) => utterances.push(u), onError: (e) => errors.push(e) });
  for (let at = 0; at < pcm.length; at += FRAME_BYTES) stream.write(pcm.subarray(at, at + FRAME_BYTES));
  await stream.close();
  const wallMs = performance.now() - started;
  if (errors.length) throw new Error(`the live stream reported: ${errors.map((e) => e.message).join('; ')}`);
  const e = wordErrors(items.map((i) => i.reference).join(' '), utterances.map((u) => u.text).join(' '));
  return {
    ...figures(e, pcmSeconds(pcm), wallMs),
    sentences: items.length,
    utterances: utterances.length,
    sample: utterances.slice(0, 3).map((u) => u.text),
  };
}

export interface LatencyFigures {
  /** From the end of a sentence's audio (written in real time) to its utterance, in ms. */
  medianMs: number;
  maxMs: number;
  samples: number;
}

/**
 * The engine's share of caption latency: the audio is written in real time (20 ms frames on a
 * clock), and each utterance's arrival is timed from the moment its sentence's last sample was
 * written. Includes the detector's wait for silence (-vad_postspeech) and the final search.
 */
export async function liveLatency(stt: PocketsphinxSpeechToText, items: Item[]): Promise<LatencyFigures> {
  const { pcm, endsMs } = session(items, 1000);
  const arrivals: { at: number; endMs: number }[] = [];
  const stream = stt.openStream({
    onUtterance: (u) => arrivals.push({ at: performance.now(), endMs: u.endMs }),
  });
  const started = performance.now();
  for (let at = 0, frame = 0; at < pcm.length; at += FRAME_BYTES, frame++) {
    const due = started + frame * 20;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    stream.write(pcm.subarray(at, at + FRAME_BYTES));
  }
  await stream.close();
  // Each utterance belongs to the sentence whose end is nearest its own end.
  const delays = arrivals.map((a) => {
    const end = endsMs.reduce((best, e) => (Math.abs(e - a.endMs) < Math.abs(best - a.endMs) ? e : best));
    return a.at - (started + end);
  });
  delays.sort((a, b) => a - b);
  return {
    medianMs: Math.round(delays[Math.floor(delays.length / 2)] ?? NaN),
    maxMs: Math.round(delays.at(-1) ?? NaN),
    samples: delays.length,
  };
}
