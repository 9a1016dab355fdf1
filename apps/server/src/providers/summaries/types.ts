import type { MeetingSummary } from '@parley/protocol';

export type { ActionItem, MeetingSummary, SummaryPoint } from '@parley/protocol';

/** A transcript line or chat message the summary reads. `id` is what sources point back to. */
export interface SourceLine {
  id: string;
  speaker: string;
  text: string;
  /** When it was said (ISO 8601). */
  at: string;
  kind: 'speech' | 'chat';
}

export interface SummaryInput {
  lines: SourceLine[];
  /** Names of the people in the meeting (owners are matched against these). */
  participants: string[];
  /** The meeting's date: relative due dates ("by Friday") resolve from it. ISO 8601. */
  meetingDate: string;
}

export interface Summarizer {
  /** 'rules (wink-nlp)', 'openai-compatible'. */
  readonly name: string;
  summarize(input: SummaryInput): Promise<MeetingSummary>;
  /** Frees what it holds (a worker thread). */
  close?(): Promise<void>;
}
