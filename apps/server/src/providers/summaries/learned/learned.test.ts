import { describe, expect, it } from 'vitest';
import { readSentences } from '../rules/nlp.js';
import { parseTranscript } from '../transcript-file.js';
import shipped from './decision-model.json' with { type: 'json' };
import {
  decisionsFromProbabilities,
  lineProbabilities,
  ruleSignals,
  withRuleDecisions,
} from './decisions.js';
import { lineFeatures, onlyGroups } from './features.js';
import { probability, train } from './logistic.js';

const TALK = `Mara: Should we move the retro to Thursdays?
Tom: Yes, that works for me.
Mara: Then we'll hold it on Thursdays from next week.
Tom: Did you see the build broke yesterday?
Mara: Send me the log, please.`;
const lines = parseTranscript(TALK, '2026-03-11');
const features = lineFeatures(lines, readSentences(lines));

describe('decision features', () => {
  it('reduces content words to their part of speech and keeps the grammar', () => {
    const third = features[2]!;
    expect(third).toContain('g:we_will');
    expect(third).toContain('g:f0:then');
    // "retro", "Thursdays": the topic is not a feature, only its part of speech.
    expect(third.some((f) => /thursday|retro/i.test(f))).toBe(false);
    expect(features[0]!.some((f) => /retro/i.test(f))).toBe(false);
  });

  it('marks questions, the past, imperatives and the turns around a line', () => {
    expect(features[0]).toContain('m:question');
    expect(features[0]).toContain('c:next-other-assent');
    expect(features[1]).toContain('c:assent-to-proposal');
    expect(features[1]).toContain('c:prev-other-question');
    expect(features[3]).toContain('m:past');
    expect(features[4]).toContain('m:imperative');
    expect(features[2]).toContain('p:we-will');
    expect(features[0]).toContain('c:first');
    expect(features[4]).toContain('c:last');
  });

  it("adds the rules' output only when given, and filters by group", () => {
    expect(features.flat().some((f) => f.startsWith('r:'))).toBe(false);
    const signals = ruleSignals(lines, [{ sources: ['3'] }], [{ sources: ['5'] }]);
    const withRules = lineFeatures(lines, readSentences(lines), signals);
    expect(withRules[2]).toContain('r:decision');
    expect(withRules[1]).toContain('r:decision-near');
    expect(withRules[4]).toContain('r:action');
    expect(onlyGroups(withRules[2]!, ['r'])).toEqual(['r:decision']);
    expect(
      onlyGroups(withRules[2]!, ['g', 'm', 'c']).some((f) => f.startsWith('p:') || f.startsWith('r:')),
    ).toBe(false);
  });
});

describe('logistic model', () => {
  const examples = Array.from({ length: 60 }, (_, k) => ({
    features: k % 3 === 0 ? ['m:decided', `g:noise${k % 5}`] : [`g:noise${k % 5}`],
    label: k % 3 === 0,
    group: `meeting${k % 4}`,
  }));

  it('learns a separating feature and drops features seen in too few meetings', () => {
    const model = train([...examples, { features: ['g:once'], label: true, group: 'meeting0' }], { l2: 1 });
    expect(model.weights['g:once']).toBeUndefined();
    expect(probability(model, ['m:decided', 'g:noise0'])).toBeGreaterThan(0.8);
    expect(probability(model, ['g:noise1'])).toBeLessThan(0.2);
    // Unknown features are ignored rather than failing.
    expect(probability(model, ['g:never-seen'])).toBeLessThan(0.5);
  });

  it('turns probabilities into decisions, neighbouring lines as one, and adds them to the rules', () => {
    const found = decisionsFromProbabilities(lines, [0.7, 0.9, 0.2, 0.1, 0.6], 0.5);
    expect(found).toEqual([
      { text: 'Yes, that works for me.', sources: ['1', '2'] },
      { text: 'Send me the log, please.', sources: ['5'] },
    ]);
    const ruled = [{ text: "We'll hold it on Thursdays", sources: ['3'] }];
    expect(withRuleDecisions(lines, ruled, found).map((d) => d.sources)).toEqual([['3'], ['5']]);
  });

  it('loads the committed model and scores every line of a meeting', () => {
    expect(shipped.groups.length).toBeGreaterThan(0);
    const p = lineProbabilities(
      shipped as Parameters<typeof lineProbabilities>[0],
      lineFeatures(lines, readSentences(lines)),
    );
    expect(p).toHaveLength(lines.length);
    for (const x of p) expect(x).toBeGreaterThanOrEqual(0);
    expect(Object.keys(shipped.weights).length).toBeGreaterThan(100);
  });
});
