import type { Sentence } from '../rules/nlp.js';
import type { SourceLine } from '../types.js';

/**
 * Features of a turn's place in the conversation and of how firmly it is said, for the decision
 * classifier (features.ts). Like the others they say nothing about the topic:
 *
 * - `x:` agreement in the turns after it (by others), proposals and questions before it, the
 *   chair (the speaker who talks most) and the closing stretch of the meeting, modality ("we'll",
 *   "let's", "going to" + a verb), hedges, bare rulings ("No overtime this week"), conditions;
 * - `l:` the lemma of every word (kept by the trainer only if it is seen in several meetings, so
 *   "agreed", "fine", "motion" stay and topic words go);
 * - `w:` the meaning cluster of every content word (word-clusters.json: GloVe vectors grouped by
 *   k-means), so "approve" and "adopt", or "Tuesday" and "Friday", look alike.
 */

/** Agreement said anywhere in a short turn: "that works for me", "fine by me", "okay, done". */
const AGREEMENT =
  /\b(?:yes|yeah|yep|agreed|agree|fine|okay|ok|sure|deal|done|perfect|great|absolutely|definitely|works for me|that works|sounds good|sounds right|makes sense|happy with|no objection|go for it|let's do it|do it|do that|seconded|second|aye|in favou?r|all right|alright)\b/;
const DISAGREEMENT = /\b(?:no|not|don't|can't|won't|disagree|but|wait|hang on|actually|really\?)\b/;
const PROPOSAL =
  /\b(?:let's|should we|shall we|how about|what about|why don't we|could we|can we|i propose|i suggest|i'd suggest|i move|what if|my suggestion|we could|we should|i'd go with|i vote|move that|propose)\b/;
const HEDGE =
  /\b(?:maybe|perhaps|might|possibly|i think|i guess|i wonder|probably|not sure|i don't know|could be|kind of|sort of|if we)\b/;
const SUMMING =
  /^(?:so|okay so|ok so|right|alright|all right|then|to sum up|to recap|so to recap|so that's)\b/;
const CONDITION =
  /\b(?:until|till|once|unless|provided|as long as|subject to|on condition|at the next|next meeting|in (?:the )?(?:spring|summer|autumn|fall|winter))\b/;
const TENTATIVE_Q = /\?$/;

const MODAL_WE = new Set(["we'll", 'we', "let's", 'lets', 'us']);

function modality(ss: Sentence[], out: Set<string>): void {
  for (const s of ss) {
    const toks = s.tokens.filter((t) => t.word);
    for (let k = 0; k < toks.length; k += 1) {
      const t = toks[k]!;
      const next = toks.slice(k + 1, k + 4);
      const verbSoon = next.some((n) => n.pos === 'VERB');
      if (t.lower === "let's" || (t.lower === 'let' && toks[k + 1]?.lower === "'s")) {
        if (verbSoon) out.add('x:lets-verb');
        if (next.some((n) => n.lower === 'not' || n.lower === "n't")) out.add('x:lets-not');
      }
      if (MODAL_WE.has(t.lower) || t.lower === 'we') {
        const window = next.map((n) => n.lower).join(' ');
        if (/^(?:'ll|will|are going to|'re going to|'re gonna|are gonna)\b/.test(window) && verbSoon)
          out.add('x:we-will-verb');
        if (
          /^(?:won't|will not|'re not going to|are not going to|'re not|are not|aren't|don't|do not)\b/.test(
            window,
          )
        )
          out.add('x:we-will-not');
        if (/^(?:'re|are) (?:going|sticking|keeping|staying|moving|switching|dropping|doing)\b/.test(window))
          out.add('x:we-are-ing');
      }
      if ((t.lower === 'i' || t.lower === "i'll") && next.some((n) => /^(?:'ll|will)$/.test(n.lower)))
        out.add('x:i-will');
    }
    const first = toks.find(
      (t) => !/^(?:so|then|okay|ok|right|fine|well|and|yes|yeah|alright)$/.test(t.lower),
    );
    if (first && /^(?:no|nothing|nobody|none)$/.test(first.lower) && toks.length > 2) out.add('x:bare-no');
    if (
      first &&
      first.pos === 'NOUN' &&
      toks.some((t) => /^(?:is|are|goes|go|stays|stay|moves|'s)$/.test(t.lower))
    )
      out.add('x:noun-is');
  }
}

export function contextFeatures(lines: SourceLine[], byLine: Sentence[][], lowers: string[]): Set<string>[] {
  const count = new Map<string, number>();
  for (const l of lines) count.set(l.speaker, (count.get(l.speaker) ?? 0) + 1);
  const chair = [...count.entries()].reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0])[0];
  const words = lowers.map((t) => t.split(/\s+/).filter(Boolean).length);
  const agree = lowers.map((t, i) => AGREEMENT.test(t) && words[i]! <= 12);
  const disagree = lowers.map((t) => DISAGREEMENT.test(t));
  return lines.map((line, i) => {
    const f = new Set<string>();
    modality(byLine[i]!, f);
    const lower = lowers[i]!;
    if (line.speaker === chair) f.add('x:chair');
    if (i === 0 || lines[0]!.speaker === line.speaker) f.add('x:opener');
    const place = i / Math.max(1, lines.length - 1);
    if (place >= 0.85) f.add('x:closing');
    if (HEDGE.test(lower)) f.add('x:hedge');
    if (SUMMING.test(lower)) f.add('x:summing');
    if (CONDITION.test(lower)) f.add('x:condition');
    if (TENTATIVE_Q.test(lower)) f.add('x:question');
    // Agreement by others in the next two turns, before anyone objects.
    let agreed = 0;
    for (let k = i + 1; k <= i + 2 && k < lines.length; k += 1) {
      if (lines[k]!.speaker === line.speaker) continue;
      if (agree[k] && !TENTATIVE_Q.test(lowers[k]!)) agreed += 1;
      else if (disagree[k]) {
        f.add('x:next-objection');
        break;
      }
    }
    if (agreed > 0) f.add('x:next-agreed');
    if (agreed > 1) f.add('x:next-agreed-twice');
    // A short agreement that answers someone else's proposal or question just before.
    const prevOther = [i - 1, i - 2].find((k) => k >= 0 && lines[k]!.speaker !== line.speaker);
    if (prevOther !== undefined) {
      const p = lowers[prevOther]!;
      if (PROPOSAL.test(p)) f.add('x:after-proposal');
      if (TENTATIVE_Q.test(p)) f.add('x:after-question');
      if (agree[i] && (PROPOSAL.test(p) || TENTATIVE_Q.test(p))) f.add('x:agrees-to-proposal');
    }
    if (agree[i] && words[i]! <= 3) f.add('x:bare-agreement');
    if (words[i]! > 6 && !HEDGE.test(lower) && !TENTATIVE_Q.test(lower) && agreed > 0)
      f.add('x:firm-then-agreed');
    return f;
  });
}

/** `l:` lemmas and `w:` meaning clusters of one sentence's words. */
export function wordFeatures(
  s: Sentence,
  clusters: Readonly<Record<string, number>> | null,
  out: Set<string>,
): void {
  for (const t of s.tokens) {
    if (!t.word) continue;
    out.add(`l:${t.lemma.toLowerCase()}`);
    if (!clusters || t.stop) continue;
    const c = clusters[t.lower] ?? clusters[t.lemma.toLowerCase()];
    if (c !== undefined) out.add(`w:${c}`);
  }
}
