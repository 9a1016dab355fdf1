import type { FeatureGroup } from '../../apps/server/src/providers/summaries/learned/features.js';
import { onlyGroups } from '../../apps/server/src/providers/summaries/learned/features.js';
import {
  decisionsFromProbabilities,
  lineProbabilities,
  withRuleDecisions,
  type DecisionModel,
} from '../../apps/server/src/providers/summaries/learned/decisions.js';
import { train } from '../../apps/server/src/providers/summaries/learned/logistic.js';
import type { SummaryPoint } from '../../apps/server/src/providers/summaries/types.js';
import type { KeyedMeeting } from './summary-sets.js';
import { match } from './summary-score.js';

/**
 * The systems compared, and how each is fitted on training meetings only: the L2 strength and
 * the threshold are chosen by leave-one-set-out cross-validation inside the training sets
 * (highest pooled decision F1 under the benchmark's matching), then the model is refitted on all
 * the training sets. Nothing here sees the meetings it is scored on.
 */
export interface Variant {
  id: string;
  title: string;
  groups: FeatureGroup[];
  /** Rules' decisions first, the model's added where the rules found none nearby. */
  orRules: boolean;
}
export const VARIANTS: Variant[] = [
  { id: 'model', title: 'model alone (grammar, markers, context)', groups: ['g', 'm', 'c'], orRules: false },
  {
    id: 'model-x',
    title: 'model + agreement, modality, chair (x)',
    groups: ['g', 'm', 'c', 'x'],
    orRules: false,
  },
  {
    id: 'model-xl',
    title: 'model + x + lemmas (l)',
    groups: ['g', 'm', 'c', 'x', 'l'],
    orRules: false,
  },
  {
    id: 'model-xw',
    title: 'model + x + meaning clusters (w)',
    groups: ['g', 'm', 'c', 'x', 'w'],
    orRules: false,
  },
  {
    id: 'model-xlw',
    title: 'model + x + lemmas + clusters',
    groups: ['g', 'm', 'c', 'x', 'l', 'w'],
    orRules: false,
  },
  {
    id: 'model-phrases',
    title: "model + x + l + w + the rules' phrase patterns as features",
    groups: ['g', 'm', 'c', 'x', 'l', 'w', 'p'],
    orRules: false,
  },
  {
    id: 'model-rules',
    title: "model + x + l + w + phrase patterns + the rules' output as features",
    groups: ['g', 'm', 'c', 'x', 'l', 'w', 'p', 'r'],
    orRules: false,
  },
  {
    id: 'model-rules-k',
    title: 'model-rules + consensus over turns (k)',
    groups: ['g', 'm', 'c', 'x', 'l', 'w', 'p', 'r', 'k'],
    orRules: false,
  },
  {
    id: 'rules-or-model',
    title: 'rules OR model (x, l, w)',
    groups: ['g', 'm', 'c', 'x', 'l', 'w'],
    orRules: true,
  },
];
/** The ways of combining the model with the rules; "combined" is the best of these inside the training folds. */
export const COMBINED = ['model-phrases', 'model-rules', 'rules-or-model'];
export const L2_GRID = [2, 8];
/** Inner folds: the training sets dealt round-robin (in time order) into this many groups. */
export const INNER_FOLDS = 3;
export const THRESHOLDS = Array.from({ length: 17 }, (_, k) => Math.round((0.1 + 0.05 * k) * 100) / 100);

export interface Counts {
  predicted: number;
  expected: number;
  matched: number;
}
export const addCounts = (a: Counts, b: Counts): Counts => ({
  predicted: a.predicted + b.predicted,
  expected: a.expected + b.expected,
  matched: a.matched + b.matched,
});
export const ZERO: Counts = { predicted: 0, expected: 0, matched: 0 };
export function f1(c: Counts): number {
  return c.predicted + c.expected === 0 ? 0 : (2 * c.matched) / (c.predicted + c.expected);
}
export function scoreDecisions(m: KeyedMeeting, predicted: SummaryPoint[]): Counts {
  return {
    predicted: predicted.length,
    expected: m.decisionsKey.length,
    matched: match(m.decisionsKey, predicted).length,
  };
}

