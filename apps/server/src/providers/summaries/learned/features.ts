import {
  AGREED_PLAN,
  ASSENT_CHECK,
  ASSENT_ONLY,
  BARE_AGREE,
  BARE_APPROVAL,
  CHANGE_OF_MIND,
  CONFIRMS,
  DELIVERY,
  EXPLICIT,
  IT_IS,
  LEAD,
  LETS,
  NOT_NOW,
  NO_THING,
  PAST,
  PROCEDURAL,
  PUT_OFF,
  recalled,
  REVERSAL,
  WE_ARE_DOING,
  WE_ARE_NOT,
  WE_WILL,
} from '../rules/decision-phrases.js';
import type { Sentence, Token } from '../rules/nlp.js';
import { consensusFeatures } from './consensus.js';
import { contextFeatures, wordFeatures } from './context.js';
import type { SourceLine } from '../types.js';

/**
 * Features of one transcript line (one turn) for the decision classifier, as strings. They say
 * how something is said, not what it is about: nouns, names, adjectives and numbers are reduced
 * to their part of speech, so "we'll go with the blue one" and "we'll go with Hetzner" look the
 * same. Each feature's group is its prefix, so a model can be trained on some groups only:
 *
 * - `g:` grammar: unigrams and bigrams of the abstracted tokens (lemma of function words and
 *   verbs, POS tag of content words), and the first three of each sentence with their position;
 * - `m:` markers: question, imperative, past, negation, date words, length, place in the meeting;
 * - `c:` context: the turns around it (a proposal or question before, assent after, same speaker);
 * - `p:` the phrase patterns of the hand-written rules (decision-phrases.ts), tested per sentence;
 * - `r:` the hand-written rules' own output (this line is a rule decision's or action's source);
 * - `x:`, `l:`, `w:` agreement around the turn, modality, lemmas and meaning clusters (context.ts);
 * - `k:` consensus reached over several turns (consensus.ts).
 */
export type FeatureGroup = 'g' | 'm' | 'c' | 'p' | 'r' | 'x' | 'l' | 'w' | 'k';

/** What the hand-written rules found, by line index (0-based, into the lines given). */
export interface RuleSignals {
  decisionLines: ReadonlySet<number>;
  actionLines: ReadonlySet<number>;
}

/** Parts of speech whose lemma is kept: the grammar of a turn rather than its topic. */
const KEEP_LEMMA = new Set(['PRON', 'AUX', 'PART', 'ADP', 'DET', 'SCONJ', 'CCONJ', 'INTJ', 'VERB', 'ADV']);
const ASSENT_START =
  /^(?:yes|yeah|yep|agreed|agree|sounds good|sounds fine|sounds right|fine|ok|okay|great|perfect|deal|works|good|sure|absolutely|makes sense|done|fair enough|happy with that|i'm in|no objection|all in favour|aye|that works|let's do it|go for it)\b/;
const PROPOSAL =
  /\b(?:let's|should we|shall we|how about|what about|why don't we|could we|can we|i propose|i suggest|i'd suggest|i move|what if|my suggestion|my proposal|we could|we should|i'd go with|i vote)\b/;
const DATE_WORD =
  /\b(?:today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month|quarter|january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2}(?:st|nd|rd|th))\b/;

function abstract(t: Token): string {
  if (!t.word) return t.text === '?' ? '?' : '';
  return KEEP_LEMMA.has(t.pos) ? t.lemma.toLowerCase() : t.pos;
}

