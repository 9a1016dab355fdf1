import type { Sentence } from '../rules/nlp.js';
import type { SourceLine } from '../types.js';

/**
 * `k:` features of consensus reached over several turns, for the decision classifier
 * (features.ts). A decision in casual talk is often not one firm sentence but a proposal that
 * several people take up, or a turn that sums up what others just agreed. Like the other groups
 * they say nothing about the topic; "echo" compares a turn's content words with its neighbours'
 * without naming them.
 *
 * - `k:agreed-by-two`: two or more other speakers agree within the next four turns, before anyone
 *   objects;
 * - `k:after-agreement`: a firm statement (not a question, not hedged, more than five words) right
 *   after someone else's agreement;
 * - `k:echoed`: a turn by someone else within the next two repeats two or more of its content words;
 * - `k:echoes-proposal`: the turn repeats two or more content words of another speaker's proposal
 *   or question among the three turns before it;
 * - `k:unopposed`: a firm statement followed by at least two turns of others, none of them an
 *   objection or a question.
 */
const AGREEMENT =
  /\b(?:yes|yeah|yep|agreed|agree|fine|okay|ok|sure|deal|done|perfect|great|absolutely|definitely|works for me|that works|sounds good|sounds right|makes sense|happy with|no objection|go for it|let's do it|do it|do that|seconded|second|aye|in favou?r|all right|alright)\b/;
const OBJECTION = /\b(?:no|not|don't|can't|won't|disagree|but|wait|hang on|actually|rather|instead)\b/;
const PROPOSAL =
  /\b(?:let's|should we|shall we|how about|what about|why don't we|could we|can we|i propose|i suggest|i'd suggest|i move|what if|my suggestion|we could|we should|i'd go with|i vote|propose)\b/;
const HEDGE =
  /\b(?:maybe|perhaps|might|possibly|i think|i guess|i wonder|probably|not sure|i don't know|could be|kind of|sort of|if we)\b/;
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'NUM', 'ADJ']);
const GENERIC = new Set(['be', 'have', 'do', 'go', 'get', 'make', 'say', 'think', 'know', 'want', 'need']);

/** The content lemmas of a turn (nouns, names, verbs, numbers, adjectives; no stop words). */
function contentWords(ss: Sentence[]): Set<string> {
  const out = new Set<string>();
  for (const s of ss)
    for (const t of s.tokens)
      if (t.word && !t.stop && CONTENT_POS.has(t.pos)) {
        const lemma = t.lemma.toLowerCase();
        if (lemma.length > 2 && !GENERIC.has(lemma)) out.add(lemma);
      }
  return out;
}

const shared = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;

export function consensusFeatures(
  lines: SourceLine[],
  byLine: Sentence[][],
  lowers: string[],
): Set<string>[] {
  const words = lowers.map((t) => t.split(/\s+/).filter(Boolean).length);
  const question = lowers.map((t) => t.endsWith('?'));
  const agree = lowers.map((t, i) => AGREEMENT.test(t) && words[i]! <= 12 && !question[i]);
  const objection = lowers.map((t, i) => !agree[i] && OBJECTION.test(t));
  const firm = lowers.map((t, i) => words[i]! > 5 && !question[i] && !HEDGE.test(t));
  const content = byLine.map(contentWords);
  return lines.map((line, i) => {
    const f = new Set<string>();
    const agreers = new Set<string>();
    for (let k = i + 1; k <= i + 4 && k < lines.length; k += 1) {
      const other = lines[k]!;
      if (other.speaker === line.speaker) continue;
      if (objection[k]) break;
      if (agree[k]) agreers.add(other.speaker);
    }
    if (agreers.size >= 2) f.add('k:agreed-by-two');
    const prev = lines[i - 1];
    if (prev && prev.speaker !== line.speaker && agree[i - 1] && firm[i]) f.add('k:after-agreement');
    for (let k = i + 1; k <= i + 2 && k < lines.length; k += 1)
      if (lines[k]!.speaker !== line.speaker && shared(content[i]!, content[k]!) >= 2) f.add('k:echoed');
    for (let k = i - 1; k >= i - 3 && k >= 0; k -= 1)
      if (
        lines[k]!.speaker !== line.speaker &&
        (PROPOSAL.test(lowers[k]!) || question[k]) &&
        shared(content[i]!, content[k]!) >= 2
      )
        f.add('k:echoes-proposal');
    if (firm[i]) {
      let others = 0;
      let opposed = false;
      for (let k = i + 1; k <= i + 3 && k < lines.length; k += 1) {
        if (lines[k]!.speaker === line.speaker) continue;
        others += 1;
        if (objection[k] || question[k]) opposed = true;
      }
      if (others >= 2 && !opposed) f.add('k:unopposed');
    }
    return f;
  });
}
