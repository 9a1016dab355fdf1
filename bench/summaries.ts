/**
 * Precision and recall of the embedded summariser's action items and decisions against the
 * hand-written keys of bench/meetings (README there: key format, tune/held-out split, matching
 * rule). Per meeting, then totals for the tune set, the held-out set and all meetings; for matched
 * action items, owner and due-date accuracy. Target (issue 11): ≥ 70% recall and ≥ 70% precision
 * for action items and for decisions, on all meetings and on the held-out ones alone; a miss exits 1.
 *
 * Also scored, apart, each written by someone who had not read the rules (READMEs there): the
 * `blind` set of bench/meetings-blind and its successors `blind-2`, `blind-3` and `blind-4`, each
 * written while the rules were tuned on the one before. Their figures are printed and recorded
 * each on its own, with every miss and false positive, and are neither part of "all" nor of the
 * verdict: they say how the rules do on wording nobody tuned them for — only the newest set still
 * says that once the others were tuned on (blind in b01c807 and ba10fad, blind-2 in 0659439,
 * blind-3 in 1aa3b35).
 *
 * BENCH_SUMMARY_SET=tune|held-out|blind|blind-2|…|blind-16|train limits the run to one set (tuning
 * uses `tune`); blind-4 is scored only when asked for: BENCH_SUMMARY_SET=blind-4, or
 * BENCH_SUMMARY_BLIND4=1 to add it to a full run (and to bench/results/summaries.json, as `blind4`);
 * blind-5, blind-6, blind-7 and blind-8 the same way (BENCH_SUMMARY_BLIND5=1, BENCH_SUMMARY_BLIND6=1,
 * BENCH_SUMMARY_BLIND7=1, BENCH_SUMMARY_BLIND8=1, BENCH_SUMMARY_BLIND9=1). bench/meetings-train-1 (set
 * `train`, training data for the decision classifier) and bench/meetings-train-2 (set `train-2`; its
 * keys say `train`) are always scored, apart like the blind sets.
 * Decisions come from the classifier (learned/), as in the app since blind-12
 * (results/summaries-blind12-preregistration.md); BENCH_SUMMARY_DECISIONS=rules scores the
 * hand-written decision rules alone instead (action items are the same either way).
 * BENCH_SUMMARY_VERBOSE=1 prints every miss and false positive (=asr: those of the speech-to-text style run).
 * Also reported, not a target: the same meetings lower-cased without punctuation, as the embedded
 * speech-to-text writes them (the rules lean on "Name," and "?").
 * Writes bench/results/${BENCH_RESULT_NAME:-summaries}.json (only for a run over all meetings;
 * BENCH_NO_RECORD=1 prints the figures and writes nothing, for runs made while changing the rules).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RulesSummarizer } from '../apps/server/src/providers/summaries/rules/index.js';
import { parseTranscript } from '../apps/server/src/providers/summaries/transcript-file.js';
import type { MeetingSummary } from '../apps/server/src/providers/summaries/types.js';
import { benchRoot, recordResult } from './support/results.js';
import { match } from './support/summary-score.js';

const TARGET = 0.7;
const only = process.env.BENCH_SUMMARY_SET;
const verbose = process.env.BENCH_SUMMARY_VERBOSE === '1';
const verboseAsr = process.env.BENCH_SUMMARY_VERBOSE === 'asr';
/**
 * The sets tune15 keeps apart as an honest check on the action rules (chosen before any miss was
 * read: results/summaries-blind15-preregistration.md): their totals are printed, but
 * BENCH_SUMMARY_VERBOSE never prints their misses or false positives.
 */
