import type { SummaryPoint } from '../types.js';
import { contentLemmas, type Sentence } from './nlp.js';

/**
 * TextRank over TF-IDF sentence vectors: a sentence is central when it shares weighted words
 * with many other central sentences. The overview is the top few in the order they were said;
 * key points are the next ones down the ranking.
 */
const DAMPING = 0.85;
const ITERATIONS = 40;
/** Candidates on each side of a sentence that it is compared with (about ten minutes of talk). */
const WINDOW = 100;

/** Greetings, thanks and one-word answers say nothing about the meeting. */
const SMALL_TALK =
  /^(?:hi|hello|hey|thanks|thank you|bye|good (?:morning|afternoon)|morning|nice to meet|talk soon|same time)\b/i;

export function rankSentences(sentences: Sentence[]): Array<{ sentence: Sentence; score: number }> {
  const candidates = sentences.filter(
    (s) =>
      s.tokens.filter((t) => t.word).length >= 6 &&
      contentLemmas(s.tokens).length >= 3 && // "No, I think that's it." says nothing
      !s.text.trim().endsWith('?') &&
      !SMALL_TALK.test(s.text.trim()),
  );
  const bags = candidates.map((s) => contentLemmas(s.tokens));
  const df = new Map<string, number>();
  for (const bag of bags) for (const w of new Set(bag)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = candidates.length;
  const vectors = bags.map((bag) => {
    const tf = new Map<string, number>();
    for (const w of bag) tf.set(w, (tf.get(w) ?? 0) + 1);
    const v = new Map<string, number>();
    for (const [w, f] of tf) v.set(w, f * Math.log(1 + n / (df.get(w) ?? 1)));
    return v;
  });
  const norms = vectors.map((v) => Math.sqrt([...v.values()].reduce((a, x) => a + x * x, 0)));
  // The graph joins each sentence to those within WINDOW candidates of it, not to all others:
  // all pairs made the ranking quadratic (a 2,000-line meeting: 2.2 s of its 4.4 s, and 40
  // iterations over a 6-million-cell matrix). Within the window the sums are made in the same
  // order as before, so a meeting of up to WINDOW + 1 candidates ranks exactly as it did.
  const similarity = (i: number, j: number): number => {
    if (norms[i] === 0 || norms[j] === 0) return 0;
    let dot = 0;
    for (const [w, x] of vectors[i]!) dot += x * (vectors[j]!.get(w) ?? 0);
    return dot / (norms[i]! * norms[j]!);
  };
  /** For each sentence, its neighbours j (ascending) with sim[j][i], the weight j gives i. */
  const into: Array<{ from: number[]; weight: number[] }> = candidates.map(() => ({ from: [], weight: [] }));
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    let out = 0;
    for (let j = Math.max(0, i - WINDOW); j <= Math.min(n - 1, i + WINDOW); j += 1) {
      if (i === j) continue;
      const s = similarity(i, j);
      out += s;
      if (s === 0) continue;
      // sim[i][j] is what i gives j.
      into[j]!.from.push(i);
      into[j]!.weight.push(s);
    }
    outWeight[i] = out;
  }
  let score = candidates.map(() => 1 / Math.max(1, n));
  for (let it = 0; it < ITERATIONS; it += 1) {
    score = candidates.map((_, i) => {
      let sum = 0;
      const { from, weight } = into[i]!;
      for (let k = 0; k < from.length; k += 1) {
        const j = from[k]!;
        if (outWeight[j]! > 0) sum += (weight[k]! / outWeight[j]!) * score[j]!;
      }
      return (1 - DAMPING) / n + DAMPING * sum;
    });
  }
  return candidates.map((sentence, i) => ({ sentence, score: score[i]! })).sort((a, b) => b.score - a.score);
}

export function overviewAndKeyPoints(
  sentences: Sentence[],
  overviewSize: number,
  keyPointCount: number,
): { overview: Sentence[]; keyPoints: SummaryPoint[] } {
  const ranked = rankSentences(sentences);
  const order = new Map(sentences.map((s, i) => [s, i]));
  const byOrder = (a: Sentence, b: Sentence) => order.get(a)! - order.get(b)!;
  const overview = ranked
    .slice(0, overviewSize)
    .map((r) => r.sentence)
    .sort(byOrder);
  const points = ranked
    .slice(0, keyPointCount)
    .map((r) => r.sentence)
    .sort(byOrder)
    .map((s) => ({ text: `${s.speaker}: ${s.text}`, sources: [s.lineId] }));
  return { overview, keyPoints: points };
}
