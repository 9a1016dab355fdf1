import { describe, expect, it } from 'vitest';
import { RulesSummarizer } from '../rules/index.js';
import { readSentences } from '../rules/nlp.js';
import { parseTranscript } from '../transcript-file.js';
import shipped from './decision-model.json' with { type: 'json' };
import {
  decisionsFromProbabilities,
  learnedDecisions,
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
    // (Lemmas, `l:`, do name it; the trainer keeps only those seen in several meetings.)
    const grammar = (f: string[]) => onlyGroups(f, ['g', 'm', 'c', 'x']);
    expect(grammar(third).some((f) => /thursday|retro/i.test(f))).toBe(false);
    expect(grammar(features[0]!).some((f) => /retro/i.test(f))).toBe(false);
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

describe('context features', () => {
  const talk = parseTranscript(
    `Mara: How about we move the retro to Thursdays?
Tom: Works for me.
Ana: Fine by me too.
Mara: Good, we'll move it to Thursdays then.
Tom: Maybe we could also invite design at some point?
Ana: I don't think so, not yet.`,
    '2026-03-11',
  );
  const f = lineFeatures(talk, readSentences(talk));

  it('sees agreement by others after a turn, and objections', () => {
    expect(f[0]).toContain('x:next-agreed');
    expect(f[0]).toContain('x:next-agreed-twice');
    expect(f[1]).toContain('x:agrees-to-proposal');
    expect(f[4]).toContain('x:next-objection');
    expect(f[4]).toContain('x:hedge');
  });

  it('reads modality and who chairs', () => {
    expect(f[3]).toContain('x:we-will-verb');
    expect(f[3]).toContain('x:chair');
    expect(f[1]).not.toContain('x:chair');
    expect(f[3]).toContain('l:move');
  });
});

describe('learned decisions', () => {
  it('finds a proposal the meeting settles, and nothing in small talk (the summariser with it)', async () => {
    const summarizer = new RulesSummarizer({ decisions: 'learned' });
    const decisions = async (lines: ReturnType<typeof parseTranscript>) =>
      (await summarizer.summarize({ lines, participants: [], meetingDate: '2026-03-11' })).decisions;
    const settled = parseTranscript(
      `Maya: The release notes are the last open item.
Luis: Should we ship 2.1 on Monday, or wait for the translations?
Maya: Let's ship version 2.1 on Monday.
Luis: Agreed.`,
      '2026-03-11',
    );
    expect((await decisions(settled)).map((d) => d.sources)).toEqual([['3']]);
    const chat = parseTranscript(
      `Ana: Morning! How was everyone's weekend?
Ben: Pretty quiet. We finally watched that documentary about octopuses.
Ana: Oh, the one with the diver? I loved it.
Ben: Yes, the ending got me. Did you go anywhere?
Ana: Just the farmers market. The strawberries are back already.`,
      '2026-03-11',
    );
    expect(await decisions(chat)).toEqual([]);
  });

  it('merges passing lines up to `gap` apart into one decision', () => {
    const p = [0.9, 0.1, 0.8, 0.1, 0.1, 0.7];
    expect(decisionsFromProbabilities(lines.concat(lines[0]!), p, 0.5, 0).map((d) => d.sources)).toHaveLength(
      3,
    );
    const merged = decisionsFromProbabilities(lines.concat({ ...lines[0]!, id: '6' }), p, 0.5, 1);
    expect(merged.map((d) => d.sources)).toEqual([['1', '3'], ['6']]);
    expect(merged[0]!.text).toBe(lines[0]!.text);
  });

  it('applies a model: lines at or above the threshold, rules kept when the model says so', () => {
    const model = { bias: -3, weights: { 'x:we-will-verb': 5 }, groups: ['x' as const], threshold: 0.5 };
    const rules = { decisions: [{ text: 'Send me the log', sources: ['5'] }], actionItems: [] };
    const alone = learnedDecisions(lines, readSentences(lines), rules, { ...model, orRules: false });
    expect(alone.map((d) => d.sources)).toEqual([['3']]);
    const both = learnedDecisions(lines, readSentences(lines), rules, { ...model, orRules: true });
    expect(both.map((d) => d.sources)).toEqual([['3'], ['5']]);
  });
});