const KEPT_APART: ReadonlySet<string> = new Set([
  'train',
  'blind-9',
  'blind-10',
  'blind-12',
  'blind-13',
  'train-2',
]);
// The newest blind set is sealed: a full run (the one tuning sessions make) leaves it out, so its
// figures and misses reach nobody tuning the rules. blind-2 and blind-3 were sealed so until they
// were tuned on (0659439, 1aa3b35); blind-4 is now, and is scored only when asked for.
const withBlind4 = only === 'blind-4' || process.env.BENCH_SUMMARY_BLIND4 === '1';
// blind-5 (written before the rules were opened by the session that then tuned them) is sealed
// the same way: BENCH_SUMMARY_SET=blind-5, or BENCH_SUMMARY_BLIND5=1 to add it to a full run.
const withBlind5 = only === 'blind-5' || process.env.BENCH_SUMMARY_BLIND5 === '1';
// blind-6 (written in its own worktree by someone who had read none of the rules, measured once
// with the rules of 618b671) is sealed the same way: BENCH_SUMMARY_SET=blind-6 or BENCH_SUMMARY_BLIND6=1.
const withBlind6 = only === 'blind-6' || process.env.BENCH_SUMMARY_BLIND6 === '1';
// blind-7 (written by another engineer while the decision classifier was cross-validated, read by
// nobody working on the rules or the classifier before its one measurement) is sealed the same
// way: BENCH_SUMMARY_SET=blind-7 or BENCH_SUMMARY_BLIND7=1.
const withBlind7 = only === 'blind-7' || process.env.BENCH_SUMMARY_BLIND7 === '1';
// blind-8 (written by another engineer while branch decisions2 tuned the rules on blind-6 and
// blind-7, read by nobody on that branch before its one measurement) is sealed the same way:
// BENCH_SUMMARY_SET=blind-8 or BENCH_SUMMARY_BLIND8=1.
const withBlind8 = only === 'blind-8' || process.env.BENCH_SUMMARY_BLIND8 === '1';
// blind-9 (written unseen by another engineer while branch decisions3 cross-validated the
// decision classifier; opened by nobody on that branch) is sealed the same way, and no other
// script reads it: BENCH_SUMMARY_SET=blind-9 or BENCH_SUMMARY_BLIND9=1. Its one measurement is
// pre-registered in bench/results/summaries-blind9-preregistration.md.
const withBlind9 = only === 'blind-9' || process.env.BENCH_SUMMARY_BLIND9 === '1';
// blind-10 (written unseen by another engineer on 2026-11-27, before anyone tuned anything after
// blind-9) is sealed the same way, and no other script reads it: BENCH_SUMMARY_SET=blind-10 or
// BENCH_SUMMARY_BLIND10=1. Its one measurement is pre-registered in
// bench/results/summaries-blind10-preregistration.md.
const withBlind10 = only === 'blind-10' || process.env.BENCH_SUMMARY_BLIND10 === '1';
// blind-11 (written unseen by another engineer on 2026-11-27 after blind-10 was measured, to test
// the same frozen candidate again) is sealed the same way: BENCH_SUMMARY_SET=blind-11 or
// BENCH_SUMMARY_BLIND11=1; pre-registered in bench/results/summaries-blind11-preregistration.md.
const withBlind11 = only === 'blind-11' || process.env.BENCH_SUMMARY_BLIND11 === '1';
// blind-12 (written unseen by another engineer on 2026-11-27, session 11, after blind-11 was spent)
// is sealed the same way: BENCH_SUMMARY_SET=blind-12 or BENCH_SUMMARY_BLIND12=1; pre-registered in
// bench/results/summaries-blind12-preregistration.md.
const withBlind12 = only === 'blind-12' || process.env.BENCH_SUMMARY_BLIND12 === '1';
// blind-13 (written unseen on its own branch, blind13, while branch tune13 tuned the classifier)
// was measured once as pre-registered in bench/results/summaries-blind13-preregistration.md and
// merged after: BENCH_SUMMARY_SET=blind-13 or BENCH_SUMMARY_BLIND13=1.
const withBlind13 = only === 'blind-13' || process.env.BENCH_SUMMARY_BLIND13 === '1';
// blind-14 (written unseen on its own branch, blind14, while branch tune14 tuned the classifier)
// was measured once as pre-registered in bench/results/summaries-blind14-preregistration.md and
// merged after: BENCH_SUMMARY_SET=blind-14 or BENCH_SUMMARY_BLIND14=1.
const withBlind14 = only === 'blind-14' || process.env.BENCH_SUMMARY_BLIND14 === '1';
// blind-15 (written unseen on its own branch, blind15, while branch tune15 tuned the action rules
// and the classifier) was measured once as pre-registered in
// bench/results/summaries-blind15-preregistration.md and merged after: BENCH_SUMMARY_SET=blind-15
// or BENCH_SUMMARY_BLIND15=1.
const withBlind15 = only === 'blind-15' || process.env.BENCH_SUMMARY_BLIND15 === '1';
// blind-16 (written unseen on its own branch, blind16, while branch tune16 tuned the action rules)
// was measured once as pre-registered in bench/results/summaries-blind16-preregistration.md and
// merged after: BENCH_SUMMARY_SET=blind-16 or BENCH_SUMMARY_BLIND16=1.
const withBlind16 = only === 'blind-16' || process.env.BENCH_SUMMARY_BLIND16 === '1';
const dirs = [
  'meetings',
  'meetings-blind',
  'meetings-blind-2',
  'meetings-blind-3',
  ...(withBlind4 ? ['meetings-blind-4'] : []),
  ...(withBlind5 ? ['meetings-blind-5'] : []),
  ...(withBlind6 ? ['meetings-blind-6'] : []),
  ...(withBlind7 ? ['meetings-blind-7'] : []),
  ...(withBlind8 ? ['meetings-blind-8'] : []),
  ...(withBlind9 ? ['meetings-blind-9'] : []),
  ...(withBlind10 ? ['meetings-blind-10'] : []),
  ...(withBlind11 ? ['meetings-blind-11'] : []),
  ...(withBlind12 ? ['meetings-blind-12'] : []),
  ...(withBlind13 ? ['meetings-blind-13'] : []),
  ...(withBlind14 ? ['meetings-blind-14'] : []),
  ...(withBlind15 ? ['meetings-blind-15'] : []),
  ...(withBlind16 ? ['meetings-blind-16'] : []),
  'meetings-train-1',
  'meetings-train-2',
].map((d) => path.join(benchRoot, d));
/**
 * Sets named by their directory rather than their keys: blind-6's keys say "held-out" (the key
 * format of bench/meetings/README.md allows only tune and held-out, and its writer read only that
 * README), and its keys are not edited; scored as held-out they would count in the verdict.
 */
