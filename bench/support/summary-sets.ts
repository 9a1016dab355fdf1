import { readdirSync, readFileSync } from 'node:fs';
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
 * line, labelled by whether a key decision names that line. The set of a meeting is its key's
 * `set`, except where the directory names it (blind-6's keys say "held-out"; see summaries.ts).
 * blind-7 is read only when asked for (it is the sealed test of the frozen model).
 */
export const CV_SETS = [
  'tune',
  'held-out',
  'blind',
  'blind-2',
  'blind-3',
  'blind-4',
  'blind-5',
  'blind-6',
] as const;

export interface KeyedMeeting {
  name: string;
  set: string;
  meetingDate: string;
  decisionsKey: Array<{ text: string; line: number }>;
  lines: SourceLine[];
  sentences: Sentence[];
  rules: MeetingSummary;
  /** All feature groups, one list per line. */
  features: string[][];
  labels: boolean[];
}

const DIRS = [
  'meetings',
  'meetings-blind',
  'meetings-blind-2',
  'meetings-blind-3',
  'meetings-blind-4',
  'meetings-blind-5',
  'meetings-blind-6',
];
const SET_OF_DIR: Record<string, string> = { 'meetings-blind-6': 'blind-6', 'meetings-blind-7': 'blind-7' };

export async function loadKeyedMeetings(options: { blind7?: boolean } = {}): Promise<KeyedMeeting[]> {
  const dirs = options.blind7 ? ['meetings-blind-7'] : DIRS;
  const summarizer = new RulesSummarizer();
  const out: KeyedMeeting[] = [];
  for (const dir of dirs.map((d) => path.join(benchRoot, d))) {
    const names = readdirSync(dir)
      .filter((f) => f.endsWith('.key.json'))
      .map((f) => f.replace(/\.key\.json$/, ''))
      .sort();
    for (const name of names) {
      const key = JSON.parse(readFileSync(path.join(dir, `${name}.key.json`), 'utf8')) as {
        set: string;
        meetingDate: string;
        decisions: Array<{ text: string; line: number }>;
      };
      const lines = parseTranscript(
        readFileSync(path.join(dir, `${name}.txt`), 'utf8'),
        key.meetingDate,
      ).filter((l) => l.text.trim() !== '');
      const rules = await summarizer.summarize({ lines, participants: [], meetingDate: key.meetingDate });
      const sentences = readSentences(lines);
      const keyed = new Set(key.decisions.map((d) => String(d.line)));
      out.push({
        name,
        set: SET_OF_DIR[path.basename(dir)] ?? key.set,
        meetingDate: key.meetingDate,
        decisionsKey: key.decisions,
        lines,
        sentences,
        rules,
        features: lineFeatures(lines, sentences, ruleSignals(lines, rules.decisions, rules.actionItems)),
        labels: lines.map((l) => keyed.has(l.id)),
      });
    }
  }
  return out;
}