export function predict(
  m: KeyedMeeting,
  model: DecisionModel,
  orRules: boolean,
  probabilities?: number[],
): SummaryPoint[] {
  const p = probabilities ?? lineProbabilities(model, m.features);
  const learned = decisionsFromProbabilities(m.lines, p, model.threshold, model.gap ?? 0);
  return orRules ? withRuleDecisions(m.lines, m.rules.decisions, learned) : learned;
}

/** Trainings are shared between variants with the same groups (rules-or-model and model). */
const trained = new Map<string, ReturnType<typeof train>>();
function trainOn(meetings: KeyedMeeting[], groups: FeatureGroup[], l2: number) {
  const key = `${groups.join('')}|${l2}|${meetings.map((m) => `${m.set}/${m.name}/${m.asr}`).join(',')}`;
  const hit = trained.get(key);
  if (hit) return hit;
  const model = train(
    meetings.flatMap((m) =>
      m.features.map((f, i) => ({
        features: onlyGroups(f, groups),
        label: m.labels[i]!,
        group: `${m.set}/${m.name}`,
      })),
    ),
    { l2 },
  );
  trained.set(key, model);
  return model;
}

export interface Fitted {
  model: DecisionModel;
  l2: number;
  innerF1: number;
}

/**
 * Gaps tried between passing lines of one decision. Only 0: the grid {0, 1, 2} of the runs in
 * summaries-blind9-preregistration.md met a bug that made 1 and 2 the same as 0, so 0 is what
 * those figures measured.
 */
export const GAPS = [0];
/**
 * What the inner cross-validation maximises: decision F1, or the lower of precision and recall
 * (the target asks for both ≥ 70%), F1 breaking ties.
 */
export const CRITERIA = {
  f1,
  /** F-beta with beta 0.7: precision weighs about twice recall (adoption asks precision >= 70%). */
  f07: (c: Counts) => {
    const p = c.matched / Math.max(1, c.predicted);
    const r = c.matched / Math.max(1, c.expected);
    return p + r === 0 ? 0 : (1.49 * p * r) / (0.49 * p + r);
  },
  /**
   * F1 among the thresholds whose inner precision is at least 75% (the adoption rule asks 70% in
   * one try, so a margin), the highest precision if none reaches it.
   */
  f1p75: (c: Counts) => {
    const p = c.matched / Math.max(1, c.predicted);
    return p >= 0.75 ? f1(c) : p - 1;
  },
  balanced: (c: Counts) =>
    Math.min(c.matched / Math.max(1, c.predicted), c.matched / Math.max(1, c.expected)) + f1(c) / 1000,
};
export type Criterion = keyof typeof CRITERIA;

/** Fits one variant on `meetings` (several sets), choosing L2, threshold and gap by inner CV. */
export function fitVariant(meetings: KeyedMeeting[], variant: Variant, criterion: Criterion = 'f1'): Fitted {
  const sets = [...new Set(meetings.map((m) => m.set))];
  const foldOf = new Map(sets.map((s, k) => [s, k % INNER_FOLDS]));
  let best = { l2: L2_GRID[0]!, threshold: 0.5, gap: 0, f: -1 };
  for (const l2 of L2_GRID) {
    // Out-of-fold probabilities for every training meeting, at this L2.
    const oof = new Map<KeyedMeeting, number[]>();
    for (let held = 0; held < INNER_FOLDS; held += 1) {
      const model = trainOn(
        meetings.filter((m) => foldOf.get(m.set) !== held),
        variant.groups,
        l2,
      );
      for (const m of meetings.filter((x) => foldOf.get(x.set) === held))
        oof.set(m, lineProbabilities({ ...model, groups: variant.groups }, m.features));
    }
    for (const gap of GAPS)
      for (const threshold of THRESHOLDS) {
        let c = ZERO;
        for (const [m, p] of oof)
          c = addCounts(
            c,
            scoreDecisions(
              m,
              predict(
                m,
                { bias: 0, weights: {}, groups: variant.groups, threshold, gap },
                variant.orRules,
                p,
              ),
            ),
          );
        const f = CRITERIA[criterion](c);
        if (f > best.f) best = { l2, threshold, gap, f };
      }
  }
  const model = trainOn(meetings, variant.groups, best.l2);
  return {
    model: { ...model, groups: variant.groups, threshold: best.threshold, gap: best.gap },
    l2: best.l2,
    innerF1: best.f,
  };
}