const SET_OF_DIR: Record<string, ApartSet> = {
  'meetings-blind-6': 'blind-6',
  'meetings-blind-7': 'blind-7',
  'meetings-blind-8': 'blind-8',
  'meetings-blind-9': 'blind-9',
  'meetings-blind-10': 'blind-10',
  'meetings-blind-11': 'blind-11',
  'meetings-blind-12': 'blind-12',
  'meetings-blind-13': 'blind-13',
  'meetings-blind-14': 'blind-14',
  'meetings-blind-15': 'blind-15',
  'meetings-blind-16': 'blind-16',
  'meetings-train-2': 'train-2',
};

interface Key {
  set: 'tune' | 'held-out' | ApartSet;
  meetingDate: string;
  actionItems: Array<{ text: string; owner: string | null; due: string | null; line: number }>;
  decisions: Array<{ text: string; line: number }>;
}

/**
 * Sets scored apart from the verdict, in the order they are printed; `record` is their key in
 * bench/results/summaries.json (`blind` kept as it was, so the recorded history stays comparable).
 */
const APART = {
  blind: {
    record: 'blind',
    title: 'FIRST BLIND SET (bench/meetings-blind: written unseen, then tuned on in b01c807 and ba10fad)',
    note: 'bench/meetings-blind, written without sight of the rules; not part of "all" or the verdict',
  },
  'blind-2': {
    record: 'blind2',
    title:
      'BLIND SET 2 (bench/meetings-blind-2: written unseen, measured in 1e6534f, then tuned on in 0659439)',
    note: 'bench/meetings-blind-2, written without sight of the rules or the other sets; first measured blind (decisions P 46.2%, R 33.3%), then used for tuning in 0659439; not part of "all" or the verdict',
  },
  'blind-3': {
    record: 'blind3',
    title:
      'BLIND SET 3 (bench/meetings-blind-3: written unseen, measured in d347e5b, then tuned on in 1aa3b35)',
    note: 'bench/meetings-blind-3, written without sight of the rules or any other set\'s transcripts; first measured blind (decisions P 50.0%, R 28.6%; actions P 95.5%, R 75.0%), then used for tuning in 1aa3b35; not part of "all" or the verdict',
  },
  'blind-4': {
    record: 'blind4',
    title: 'BLIND SET 4 (bench/meetings-blind-4: written unseen, keys committed first in 3409710)',
    note: 'bench/meetings-blind-4, written without sight of the rules, the summariser or any other set\'s transcripts; never used for tuning; not part of "all" or the verdict',
  },
  'blind-5': {
    record: 'blind5',
    title:
      'BLIND SET 5 (bench/meetings-blind-5: written before the rules were opened, keys committed first in 3f84dd5)',
    note: 'bench/meetings-blind-5, written by the session that then tuned the rules, before it opened them or any earlier transcript (README there says what it had read); never used for tuning; not part of "all" or the verdict',
  },
  'blind-6': {
    record: 'blind6',
    title:
      'BLIND SET 6 (bench/meetings-blind-6: written in its own worktree without sight of the rules, keys committed first in fd01ed2)',
    note: 'bench/meetings-blind-6, written by an engineer who read only bench/meetings/README.md and one tune meeting (README there); measured once, with the rules of 618b671 and no change after; never used for tuning on main (branch decisions2 tuned on it, not merged); not part of "all" or the verdict',
  },
  'blind-7': {
    record: 'blind7',
    title:
      'BLIND SET 7 (bench/meetings-blind-7: written unseen by another engineer, keys committed first in 2c3e795)',
    note: 'bench/meetings-blind-7, written by another engineer without sight of the rules; measured once, with the rules of 007dec0 (the decision classifier frozen before it was read and not adopted), and no change after; never used for tuning on main (branch decisions2 tuned on it, not merged); not part of "all" or the verdict',
  },
  'blind-8': {
    record: 'blind8',
    title:
      'BLIND SET 8 (bench/meetings-blind-8: written unseen by another engineer, keys committed first in 9cd20c6)',
    note: 'bench/meetings-blind-8, written by another engineer without sight of the rules; measured with main\'s rules (those of f59c6cb; the rules of branch decisions2, measured once beside them, were not adopted: bench/results/summaries-blind8-preregistration.md); never used for tuning; not part of "all" or the verdict',
  },
  'blind-9': {
    record: 'blind9',
    title: 'BLIND SET 9 (bench/meetings-blind-9: written unseen by another engineer)',
    note: 'bench/meetings-blind-9, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind9-preregistration.md; never used for tuning or training; not part of "all" or the verdict',
  },
  'blind-10': {
    record: 'blind10',
    title: 'BLIND SET 10 (bench/meetings-blind-10: written unseen by another engineer)',
    note: 'bench/meetings-blind-10, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind10-preregistration.md; never used for tuning or training; not part of "all" or the verdict',
  },
  'blind-11': {
    record: 'blind11',
    title: 'BLIND SET 11 (bench/meetings-blind-11: written unseen by another engineer)',
    note: 'bench/meetings-blind-11, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind11-preregistration.md; never used for tuning or training; not part of "all" or the verdict',
  },
  'blind-12': {
    record: 'blind12',
    title: 'BLIND SET 12 (bench/meetings-blind-12: written unseen by another engineer)',
    note: 'bench/meetings-blind-12, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind12-preregistration.md; since tune13 the decision classifier is trained on it (in-sample for decisions); not part of "all" or the verdict',
  },
  'blind-13': {
    record: 'blind13',
    title: 'BLIND SET 13 (bench/meetings-blind-13: written unseen by another engineer)',
    note: 'bench/meetings-blind-13, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind13-preregistration.md; since tune14 the decision classifier is trained on it (in-sample for decisions); not part of "all" or the verdict',
  },
  'blind-14': {
    record: 'blind14',
    title: 'BLIND SET 14 (bench/meetings-blind-14: written unseen by another engineer)',
    note: 'bench/meetings-blind-14, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind14-preregistration.md; since tune15 the action rules were tuned on its misses (in-sample for actions); since tune16 a CV fold and a training set of the decision classifier (bench/support/summary-sets.ts), but the shipped model was fitted without it (train:decisions -- --without blind-14,blind-15), so its decisions here are still unseen by the model; not part of "all" or the verdict',
  },
  'blind-15': {
    record: 'blind15',
    title: 'BLIND SET 15 (bench/meetings-blind-15: written unseen by another engineer)',
    note: 'bench/meetings-blind-15, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind15-preregistration.md; since tune16 the action rules were tuned on its misses (in-sample for actions) and it is a CV fold and a training set of the decision classifier, but the shipped model was fitted without it (train:decisions -- --without blind-14,blind-15); not part of "all" or the verdict',
  },
  'blind-16': {
    record: 'blind16',
    title: 'BLIND SET 16 (bench/meetings-blind-16: written unseen by another engineer)',
    note: 'bench/meetings-blind-16, written by another engineer without sight of the summariser; measured once as pre-registered in bench/results/summaries-blind16-preregistration.md; never used for tuning or training; not part of "all" or the verdict',
  },
  train: {
    record: 'train',
    title: 'TRAINING SET 1 (bench/meetings-train-1: written as training data for the classifier)',
    note: 'bench/meetings-train-1, written as training data (README there); the decision classifier is trained on it, so its figures say nothing about unseen wording; not part of "all" or the verdict',
  },
  'train-2': {
    record: 'train2',
    title: 'TRAINING SET 2 (bench/meetings-train-2: written as training data for the classifier)',
    note: 'bench/meetings-train-2, written as training data (README there); the decision classifier is trained on it, so its figures say nothing about unseen wording; not part of "all" or the verdict',
  },
} as const;
type ApartSet = keyof typeof APART;
const isApart = (set: string): set is ApartSet => Object.hasOwn(APART, set);

