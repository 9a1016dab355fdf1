import type { SourceLine, SummaryPoint } from '../types.js';
import type { FeatureGroup, RuleSignals } from './features.js';
import { onlyGroups } from './features.js';
import { probability, type LogisticModel } from './logistic.js';

/** A trained decision classifier as committed: its feature groups, weights and threshold. */
export interface DecisionModel extends LogisticModel {
  groups: FeatureGroup[];
  threshold: number;
}

/** The rules' decisions and action items, as the line indices they came from. */
export function ruleSignals(
  lines: SourceLine[],
  decisions: Array<{ sources: string[] }>,
  actionItems: Array<{ sources: string[] }>,
): RuleSignals {
  const at = new Map(lines.map((l, i) => [l.id, i]));
  const indices = (points: Array<{ sources: string[] }>) =>
    new Set(
      points.flatMap((p) => p.sources.map((s) => at.get(s)).filter((i): i is number => i !== undefined)),
    );
  return { decisionLines: indices(decisions), actionLines: indices(actionItems) };
}

/** Each line's probability of being a decision's source line. */
export function lineProbabilities(
  model: Pick<DecisionModel, 'bias' | 'weights' | 'groups'>,
  features: string[][],
): number[] {
  return features.map((f) => probability(model, onlyGroups(f, model.groups)));
}

/**
 * The lines at or above the threshold, as decisions in the speaker's words. Neighbouring lines
 * that both pass are one decision (a proposal and its assent), told by the likelier line.
 */
export function decisionsFromProbabilities(
  lines: SourceLine[],
  probabilities: number[],
  threshold: number,
): SummaryPoint[] {
  const out: SummaryPoint[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const best = run.reduce((a, b) => (probabilities[b]! > probabilities[a]! ? b : a));
    out.push({ text: lines[best]!.text, sources: run.map((i) => lines[i]!.id) });
    run = [];
  };
  probabilities.forEach((p, i) => {
    if (p < threshold) return flush();
    if (run.length > 0 && run[run.length - 1] !== i - 1) flush();
    run.push(i);
  });
  flush();
  return out;
}

/**
 * The rules' decisions, plus the model's where no rule decision comes from the same line or a
 * neighbouring one (a second decision for the same turn would be a duplicate).
 */
export function withRuleDecisions(
  lines: SourceLine[],
  ruleDecisions: SummaryPoint[],
  learned: SummaryPoint[],
): SummaryPoint[] {
  const at = new Map(lines.map((l, i) => [l.id, i]));
  const covered = new Set<number>();
  for (const d of ruleDecisions)
    for (const s of d.sources) {
      const i = at.get(s);
      if (i !== undefined) for (const k of [i - 1, i, i + 1]) covered.add(k);
    }
  const extra = learned.filter((d) => !d.sources.some((s) => covered.has(at.get(s) ?? -1)));
  const line = (d: SummaryPoint) => Math.min(...d.sources.map((s) => at.get(s) ?? Infinity));
  return [...ruleDecisions, ...extra].sort((a, b) => line(a) - line(b));
}
