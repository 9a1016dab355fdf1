/**
 * Where the live path loses words, sentence by sentence, on the TUNING split only (even
 * positions of sentences.txt): the flite voices' session (as livePath makes it) through one
 * SphinxDecoder in this thread, utterances assigned to sentences by time, beside each sentence's
 * own audio (cut from the same session) decoded as one whole utterance.
 * Run: node --import tsx bench/speech/diagnose.ts  (DIAG_ARGS="-name value", DIAG_VOICES="kal",
 * DIAG_BAND=auto|off|extend, DIAG_WHOLE=0 to skip whole-utterance decoding).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadSphinx } from '../../apps/server/src/providers/speech/sphinx-binding.js';
import {
  type DecodedUtterance,
  SphinxDecoder,
} from '../../apps/server/src/providers/speech/sphinx-decoder.js';
import { DEFAULT_MODEL_DIR } from '../../apps/server/src/providers/speech/pocketsphinx.js';
import { fileToPcm, loadSentences, synthesize, VOICES } from './corpus.js';
import { session } from './paths.js';
import { normalise, sumErrors, werPercent, wordErrors } from './wer.js';

const cache = '/tmp/werdiag';
mkdirSync(cache, { recursive: true });
const sentences = loadSentences().filter((_, i) => i % 2 === 0);
const voiceFilter = (process.env.DIAG_VOICES ?? '').split(/\s+/).filter(Boolean);
const voices = VOICES.filter(
  (v) => v.engine === 'flite' && (!voiceFilter.length || voiceFilter.includes(v.name)),
);
const extraArgs = (process.env.DIAG_ARGS ?? '').split(/\s+/).filter(Boolean);
const band = (process.env.DIAG_BAND ?? 'auto') as 'auto' | 'off' | 'extend';
const whole = process.env.DIAG_WHOLE !== '0';
const frameMs = Number(process.env.DIAG_FRAME_MS ?? 20);
const quiet = process.env.DIAG_QUIET === '1';

const api = loadSphinx();
const decoder = new SphinxDecoder(api, {
  modelDir: process.env.DIAG_MODEL ?? DEFAULT_MODEL_DIR,
  extraArgs,
  frameMs,
  maxUtteranceMs: 15_000,
  bandwidth: band,
});
const totals = { live: [] as ReturnType<typeof wordErrors>[], whole: [] as ReturnType<typeof wordErrors>[] };
let audioS = 0;
let wallMs = 0;
for (const voice of voices) {
  const items = sentences.map((reference, i) => {
    const file = path.join(cache, `${voice.name}-${i}.wav`);
    if (!existsSync(file)) synthesize(voice, reference, file);
    return { reference, pcm: fileToPcm(file) };
  });
  const { pcm, endsMs } = session(items, 1000);
  const startsMs = items.map((it, i) => endsMs[i]! - it.pcm.length / 32);
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
  const utts: DecodedUtterance[] = [];
  const t0 = performance.now();
  decoder.open();
  const sink = { utterance: (u: (typeof utts)[number]) => void utts.push(u) };
  for (let at = 0; at < samples.length; at += 320) decoder.write(samples.subarray(at, at + 320), sink);
  decoder.end(sink);
  wallMs += performance.now() - t0;
  audioS += samples.length / 16000;
  const perLive = items.map(() => [] as string[]);
  for (const u of utts) {
    const mid = (u.startMs + u.endMs) / 2;
    let best = 0;
    for (let i = 0; i < items.length; i++)
      if (
        Math.abs(mid - (startsMs[i]! + endsMs[i]!) / 2) <
        Math.abs(mid - (startsMs[best]! + endsMs[best]!) / 2)
      )
        best = i;
    perLive[best]!.push(
      `${u.text} [${Math.round(u.startMs - startsMs[best]!)}..${Math.round(u.endMs - endsMs[best]!)}]`,
    );
  }
  const vl: ReturnType<typeof wordErrors>[] = [];
  const vw: ReturnType<typeof wordErrors>[] = [];
  console.log(`\n== ${voice.id}`);
  items.forEach((it, i) => {
    const liveText = perLive[i]!.map((t) => t.replace(/ \[.*\]$/, '')).join(' ');
    const el = wordErrors(it.reference, liveText);
    vl.push(el);
    let wholeText = '';
    let ew = { errors: 0, referenceWords: 0 };
    if (whole) {
      const s = Math.max(0, Math.round((startsMs[i]! - 300) * 16));
      const e = Math.min(samples.length, Math.round((endsMs[i]! + 500) * 16));
      wholeText = decoder.decodeClip(samples.slice(s, e));
      ew = wordErrors(it.reference, wholeText);
      vw.push(ew);
    }
    if (!quiet && (el.errors || ew.errors)) {
      console.log(`  REF   ${normalise(it.reference).join(' ')}`);
      console.log(`  live  (${el.errors}) ${perLive[i]!.join(' | ')}`);
      if (whole) console.log(`  whole (${ew.errors}) ${wholeText}`);
    }
  });
  console.log(
    `  ${voice.id}: live ${werPercent(sumErrors(vl))}%  whole ${whole ? werPercent(sumErrors(vw)) : '-'}%  utts ${utts.length}`,
  );
  totals.live.push(...vl);
  totals.whole.push(...vw);
}
console.log(
  `\nTOTAL live ${werPercent(sumErrors(totals.live))}% (${sumErrors(totals.live).errors}/${sumErrors(totals.live).referenceWords})  whole ${whole ? werPercent(sumErrors(totals.whole)) : '-'}%  live RTF ${(wallMs / 1000 / audioS).toFixed(3)}  args [${extraArgs.join(' ')}] band ${band}`,
);
decoder.free();
