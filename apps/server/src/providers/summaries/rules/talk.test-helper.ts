import type { MeetingSummary } from '../types.js';
import { parseTranscript } from '../transcript-file.js';
import { RulesSummarizer } from './index.js';

const summarizer = new RulesSummarizer({ decisions: 'rules' });

/** The rules' summary of a short `Speaker: text` talk held on `meetingDate` (for the rule tests). */
export function summarizeTalk(talk: string, meetingDate: string): Promise<MeetingSummary> {
  return summarizer.summarize({ lines: parseTranscript(talk, meetingDate), participants: [], meetingDate });
}

/** The talk's action items as most rule tests check them: owner, first source line, due date. */
export async function actionsOf(talk: string, meetingDate: string) {
  const summary = await summarizeTalk(talk, meetingDate);
  return summary.actionItems.map((a) => ({ owner: a.owner, line: a.sources[0], due: a.due }));
}