interface Counts {
  predicted: number;
  expected: number;
  matched: number;
}
interface MeetingScore {
  meeting: string;
  set: Key['set'];
  ms: number;
  actionItems: Counts & { ownerRight: number; dueRight: number };
  decisions: Counts;
}

const firstName = (name: string | null) => name?.trim().split(/\s+/)[0]?.toLowerCase() ?? null;

/** Lower case, no punctuation but apostrophes: what the embedded speech-to-text produces. */
function asSpeechToText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every miss, false positive and wrong owner or due date of one meeting, one line each. */
function describeErrors(
  key: Key,
  summary: MeetingSummary,
  actions: Array<[Key['actionItems'][number], MeetingSummary['actionItems'][number]]>,
  decisions: Array<[Key['decisions'][number], MeetingSummary['decisions'][number]]>,
): string[] {
  const out: string[] = [];
  const matchedA = new Set(actions.map(([, p]) => p));
  const matchedKA = new Set(actions.map(([k]) => k));
  const matchedD = new Set(decisions.map(([, p]) => p));
  const matchedKD = new Set(decisions.map(([k]) => k));
  for (const k of key.actionItems.filter((k) => !matchedKA.has(k)))
    out.push(`MISSED action   L${k.line} ${k.owner} due ${k.due}: ${k.text}`);
  for (const p of summary.actionItems.filter((p) => !matchedA.has(p)))
    out.push(`EXTRA  action   L${p.sources.join(',')} ${p.owner} due ${p.due}: ${p.text}`);
  for (const [k, p] of actions) {
    if (firstName(k.owner) !== firstName(p.owner) || k.due !== p.due)
      out.push(
        `WRONG  action   L${k.line} (said at L${p.sources.join(',')}) owner ${p.owner} (key ${k.owner}) due ${p.due} (key ${k.due}): ${p.text}`,
      );
  }
  for (const k of key.decisions.filter((k) => !matchedKD.has(k)))
    out.push(`MISSED decision L${k.line}: ${k.text}`);
  for (const p of summary.decisions.filter((p) => !matchedD.has(p)))
    out.push(`EXTRA  decision L${p.sources.join(',')}: ${p.text}`);
  return out;
}

