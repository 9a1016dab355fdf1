/**
 * Trains the decision classifier shipped with the embedded summariser and writes
 * apps/server/src/providers/summaries/learned/decision-model.json (`npm run train:decisions`).
 *
 * Trained on every keyed meeting set but blind-7 (the sealed test), by the same procedure that
 * bench/summaries-cv.ts cross-validates: L2 strength, threshold and — for the default
 * `combined` — the way of combining with the rules, chosen by leave-one-set-out inside the sets
 * trained on. `--variant <id>` fits one variant of bench/support/decision-cv.ts instead and writes
 * decision-model.<id>.json (`model`: the model alone, frozen beside the combined one for blind-7).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMBINED, fitVariant, VARIANTS, type Fitted } from './support/decision-cv.js';
import { repoRoot } from './support/results.js';
import { loadKeyedMeetings } from './support/summary-sets.js';

const DIR = path.join(repoRoot, 'apps/server/src/providers/summaries/learned');

async function main() {
  const at = process.argv.indexOf('--variant');
  const wanted = at >= 0 ? process.argv[at + 1]! : 'combined';
  const meetings = await loadKeyedMeetings();
  const candidates = VARIANTS.filter((v) =>
    wanted === 'combined' ? COMBINED.includes(v.id) : v.id === wanted,
  );
  if (candidates.length === 0) throw new Error(`no variant ${wanted}`);
  let best: { id: string; orRules: boolean; fitted: Fitted } | null = null;
  for (const v of candidates) {
    const fitted = fitVariant(meetings, v);
    console.log(
      `${v.id}: inner F1 ${fitted.innerF1.toFixed(3)}, L2 ${fitted.l2}, threshold ${fitted.model.threshold}`,
    );
    if (!best || fitted.innerF1 > best.fitted.innerF1) best = { id: v.id, orRules: v.orRules, fitted };
  }
  const { model, l2, innerF1 } = best!.fitted;
  const sets = [...new Set(meetings.map((m) => m.set))];
  const file = {
    variant: best!.id,
    orRules: best!.orRules,
    groups: model.groups,
    threshold: model.threshold,
    l2,
    innerF1: Math.round(innerF1 * 1000) / 1000,
    trainedOn: { sets, meetings: meetings.length, lines: meetings.reduce((n, m) => n + m.lines.length, 0) },
    bias: model.bias,
    weights: model.weights,
  };
  const OUT = path.join(DIR, wanted === 'combined' ? 'decision-model.json' : `decision-model.${wanted}.json`);
  writeFileSync(OUT, `${JSON.stringify(file, null, 1)}\n`);
  console.log(
    `wrote ${path.relative(process.cwd(), OUT)}: ${best!.id}, ${Object.keys(model.weights).length} weights`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
