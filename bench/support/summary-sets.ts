import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readSentences, type Sentence } from '../../apps/server/src/providers/summaries/rules/nlp.js';
import { RulesSummarizer } from '../../apps/server/src/providers/summaries/rules/index.js';
import { lineFeatures } from '../../apps/server/src/providers/summaries/learned/features.js';
import { ruleSignals } from '../../apps/server/src/providers/summaries/learned/decisions.js';
import { parseTranscript } from '../../apps/server/src/providers/summaries/transcript-file.js';
import type { MeetingSummary, SourceLine } from '../../apps/server/src/providers/summaries/types.js';
import { benchRoot } from './results.js';

/**
 * The keyed meetings as a labelled dataset for the decision classifier: one example a transcript
 * line, labelled by whether a key decision names that line.
 *
 * Every set is listed here by name and directory, and only these are ever read: a sealed test (a
 * blind set written on its own branch) stays absent until its one measurement, so nothing that
 * trains or cross-validates can see it. Blind-9 … -15 are spent (each measured once:
 * results/summaries-blind9…15-preregistration.md) and are folds like the others (blind-16, spent
 * too, joins them at the next round). Blind-14 and
 * blind-15 are training sets and folds since tune16, but no model trained with them has been
 * adopted (tune15's and tune16's were not): the shipped classifier is tune14's configuration
 * fitted on the other seventeen sets, train-2 included, and refitted on the action rules adopted
 * after blind-16, so `npm run train:decisions -- --without blind-14,blind-15` rebuilds it.
 * A meeting's set is its directory's name below (blind-6, -7 and -8's keys
 * say "held-out", train-2's say "train"; see summaries.ts), except bench/meetings, whose keys say
 * tune or held-out.
 */
export const SET_DIRS = {
  tune: 'meetings',
  'held-out': 'meetings',
  blind: 'meetings-blind',
  'blind-2': 'meetings-blind-2',
  'blind-3': 'meetings-blind-3',
  'blind-4': 'meetings-blind-4',
  'blind-5': 'meetings-blind-5',
  'blind-6': 'meetings-blind-6',
  'blind-7': 'meetings-blind-7',
  'blind-8': 'meetings-blind-8',
  train: 'meetings-train-1',
  'blind-9': 'meetings-blind-9',
  'blind-10': 'meetings-blind-10',
  'blind-11': 'meetings-blind-11',
  'blind-12': 'meetings-blind-12',
  'blind-13': 'meetings-blind-13',
  'train-2': 'meetings-train-2',
  'blind-14': 'meetings-blind-14',
  'blind-15': 'meetings-blind-15',
} as const;
export type CvSet = keyof typeof SET_DIRS;
/** The folds of leave-one-set-out cross-validation, in time order. */
export const CV_SETS = Object.keys(SET_DIRS) as CvSet[];
/**
 * The sets main's decision rules were never tuned on: only in these folds is a system that uses
 * the rules' output scored on something neither it nor the rules have seen. Main's decision rules
 * are tune12's (5587116), written from the misses of tune … blind-8 and blind-11; train, blind-9
 * and blind-10 were kept apart (their totals were measured, see
 * results/summaries-blind12-preregistration.md); blind-12 and blind-13 did not exist yet.
 */
export const MAIN_RULES_UNSEEN: readonly CvSet[] = ['train', 'blind-9', 'blind-10', 'blind-12', 'blind-13'];
/**
 * The folds kept apart by tune14, chosen before any miss was read: blind-9, blind-10, blind-12
 * (kept apart by tune13 too) and blind-13 (the newest, measured once on the classifier trained
 * without it). Their misses and false positives are not read; only their totals are. Main's rules
 * were not written from them and no tuner has read their misses, so these folds are honest for
 * main's shipped system and for this branch's alike.
 */
export const RULES_UNSEEN: readonly CvSet[] = ['blind-9', 'blind-10', 'blind-12', 'blind-13'];

export interface KeyedMeeting {
  name: string;
  /** Read lower-cased without punctuation (LoadOptions.speechToText). */
  asr: boolean;
  set: CvSet;
  meetingDate: string;
  decisionsKey: Array<{ text: string; line: number }>;
  actionsKey: Array<{ text: string; line: number }>;
  lines: SourceLine[];
  sentences: Sentence[];
  rules: MeetingSummary;
  /** All feature groups, one list per line. */
  features: string[][];
  labels: boolean[];
}

/** Lower case, no punctuation but apostrophes: what the embedded speech-to-text produces. */
export function asSpeechToText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface LoadOptions {
  /** The sets to read (default: every CV set). */
  sets?: readonly CvSet[];
  /** Read each transcript lower-cased without punctuation, as the speech-to-text writes it. */
  speechToText?: boolean;
}

export async function loadKeyedMeetings(options: LoadOptions = {}): Promise<KeyedMeeting[]> {
  const wanted = new Set(options.sets ?? CV_SETS);
  const summarizer = new RulesSummarizer({ decisions: 'rules' });
  const clustersFile = path.join(
    benchRoot,
    '../apps/server/src/providers/summaries/learned/word-clusters.json',
  );
  const clusters = existsSync(clustersFile)
    ? (JSON.parse(readFileSync(clustersFile, 'utf8')) as { cluster: Record<string, number> }).cluster
    : null;
  const out: KeyedMeeting[] = [];
  for (const dir of [...new Set([...wanted].map((s) => SET_DIRS[s]))]) {
    const full = path.join(benchRoot, dir);
    const names = readdirSync(full)
      .filter((f) => f.endsWith('.key.json'))
      .map((f) => f.replace(/\.key\.json$/, ''))
      .sort();
    for (const name of names) {
      const key = JSON.parse(readFileSync(path.join(full, `${name}.key.json`), 'utf8')) as {
        set: string;
        meetingDate: string;
        decisions: Array<{ text: string; line: number }>;
        actionItems: Array<{ text: string; line: number }>;
      };
      const set = (dir === 'meetings' ? key.set : CV_SETS.find((s) => SET_DIRS[s] === dir)) as CvSet;
      if (!wanted.has(set)) continue;
      const lines = parseTranscript(readFileSync(path.join(full, `${name}.txt`), 'utf8'), key.meetingDate)
        .map((l) => (options.speechToText ? { ...l, text: asSpeechToText(l.text) } : l))
        .filter((l) => l.text.trim() !== '');
      const rules = await summarizer.summarize({ lines, participants: [], meetingDate: key.meetingDate });
      const sentences = readSentences(lines);
      const keyed = new Set(key.decisions.map((d) => String(d.line)));
      out.push({
        name,
        asr: !!options.speechToText,
        set,
        meetingDate: key.meetingDate,
        decisionsKey: key.decisions,
        actionsKey: key.actionItems,
        lines,
        sentences,
        rules,
        features: lineFeatures(
          lines,
          sentences,
          ruleSignals(lines, rules.decisions, rules.actionItems),
          clusters,
        ),
        labels: lines.map((l) => keyed.has(l.id)),
      });
    }
  }
  return out;
}
