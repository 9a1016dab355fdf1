import type { Sentence } from './nlp.js';

/**
 * Constant-time lookups in a meeting's sentences (readSentences' array, never changed after):
 * a sentence's position, the sentences of a line. The rules asked these with `indexOf` and
 * `filter` over every sentence, once per sentence, which made a 2,000-line meeting quadratic and
 * let a chat flood of matching lines ("I'll do it by then.") make it cubic. Built once per array.
 */
interface Index {
  position: Map<Sentence, number>;
  lines: Map<number, { first: number; sentences: Sentence[] }>;
}

const indexes = new WeakMap<readonly Sentence[], Index>();

function indexOf(sentences: readonly Sentence[]): Index {
  let index = indexes.get(sentences);
  if (!index) {
    index = { position: new Map(), lines: new Map() };
    for (let i = 0; i < sentences.length; i += 1) {
      const s = sentences[i]!;
      index.position.set(s, i);
      const line = index.lines.get(s.line);
      if (line) line.sentences.push(s);
      else index.lines.set(s.line, { first: i, sentences: [s] });
    }
    indexes.set(sentences, index);
  }
  return index;
}

/** Where `s` is in `sentences` (-1 when it is not there), as `indexOf` answers. */
export function positionOf(sentences: readonly Sentence[], s: Sentence): number {
  return indexOf(sentences).position.get(s) ?? -1;
}

/** The sentences of input line `line`, in order (empty when it has none). */
export function sentencesOfLine(sentences: readonly Sentence[], line: number): readonly Sentence[] {
  return indexOf(sentences).lines.get(line)?.sentences ?? [];
}

/** The position of the first sentence of line `line` (-1 when it has none), as `findIndex` answers. */
export function firstOfLine(sentences: readonly Sentence[], line: number): number {
  return indexOf(sentences).lines.get(line)?.first ?? -1;
}

/** The nearest sentence before position `i` that `test` accepts, without copying the array. */
export function lastBefore(
  sentences: readonly Sentence[],
  i: number,
  test: (s: Sentence) => boolean,
): Sentence | undefined {
  for (let j = Math.min(i, sentences.length) - 1; j >= 0; j -= 1)
    if (test(sentences[j]!)) return sentences[j];
  return undefined;
}

/** The first sentence after position `i` that `test` accepts, without copying the array. */
export function firstAfter(
  sentences: readonly Sentence[],
  i: number,
  test: (s: Sentence) => boolean,
): Sentence | undefined {
  for (let j = i + 1; j < sentences.length; j += 1) if (test(sentences[j]!)) return sentences[j];
  return undefined;
}
