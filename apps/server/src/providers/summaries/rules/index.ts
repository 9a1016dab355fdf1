import { meetingSummarySchema } from '@parley/protocol';
import type { MeetingSummary, Summarizer, SummaryInput } from '../types.js';
import { findActionItems } from './actions.js';
import { findDecisions } from './decisions.js';
import { readSentences } from './nlp.js';
import { People } from './people.js';
import { overviewAndKeyPoints } from './textrank.js';

/**
 * The embedded summariser: extractive (TextRank) overview and key points, rule-based action
 * items and decisions (wink-nlp for sentences, POS and lemmas; chrono-node for due dates). No
 * model download, no network; measured against hand-written keys in bench/summaries.ts.
 */
export class RulesSummarizer implements Summarizer {
  readonly name: string;

  /**
   * `decisions: 'learned'` (the default) takes decisions from the classifier of ../learned/, which
   * reads the rules' own output among its features; `'rules'` from the hand-written rules alone.
   * The classifier is the default since blind-12, measured once as pre-registered
   * (bench/results/summaries-blind12-preregistration.md): decisions P 94.1% R 53.3% against the
   * rules' 66.7% / 26.7%. The benchmarks measure both (BENCH_SUMMARY_DECISIONS=rules).
   */
  constructor(private readonly options: { decisions?: 'learned' | 'rules' } = {}) {
    this.name = options.decisions === 'rules' ? 'rules (wink-nlp)' : 'rules + decision classifier (wink-nlp)';
  }

  async summarize(input: SummaryInput): Promise<MeetingSummary> {
    const lines = input.lines.filter((l) => l.text.trim() !== '');
    const sentences = readSentences(lines);
    const speakers = [...new Set(lines.map((l) => l.speaker))];
    const people = new People(speakers, input.participants);
    const meetingDate = input.meetingDate.slice(0, 10);

    const { items, cued } = findActionItems(sentences, people, meetingDate);
    const ruled = findDecisions(sentences, cued);
    // Loaded at the first summary, not at start-up: the classifier's model and word clusters are
    // ~500 KB of JSON (parsed once per process, 150-460 ms on the 2-core machine).
    const decisions =
      this.options.decisions === 'rules'
        ? ruled
        : (await import('../learned/decisions.js')).learnedDecisions(lines, sentences, {
            decisions: ruled,
            actionItems: items,
          });
    const keyPointCount = Math.max(2, Math.min(7, Math.round(lines.length / 7)));
    const { overview, keyPoints } = overviewAndKeyPoints(
      sentences,
      Math.min(3, keyPointCount),
      keyPointCount,
    );

    const summary = {
      summary: overviewText(speakers, lines.length, overview, items.length, decisions.length),
      keyPoints,
      actionItems: items,
      decisions,
    };
    // The wire contract is checked here too, so a rule change cannot send a malformed summary.
    return meetingSummarySchema.parse(summary);
  }
}

function overviewText(
  speakers: string[],
  lineCount: number,
  overview: ReturnType<typeof overviewAndKeyPoints>['overview'],
  actionCount: number,
  decisionCount: number,
): string {
  if (lineCount === 0) return 'Nothing was said in this meeting.';
  const who =
    speakers.length === 1
      ? speakers[0]!
      : `${speakers.slice(0, -1).join(', ')} and ${speakers[speakers.length - 1]}`;
  const gist = overview.map((s) => `${s.speaker}: "${s.text}"`).join(' ');
  const counts = `${plural(actionCount, 'action item')} and ${plural(decisionCount, 'decision').toLowerCase()}.`;
  return `${who} spoke (${plural(lineCount, 'line')}).${gist ? ` ${gist}` : ''} ${counts}`;
}

function plural(n: number, word: string): string {
  return `${n === 0 ? 'No' : n} ${word}${n === 1 ? '' : 's'}`;
}