function score(
  name: string,
  key: Key,
  summary: MeetingSummary,
  ms: number,
  print = verbose,
): { score: MeetingScore; errors: string[] } {
  const actions = match(key.actionItems, summary.actionItems);
  const decisions = match(key.decisions, summary.decisions);
  const errors = describeErrors(key, summary, actions, decisions);
  if (print && KEPT_APART.has(key.set))
    console.log(`\n--- ${name} (${key.set}): kept apart, misses not printed`);
  else if (print) {
    console.log(`\n--- ${name} (${key.set})`);
    for (const e of errors) console.log(`  ${e}`);
  }
  const result: MeetingScore = {
    meeting: name,
    set: key.set,
    ms: Math.round(ms),
    actionItems: {
      predicted: summary.actionItems.length,
      expected: key.actionItems.length,
      matched: actions.length,
      ownerRight: actions.filter(([k, p]) => firstName(k.owner) === firstName(p.owner)).length,
      dueRight: actions.filter(([k, p]) => k.due === p.due).length,
    },
    decisions: {
      predicted: summary.decisions.length,
      expected: key.decisions.length,
      matched: decisions.length,
    },
  };
  return { score: result, errors };
}

const pct = (n: number, d: number) => (d === 0 ? null : Math.round((1000 * n) / d) / 10);
function totals(scores: MeetingScore[]) {
  const sum = (f: (s: MeetingScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  const a = {
    predicted: sum((s) => s.actionItems.predicted),
    expected: sum((s) => s.actionItems.expected),
    matched: sum((s) => s.actionItems.matched),
    ownerRight: sum((s) => s.actionItems.ownerRight),
    dueRight: sum((s) => s.actionItems.dueRight),
  };
  const d = {
    predicted: sum((s) => s.decisions.predicted),
    expected: sum((s) => s.decisions.expected),
    matched: sum((s) => s.decisions.matched),
  };
  return {
    meetings: scores.length,
    actionItems: {
      ...a,
      precision: pct(a.matched, a.predicted),
      recall: pct(a.matched, a.expected),
      ownerAccuracy: pct(a.ownerRight, a.matched),
      dueAccuracy: pct(a.dueRight, a.matched),
    },
    decisions: { ...d, precision: pct(d.matched, d.predicted), recall: pct(d.matched, d.expected) },
  };
}

const fmt = (v: number | null) => (v === null ? '  n/a' : `${v.toFixed(1).padStart(5)}%`);

/** Prints one group's totals, two lines. */
function printTotals(group: string, t: ReturnType<typeof totals>): void {
  const a = t.actionItems;
  const d = t.decisions;
  console.log(
    `\n${group.padEnd(8)} action items: precision ${fmt(a.precision)} recall ${fmt(a.recall)} (${a.predicted} predicted, ${a.expected} in keys, ${a.matched} matched); owner ${fmt(a.ownerAccuracy)} due ${fmt(a.dueAccuracy)} of matched`,
  );
  console.log(
    `${''.padEnd(8)} decisions:    precision ${fmt(d.precision)} recall ${fmt(d.recall)} (${d.predicted} predicted, ${d.expected} in keys, ${d.matched} matched)`,
  );
}

function printAsr(title: string, t: ReturnType<typeof totals>): void {
  console.log(
    `\n${title}, ${t.meetings} meetings, not a target:\n` +
      `         action items: precision ${fmt(t.actionItems.precision)} recall ${fmt(t.actionItems.recall)}; ` +
      `owner ${fmt(t.actionItems.ownerAccuracy)} due ${fmt(t.actionItems.dueAccuracy)}\n` +
      `         decisions:    precision ${fmt(t.decisions.precision)} recall ${fmt(t.decisions.recall)}`,
  );
}

async function main(): Promise<number> {
  // What the app runs (decisions from the classifier); BENCH_SUMMARY_DECISIONS=rules scores the
  // hand-written decision rules alone.
  const summarizer = new RulesSummarizer({
    decisions: process.env.BENCH_SUMMARY_DECISIONS === 'rules' ? 'rules' : 'learned',
  });
  const meetings = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.key.json'))
      .map((f) => ({ dir, name: f.replace(/\.key\.json$/, '') }))
      .sort((x, y) => x.name.localeCompare(y.name)),
  );
  const scores: MeetingScore[] = [];
  const asrScores: MeetingScore[] = [];
  const apartErrors: Record<string, Record<string, string[]>> = {};
  // The first call loads wink's model (~100 ms): measured apart, not inside a meeting's time.
  const loadStart = performance.now();
  await summarizer.summarize({ lines: [], participants: [], meetingDate: '2025-01-01' });
  const modelLoadMs = Math.round(performance.now() - loadStart);
  for (const { dir, name } of meetings) {
    const key = JSON.parse(readFileSync(path.join(dir, `${name}.key.json`), 'utf8')) as Key;
    key.set = SET_OF_DIR[path.basename(dir)] ?? key.set;
    if (only && key.set !== only) continue;
    const lines = parseTranscript(readFileSync(path.join(dir, `${name}.txt`), 'utf8'), key.meetingDate);
    const started = performance.now();
    const summary = await summarizer.summarize({ lines, participants: [], meetingDate: key.meetingDate });
    const scored = score(name, key, summary, performance.now() - started);
    scores.push(scored.score);
    if (isApart(key.set)) (apartErrors[key.set] ??= {})[name] = scored.errors;
    // The same meeting as speech-to-text writes it (pocketsphinx: no capitals, no punctuation).
    const asr = lines.map((l) => ({ ...l, text: asSpeechToText(l.text) }));
    const asrSummary = await summarizer.summarize({
      lines: asr,
      participants: [],
      meetingDate: key.meetingDate,
    });
    asrScores.push(score(name, key, asrSummary, 0, verboseAsr).score);
  }

  console.log(
    '\nmeeting              set        actions P/R (pred/key/match)  owner   due     decisions P/R (pred/key/match)   ms',
  );
  for (const s of scores) {
    const a = s.actionItems;
    const d = s.decisions;
    console.log(
      `${s.meeting.padEnd(20)} ${s.set.padEnd(9)} ${fmt(pct(a.matched, a.predicted))} ${fmt(pct(a.matched, a.expected))} (${a.predicted}/${a.expected}/${a.matched})`.padEnd(
        62,
      ) +
        ` ${fmt(pct(a.ownerRight, a.matched))} ${fmt(pct(a.dueRight, a.matched))}   ${fmt(pct(d.matched, d.predicted))} ${fmt(pct(d.matched, d.expected))} (${d.predicted}/${d.expected}/${d.matched})`.padEnd(
          50,
        ) +
        ` ${s.ms}`,
    );
  }
  // "all" keeps its meaning from before the blind set existed (tune + held-out), so the verdict
  // and the recorded history stay comparable; each blind set is a group of its own.
  const judged = scores.filter((s) => !isApart(s.set));
  const groups: Record<string, ReturnType<typeof totals>> = {
    tune: totals(judged.filter((s) => s.set === 'tune')),
    heldOut: totals(judged.filter((s) => s.set === 'held-out')),
  };
  if (!only) groups.all = totals(judged);
  const verdicts: Record<string, boolean> = {};
  for (const [group, t] of Object.entries(groups)) {
    if (t.meetings === 0) continue;
    printTotals(group, t);
    // The target is judged on what the rules were not tuned on, and on all meetings.
    if (group === 'tune') continue;
    const a = t.actionItems;
    const d = t.decisions;
    const ok = [a.precision, a.recall, d.precision, d.recall].every((v) => v !== null && v >= TARGET * 100);
    verdicts[group] = ok;
    console.log(
      `${''.padEnd(8)} target ≥ ${TARGET * 100}% precision and recall for both: ${ok ? 'PASS' : 'MISS'}`,
    );
  }
  // Not a target: how much of the result depends on punctuation and capitals.
  const asrTotals = totals(asrScores.filter((s) => !isApart(s.set)));
  if (asrTotals.meetings > 0) printAsr('speech-to-text style (lower case, no punctuation)', asrTotals);

  const apart: Record<string, unknown> = {};
  for (const [set, about] of Object.entries(APART)) {
    const t = totals(scores.filter((s) => s.set === set));
    if (t.meetings === 0) continue;
    const asr = totals(asrScores.filter((s) => s.set === set));
    console.log(`\n=== ${about.title} ===`);
    console.log('    reported on its own; not in "all", not part of the verdict');
    printTotals(set, t);
    printAsr(`${set}, speech-to-text style`, asr);
    if (!verbose) console.log(`\n(BENCH_SUMMARY_VERBOSE=1 lists every ${set} miss and false positive)`);
    apart[about.record] = {
      note: about.note,
      totals: t,
      speechToTextStyle: asr,
      errors: apartErrors[set] ?? {},
    };
  }
  console.log(`\nmodel load ${modelLoadMs} ms (once per process)`);

  if (!only && process.env.BENCH_NO_RECORD) console.log('not recorded (BENCH_NO_RECORD)');
  else if (!only) {
    const file = recordResult(process.env.BENCH_RESULT_NAME ?? 'summaries', {
      engine: summarizer.name,
      runs: 1,
      target: { precision: TARGET, recall: TARGET, judgedOn: ['all', 'heldOut'] },
      modelLoadMs,
      totals: groups,
      verdicts,
      speechToTextStyle: asrTotals,
      // `blind` … `blind6`: the same shape each (note, totals, speechToTextStyle, errors).
      ...apart,
      meetings: scores,
    });
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
  return Object.values(verdicts).every(Boolean) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
