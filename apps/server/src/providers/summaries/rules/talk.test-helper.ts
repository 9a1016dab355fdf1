import type { MeetingSummary } from '../types.js';
import { parseTranscript } from '../transcript-file.js';
import { RulesSummarizer } from './index.js';

const summarizer = new RulesSummarizer({ decisions: 'rules' });

/** The rules' summary of a short `Speaker: text` talk held on `meetingDate` (for the rule tests). */
export function summarizeTalk(talk: string, meetingDate: string): Promise<MeetingSummary> {
  return summarizer.summarize({ lines: parseTranscript(talk, meetingDate), participants: [], meetingDate });
}
