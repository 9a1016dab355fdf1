/**
 * The matching rule of bench/meetings/README.md, shared by bench/summaries.ts and the
 * cross-validation of the learned decision classifier (bench/summaries-cv.ts), so both score
 * predictions the same way.
 */
/** Stop words of the overlap rule (README: words of 3+ letters that are not stop words). */
const STOP = new Set(
  'the and for with that this from your you our are was were will would could should can have has had not but all any into out about over then than them they their there what when who how its it is be been being also just get got let lets does did done one two per'.split(
    ' ',
  ),
);
function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !STOP.has(w)),
  );
}
/** Share of the key's content words found in the predicted text. */
export function overlap(key: string, predicted: string): number {
  const k = contentWords(key);
  if (k.size === 0) return 0;
  const p = contentWords(predicted);
  let shared = 0;
  for (const w of k) if (p.has(w)) shared += 1;
  return shared / k.size;
}

/** README rule: by line (±1, nearest first), then by overlap ≥ 0.5 (highest first); one-to-one. */
export function match<
  K extends { text: string; line: number },
  P extends { text: string; sources: string[] },
>(keys: K[], predicted: P[]): Array<[K, P]> {
  const pairs: Array<{ k: number; p: number; byLine: boolean; rank: number }> = [];
  keys.forEach((key, k) =>
    predicted.forEach((pred, p) => {
      const distances = pred.sources
        .map((s) => Math.abs(Number(s) - key.line))
        .filter((d) => !Number.isNaN(d));
      const nearest = distances.length > 0 ? Math.min(...distances) : Infinity;
      if (nearest <= 1) pairs.push({ k, p, byLine: true, rank: nearest });
      else {
        const o = overlap(key.text, pred.text);
        if (o >= 0.5) pairs.push({ k, p, byLine: false, rank: -o });
      }
    }),
  );
  pairs.sort((a, b) => Number(b.byLine) - Number(a.byLine) || a.rank - b.rank);
  const usedK = new Set<number>();
  const usedP = new Set<number>();
  const out: Array<[K, P]> = [];
  for (const pair of pairs) {
    if (usedK.has(pair.k) || usedP.has(pair.p)) continue;
    usedK.add(pair.k);
    usedP.add(pair.p);
    out.push([keys[pair.k]!, predicted[pair.p]!]);
  }
  return out;
}
