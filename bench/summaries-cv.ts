/**
 * Leave-one-set-out cross-validation of the learned decision classifier against the hand-written
 * rules (apps/server/src/providers/summaries/learned/). The sets are those of bench/summaries.ts:
 * tune, held-out, blind, blind-2 … blind-6 (blind-7 never: it is the sealed test). For each set,
 * every system is fitted on the other seven sets only — L2 strength, threshold, and for
 * "combined" which of the three ways to combine, all chosen by a second leave-one-set-out inside
 * those seven — then the left-out set is scored with bench/summaries.ts's matching rule.
 *
 * Read the rules' figures with care: the rules were tuned on every set but blind-6 (see
 * summaries.ts), so "rules" in a fold other than blind-6 is not a held-out figure, and neither is
 * any system that takes the rules' output. "model alone" is the only held-out figure in every
 * fold; blind-6 is the only fold where rules and model are both unseen.
 *
 * BENCH_SUMMARY_BLIND7=1 instead scores blind-7 once with the committed model
 * (learned/decision-model.json) and the rules, and records it as summaries-cv.blind7.json.
 * BENCH_NO_RECORD=1 prints and writes nothing.
 */
import path from 'node:path';
import frozen from '../apps/server/src/providers/summaries/learned/decision-model.json' with { type: 'json' };
import frozenAlone from '../apps/server/src/providers/summaries/learned/decision-model.model.json' with { type: 'json' };
import type { DecisionModel } from '../apps/server/src/providers/summaries/learned/decisions.js';
import {
  addCounts,
  COMBINED,
  f1,
  fitVariant,
  predict,
  scoreDecisions,
  VARIANTS,
  ZERO,
  type Counts,
  type Fitted,
} from './support/decision-cv.js';
import { recordResult } from './support/results.js';
import { CV_SETS, loadKeyedMeetings } from './support/summary-sets.js';

const pct = (n: number, d: number) => (d === 0 ? null : Math.round((1000 * n) / d) / 10);
const pr = (c: Counts) => ({
  ...c,
  precision: pct(c.matched, c.predicted),
  recall: pct(c.matched, c.expected),
});
const fmt = (c: Counts) => {
  const p = pct(c.matched, c.predicted);
  const r = pct(c.matched, c.expected);
  const f = (v: number | null) => (v === null ? '  n/a' : `${v.toFixed(1).padStart(5)}%`);
  return `${f(p)} ${f(r)} (${c.predicted}/${c.expected}/${c.matched})`.padEnd(28);
};

async function crossValidate() {
  const started = performance.now();
  const meetings = await loadKeyedMeetings();
  const systems = ['rules', ...VARIANTS.map((v) => v.id), 'combined'];
  const pooled: Record<string, Counts> = Object.fromEntries(systems.map((s) => [s, ZERO]));
  const folds = [];
  console.log(`fold       ${systems.map((s) => s.padEnd(28)).join(' ')}`);
  for (const set of CV_SETS) {
    const test = meetings.filter((m) => m.set === set);
    const trainSet = meetings.filter((m) => m.set !== set);
    const counts: Record<string, Counts> = {};
    const fitted: Record<string, Fitted> = {};
    counts.rules = test.reduce((c, m) => addCounts(c, scoreDecisions(m, m.rules.decisions)), ZERO);
    for (const v of VARIANTS) {
      fitted[v.id] = fitVariant(trainSet, v);
      counts[v.id] = test.reduce(
        (c, m) => addCounts(c, scoreDecisions(m, predict(m, fitted[v.id]!.model, v.orRules))),
        ZERO,
      );
    }
    const chosen = COMBINED.reduce((a, b) => (fitted[b]!.innerF1 > fitted[a]!.innerF1 ? b : a));
    counts.combined = counts[chosen]!;
    for (const s of systems) pooled[s] = addCounts(pooled[s]!, counts[s]!);
    console.log(`${set.padEnd(10)} ${systems.map((s) => fmt(counts[s]!)).join(' ')}  combined=${chosen}`);
    folds.push({
      set,
      meetings: test.length,
      systems: Object.fromEntries(systems.map((s) => [s, pr(counts[s]!)])),
      fitted: Object.fromEntries(
        VARIANTS.map((v) => [
          v.id,
          {
            l2: fitted[v.id]!.l2,
            threshold: fitted[v.id]!.model.threshold,
            innerF1: Math.round(fitted[v.id]!.innerF1 * 1000) / 1000,
          },
        ]),
      ),
      combinedChose: chosen,
    });
  }
  console.log(`${'pooled'.padEnd(10)} ${systems.map((s) => fmt(pooled[s]!)).join(' ')}`);
  console.log(
    '(precision recall (predicted/in keys/matched); "rules" is not held-out outside blind-6: see header)',
  );
  for (const v of VARIANTS) console.log(`  ${v.id}: ${v.title}`);
  console.log(
    '  combined: the best of model-phrases, model-rules, rules-or-model by F1 inside the training folds',
  );
  return {
    runs: 1,
    protocol:
      'leave-one-set-out over 8 sets; L2 in {1,4,16}, threshold in 0.10..0.90 and the combined system chosen by leave-one-set-out inside the 7 training sets (pooled decision F1); matching of bench/summaries.ts',
    caveat:
      'the rules were tuned on every set but blind-6, so the rules, rules-or-model, model-rules (and model-phrases, whose patterns come from the rules) are not held-out figures outside the blind-6 fold; model alone is held-out in every fold',
    meetings: meetings.length,
    lines: meetings.reduce((n, m) => n + m.lines.length, 0),
    positives: meetings.reduce((n, m) => n + m.labels.filter(Boolean).length, 0),
    seconds: Math.round((performance.now() - started) / 1000),
    folds,
    pooled: Object.fromEntries(
      systems.map((s) => [s, { ...pr(pooled[s]!), f1: Math.round(f1(pooled[s]!) * 1000) / 1000 }]),
    ),
  };
}

async function blind7() {
  const meetings = await loadKeyedMeetings({ blind7: true });
  const rules = meetings.reduce((c, m) => addCounts(c, scoreDecisions(m, m.rules.decisions)), ZERO);
  console.log(`blind-7 rules                       ${fmt(rules)}`);
  const out: Record<string, unknown> = { runs: 1, meetings: meetings.length, rules: pr(rules) };
  for (const [label, file] of [
    ['model', frozenAlone],
    ['combined', frozen],
  ] as const) {
    const model = file as DecisionModel & { orRules: boolean; variant: string };
    const c = meetings.reduce(
      (a, m) => addCounts(a, scoreDecisions(m, predict(m, model, model.orRules))),
      ZERO,
    );
    console.log(`blind-7 ${`${label} (${model.variant})`.padEnd(28)} ${fmt(c)}`);
    out[label] = { variant: model.variant, threshold: model.threshold, ...pr(c) };
  }
  return out;
}

async function main() {
  const sealed = process.env.BENCH_SUMMARY_BLIND7 === '1';
  const figures = sealed ? await blind7() : await crossValidate();
  if (process.env.BENCH_NO_RECORD) console.log('not recorded (BENCH_NO_RECORD)');
  else {
    const file = recordResult(sealed ? 'summaries-cv.blind7' : 'summaries-cv', figures);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
