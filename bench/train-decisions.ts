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
 *     [--without blind-14,blind-15] [--threshold 0.25]
 *
 * `--without` leaves sets out (to refit a model on the sets it was trained on before others were
 * added); `--threshold` sets the threshold after the fit (L2 stays the inner CV's choice), for a
 * threshold constrained to what the cross-validation's folds chose (tune16,
 * bench/results/summaries-blind16-preregistration.md).
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
import { CV_SETS, loadKeyedMeetings, type CvSet } from './support/summary-sets.js';

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
  const without = arg('without', '')
    .split(',')
    .filter((x) => x !== '');
  for (const w of without) if (!CV_SETS.includes(w as CvSet)) throw new Error(`no set ${w}`);
  const fixed = arg('threshold', '');
  if (fixed !== '' && !(Number(fixed) > 0 && Number(fixed) < 1))
    throw new Error(`--threshold ${fixed}: 0 < t < 1`);
  const sets = CV_SETS.filter((x) => !without.includes(x));
  const meetings = [
    ...(await loadKeyedMeetings({ sets })),
    ...(await loadKeyedMeetings({ sets, speechToText: true })),
  ];
  const fitted = fitVariant(meetings, variant, criterion);
  const { l2, innerF1 } = fitted;
  if (fixed !== '') console.log(`threshold ${fitted.model.threshold} chosen, set to ${fixed}`);
  const model = fixed === '' ? fitted.model : { ...fitted.model, threshold: Number(fixed) };
  console.log(
    `${variant.id}: inner ${criterion} ${innerF1.toFixed(3)}, L2 ${l2}, threshold ${model.threshold}, gap ${model.gap}`,
  );
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
      sets: [...new Set(meetings.map((m) => m.set))],
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
