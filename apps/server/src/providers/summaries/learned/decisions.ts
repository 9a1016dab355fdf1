import type { Sentence } from '../rules/nlp.js';
import type { SourceLine, SummaryPoint } from '../types.js';
import shipped from './decision-model.json' with { type: 'json' };
import type { FeatureGroup, RuleSignals } from './features.js';
import { lineFeatures, onlyGroups } from './features.js';
import { probability, type LogisticModel } from './logistic.js';
import words from './word-clusters.json' with { type: 'json' };

/** A trained decision classifier as committed: its feature groups, weights and threshold. */
export interface DecisionModel extends LogisticModel {
  groups: FeatureGroup[];
  threshold: number;
  /** Lines that pass with at most this many lines between them are one decision (default 0). */
  gap?: number;
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
 * that both pass (at most `gap` lines apart) are one decision (a proposal and its assent, or an
 * assent and the chair's restatement), told by the likelier line.
 */
export function decisionsFromProbabilities(
  lines: SourceLine[],
  probabilities: number[],
  threshold: number,
  gap = 0,
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
    if (p < threshold) return;
    if (run.length > 0 && i - run[run.length - 1]! > gap + 1) flush();
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

/** The committed model (`npm run train:decisions`): a variant of bench/support/decision-cv.ts. */
export const shippedModel = shipped as DecisionModel & { variant: string; orRules: boolean };
/** Word → meaning cluster, for the `w:` features (bench/word-clusters.ts). */
export const wordClusters: Readonly<Record<string, number>> = words.cluster;

/**
 * The decisions of a meeting as the committed classifier finds them: every line scored (with the
 * rules' own decisions and action items among its features when the model uses them), lines at
 * or above its threshold as decisions, and — for a model combined that way — the rules' decisions
 * kept with the model's added.
 */
export function learnedDecisions(
  lines: SourceLine[],
  sentences: Sentence[],
  rules: { decisions: SummaryPoint[]; actionItems: Array<{ sources: string[] }> },
  model: DecisionModel & { orRules: boolean } = shippedModel,
): SummaryPoint[] {
  const signals = ruleSignals(lines, rules.decisions, rules.actionItems);
  const features = lineFeatures(lines, sentences, signals, wordClusters);
  const found = decisionsFromProbabilities(
    lines,
    lineProbabilities(model, features),
    model.threshold,
    model.gap ?? 0,
  );
  return model.orRules ? withRuleDecisions(lines, rules.decisions, found) : found;
}
