/**
 * Trains the decision classifier shipped with the embedded summariser and writes
 * apps/server/src/providers/summaries/learned/decision-model.json (`npm run train:decisions`).
 *
 * Trained on every set of bench/support/summary-sets.ts (never the sealed test of the day, which is
 * not listed there), in both forms (as written, and lower-cased without punctuation), by the same
 * procedure that bench/summaries-cv.ts cross-validates: L2 strength, threshold and gap chosen by
 * leave-one-set-out inside the sets trained on, maximising the criterion given.
 *
 *   npm run train:decisions -- [--variant model-rules-k] [--criterion f1p75|f1|f07|balanced]
 *
 * The defaults are the configuration the cross-validation chose: model-rules-k (model-rules,
 * bench/results/summaries-blind9-preregistration.md, plus tune14's consensus features;
 * bench/results/summaries-blind14-preregistration.md), criterion f1p75 (tune13,
 * bench/results/summaries-blind13-preregistration.md; f07 before).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fitVariant, VARIANTS, type Criterion } from './support/decision-cv.js';
import { repoRoot } from './support/results.js';
import { loadKeyedMeetings } from './support/summary-sets.js';

const DIR = path.join(repoRoot, 'apps/server/src/providers/summaries/learned');
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1]! : fallback;
};

async function main() {
  const wanted = arg('variant', 'model-rules-k');
  const criterion = arg('criterion', 'f1p75') as Criterion;
  const variant = VARIANTS.find((v) => v.id === wanted);
  if (!variant) throw new Error(`no variant ${wanted}`);
  const meetings = [...(await loadKeyedMeetings()), ...(await loadKeyedMeetings({ speechToText: true }))];
  const { model, l2, innerF1 } = fitVariant(meetings, variant, criterion);
  console.log(
    `${variant.id}: inner ${criterion} ${innerF1.toFixed(3)}, L2 ${l2}, threshold ${model.threshold}, gap ${model.gap}`,
  );
  const sets = [...new Set(meetings.map((m) => m.set))];
  const file = {
    variant: variant.id,
    orRules: variant.orRules,
    groups: model.groups,
    threshold: model.threshold,
    gap: model.gap ?? 0,
    l2,
    criterion,
    innerScore: Math.round(innerF1 * 1000) / 1000,
    trainedOn: {
      sets,
      meetings: meetings.length / 2,
      lines: meetings.reduce((n, m) => n + m.lines.length, 0) / 2,
      forms: ['as written', 'lower-cased without punctuation'],
    },
    bias: model.bias,
    weights: model.weights,
  };
  const OUT = path.join(DIR, 'decision-model.json');
  writeFileSync(OUT, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${Object.keys(model.weights).length} weights`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