function sentenceFeatures(s: Sentence, out: Set<string>): void {
  const seq = s.tokens.map(abstract).filter((a) => a !== '');
  const padded = ['<s>', ...seq, '</s>'];
  for (let k = 0; k < padded.length; k += 1) {
    if (k > 0 && k < padded.length - 1) out.add(`g:${padded[k]}`);
    if (k + 1 < padded.length) out.add(`g:${padded[k]}_${padded[k + 1]}`);
  }
  seq.slice(0, 3).forEach((a, k) => out.add(`g:f${k}:${a}`));
  const lower = s.lower.trim();
  if (lower.endsWith('?')) out.add('m:question');
  // An imperative: the first word (after "so", "okay", "then" …) is a verb in its base form.
  const first = s.tokens.find(
    (t) =>
      t.word &&
      !(
        t.pos === 'INTJ' ||
        t.pos === 'CCONJ' ||
        (t.pos === 'ADV' && /^(?:so|then|now|just|okay|ok)$/.test(t.lower))
      ),
  );
  if (first && first.pos === 'VERB' && first.lemma === first.lower) out.add('m:imperative');
  if (
    s.tokens.some(
      (t) =>
        (t.pos === 'VERB' && t.lower !== t.lemma && t.lower.endsWith('ed')) ||
        (t.pos === 'AUX' && /^(?:was|were|did|had)$/.test(t.lower)),
    )
  )
    out.add('m:past');
  if (s.tokens.some((t) => /^(?:not|n't|no|never|nothing|nobody)$/.test(t.lower))) out.add('m:negation');
  if (DATE_WORD.test(lower)) out.add('m:date');
  if (s.tokens.some((t) => t.pos === 'NUM')) out.add('m:number');
}

function phraseFeatures(s: Sentence, out: Set<string>): void {
  const lower = s.lower.trim();
  const bare = lower.replace(LEAD, '');
  const test = (name: string, hit: boolean) => {
    if (hit) out.add(`p:${name}`);
  };
  test(
    'explicit',
    EXPLICIT.some((r) => r.test(bare)),
  );
  const lets = LETS.exec(bare);
  test('lets', !!lets);
  test('lets-procedural', !!lets && PROCEDURAL.test(lets[1]!));
  test('lets-put-off', !!lets && PUT_OFF.test(lets[1]!));
  test('lets-bare-agree', !!lets && BARE_AGREE.test(lets[1]!));
  const will = WE_WILL.exec(bare);
  test('we-will', !!will);
  test('we-will-delivery', !!will && DELIVERY.test(will[1]!));
  test('past', PAST.test(lower));
  test('recalled', recalled(lower));
  test('reversal', REVERSAL.test(lower));
  test('not-now', NOT_NOW.test(lower));
  test('approval', BARE_APPROVAL.test(lower));
  test('assent-only', ASSENT_ONLY.test(lower));
  test('assent-check', ASSENT_CHECK.test(lower));
  test('confirms', CONFIRMS.test(bare));
  test('change-of-mind', CHANGE_OF_MIND.test(lower));
  test('it-is', IT_IS.test(bare));
  test('no-thing', NO_THING.test(lower));
  test('agreed-plan', AGREED_PLAN.test(lower));
  test('we-are-doing', WE_ARE_DOING.test(lower));
  test('we-are-not', WE_ARE_NOT.test(bare));
}

const bucket = (n: number, edges: number[]) => edges.filter((e) => n >= e).length;

/**
 * One feature set per line of `lines` (the same lines, in the same order, that `sentences` were
 * read from). `rules` adds the `r:` group; without it that group is empty.
 */
export function lineFeatures(
  lines: SourceLine[],
  sentences: Sentence[],
  rules?: RuleSignals,
  clusters: Readonly<Record<string, number>> | null = null,
): string[][] {
  const byLine: Sentence[][] = lines.map(() => []);
  for (const s of sentences) byLine[s.line]?.push(s);
  const own = byLine.map((ss) => {
    const f = new Set<string>();
    for (const s of ss) {
      sentenceFeatures(s, f);
      phraseFeatures(s, f);
    }
    return f;
  });
  const words = byLine.map((ss) => {
    const f = new Set<string>();
    for (const s of ss) wordFeatures(s, clusters, f);
    return f;
  });
  const lowers = lines.map((l) =>
    l.text
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .trim(),
  );
  const wordCount = lowers.map((t) => t.split(/\s+/).filter(Boolean).length);
  const context = contextFeatures(lines, byLine, lowers);
  const consensus = consensusFeatures(lines, byLine, lowers);
  return lines.map((line, i) => {
    const f = new Set([...own[i]!, ...words[i]!, ...context[i]!, ...consensus[i]!]);
    f.add(`m:words${bucket(wordCount[i]!, [4, 9, 16, 30])}`);
    f.add(`m:sentences${Math.min(3, byLine[i]!.length)}`);
    f.add(`m:place${bucket(i / Math.max(1, lines.length), [0.2, 0.8])}`);
    if (lowers[i]!.endsWith('?')) f.add('m:ends-question');
    const assent = ASSENT_START.test(lowers[i]!);
    if (assent) f.add('m:assent');
    const prev = lines[i - 1];
    const next = lines[i + 1];
    if (prev) {
      const other = prev.speaker !== line.speaker;
      f.add(other ? 'c:prev-other' : 'c:prev-same');
      if (lowers[i - 1]!.endsWith('?')) f.add(other ? 'c:prev-other-question' : 'c:prev-same-question');
      if (PROPOSAL.test(lowers[i - 1]!)) f.add(other ? 'c:prev-other-proposal' : 'c:prev-same-proposal');
      if (other && assent && PROPOSAL.test(lowers[i - 1]!)) f.add('c:assent-to-proposal');
      if (other && assent && lowers[i - 1]!.endsWith('?')) f.add('c:assent-to-question');
      if (ASSENT_START.test(lowers[i - 1]!)) f.add('c:prev-assent');
    } else f.add('c:first');
    if (next) {
      const other = next.speaker !== line.speaker;
      if (other && ASSENT_START.test(lowers[i + 1]!)) f.add('c:next-other-assent');
      if (other && lowers[i + 1]!.endsWith('?')) f.add('c:next-other-question');
      if (!other) f.add('c:next-same');
      for (const g of own[i + 1]!) if (g.startsWith('g:f0:') || g === 'm:question') f.add(`c:next-${g}`);
    } else f.add('c:last');
    if (prev)
      for (const g of own[i - 1]!) if (g.startsWith('g:f0:') || g === 'm:question') f.add(`c:prev-${g}`);
    const after2 = lines[i + 2];
    if (after2 && after2.speaker !== line.speaker && ASSENT_START.test(lowers[i + 2]!))
      f.add('c:next2-assent');
    if (rules) {
      if (rules.decisionLines.has(i)) f.add('r:decision');
      else if (rules.decisionLines.has(i - 1) || rules.decisionLines.has(i + 1)) f.add('r:decision-near');
      if (rules.actionLines.has(i)) f.add('r:action');
    }
    return [...f];
  });
}

/** Keeps the features of the given groups only. */
export function onlyGroups(features: string[], groups: readonly FeatureGroup[]): string[] {
  return features.filter((f) => groups.includes(f.slice(0, f.indexOf(':')) as FeatureGroup));
}
