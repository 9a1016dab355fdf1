import model from 'wink-eng-lite-web-model';
import winkNLP, { type ItemSentence, type WinkMethods } from 'wink-nlp';
import type { SourceLine } from '../types.js';

/** One token of a sentence, as wink-nlp's English model sees it. */
export interface Token {
  text: string;
  lower: string;
  lemma: string;
  /** Universal POS tag: VERB, AUX, PRON, PROPN, NOUN, … */
  pos: string;
  stop: boolean;
  word: boolean;
}

/** A sentence of a transcript line, with where it came from. */
export interface Sentence {
  /** Index of its line in the input (0-based). */
  line: number;
  lineId: string;
  speaker: string;
  /** The sentence as said, typographic apostrophes made straight. */
  text: string;
  /** Lower-cased `text`, for the phrase rules. */
  lower: string;
  tokens: Token[];
}

let nlp: WinkMethods | null = null;

/** wink-nlp loads its model once (~100 ms); later meetings reuse it. */
function instance(): WinkMethods {
  nlp ??= winkNLP(model);
  return nlp;
}

export function normalise(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits every line into sentences with tokens, POS tags, lemmas and stop-word flags. */
export function readSentences(lines: SourceLine[]): Sentence[] {
  const winkNlp = instance();
  const its = winkNlp.its;
  const sentences: Sentence[] = [];
  lines.forEach((line, index) => {
    const doc = winkNlp.readDoc(normalise(line.text));
    doc.sentences().each((s: ItemSentence) => {
      const text = s.out();
      const t = s.tokens();
      // wink's typings reject its.lemma (its addons parameter differs); the call is the documented one.
      const out = <T>(what: unknown) => (t.out as (f: unknown) => unknown)(what) as T[];
      const texts = out<string>(its.value);
      const lemmas = out<string>(its.lemma);
      const pos = out<string>(its.pos);
      const stop = out<boolean>(its.stopWordFlag);
      const types = out<string>(its.type);
      sentences.push({
        line: index,
        lineId: line.id,
        speaker: line.speaker,
        text,
        lower: text.toLowerCase(),
        tokens: texts.map((tx, i) => ({
          text: tx,
          lower: tx.toLowerCase(),
          lemma: lemmas[i] ?? tx.toLowerCase(),
          pos: pos[i] ?? 'X',
          stop: stop[i] ?? false,
          word: types[i] === 'word',
        })),
      });
    });
  });
  return sentences;
}

/** Lemmas of the content words: what two sentences must share to be about the same thing. */
export function contentLemmas(tokens: Token[]): string[] {
  return tokens.filter((t) => t.word && !t.stop && t.lower.length > 1).map((t) => t.lemma);
}
