import {
  SpeechCapacityError,
  type SpeechStream,
  type SpeechStreamOptions,
  type SpeechToText,
} from '../../providers/speech/types.js';
import type { Summarizer } from '../../providers/summaries/types.js';
import type { Translator } from '../../providers/translation/types.js';
import type { AiEngines } from './types.js';

/**
 * Deterministic AI engines for tests of the room's AI plumbing (the engines themselves are tested
 * in providers/*): the speech engine "hears" the text encoded in the PCM bytes (UTF-8), one
 * utterance per flush, with a partial (the utterance's text so far) after each write; the translator serves en→es and en→fr by tagging; the summarizer makes one
 * action item per line that starts with "I'll".
 */
export function fakeSpeech(
  opts: { maxStreams?: number } = {},
): SpeechToText & { streams: Array<{ written: number; closed: boolean }> } {
  const streams: Array<{ written: number; closed: boolean }> = [];
  return {
    name: 'fake-speech',
    languages: ['en'],
    streams,
    maxStreams: opts.maxStreams,
    openStream(options: SpeechStreamOptions): SpeechStream {
      const open = streams.filter((s) => !s.closed).length;
      if (opts.maxStreams !== undefined && open >= opts.maxStreams) {
        throw new SpeechCapacityError(opts.maxStreams);
      }
      const record = { written: 0, closed: false };
      streams.push(record);
      let pending: Buffer[] = [];
      let at = 0;
      let seq = 1;
      const flush = async () => {
        if (pending.length === 0) return;
        const bytes = Buffer.concat(pending);
        pending = [];
        const ms = (bytes.length / 32_000) * 1000;
        options.onUtterance({
          text: bytes.toString('utf8'),
          language: 'en',
          startMs: at,
          endMs: at + ms,
          seq: seq++,
        });
        at += ms;
      };
      return {
        write(pcm) {
          if (record.closed) return;
          record.written += pcm.length;
          pending.push(pcm);
          const bytes = Buffer.concat(pending);
          options.onPartial?.({
            text: bytes.toString('utf8').trim(),
            seq,
            startMs: at,
            endMs: at + (bytes.length / 32_000) * 1000,
          });
        },
        flush,
        async close() {
          await flush();
          record.closed = true;
        },
      };
    },
    async transcribeClip(audio) {
      return { text: audio.toString('utf8'), language: 'en' };
    },
    async close() {},
  };
}

export function fakeTranslator(): Translator & { calls: string[] } {
  const calls: string[] = [];
  const pairs = new Set(['en>es', 'en>fr']);
  return {
    name: 'fake-translator',
    calls,
    supports: (from, to) => from === to || pairs.has(`${from}>${to}`),
    targets: (from) => [...pairs].filter((p) => p.startsWith(`${from}>`)).map((p) => p.slice(3)),
    async translate(text, from, to) {
      calls.push(`${from}>${to}:${text}`);
      return `[${to}] ${text}`;
    },
    async close() {},
  };
}

export function fakeSummarizer(): Summarizer {
  return {
    name: 'fake-summarizer',
    async summarize(input) {
      const mine = input.lines.filter((l) => /^I'll /i.test(l.text));
      return {
        summary: `${input.lines.length} lines from ${input.participants.join(', ')}`,
        keyPoints: input.lines.slice(0, 4).map((l) => ({ text: l.text, sources: [l.id] })),
        actionItems: mine.map((l) => ({ text: l.text, owner: l.speaker, due: null, sources: [l.id] })),
        decisions: [],
      };
    },
  };
}

export function fakeEngines(): AiEngines & {
  stt: ReturnType<typeof fakeSpeech>;
  translator: ReturnType<typeof fakeTranslator>;
} {
  return {
    stt: fakeSpeech(),
    sttOff: null,
    translator: fakeTranslator(),
    translatorOff: null,
    summarizer: fakeSummarizer(),
  };
}
