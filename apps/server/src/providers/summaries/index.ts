import type { Config } from '../../config.js';
import type { AiLog } from '../translation/index.js';
import { OpenAiSummarizer } from './openai.js';
import type { Summarizer } from './types.js';
import { WorkerSummarizer } from './worker.js';

export type { MeetingSummary, SourceLine, Summarizer, SummaryInput } from './types.js';
export { SummaryBudgetError, SummaryBusyError, WorkerSummarizer } from './worker.js';

/**
 * The summariser the configuration chose: the OpenAI-compatible API (structured JSON output) or
 * the embedded rules, which need nothing installed and so are always there (in a worker thread,
 * with a time budget: worker.ts).
 */
export function createSummarizer(ai: Config['ai'], log: AiLog): Summarizer {
  const { baseUrl, apiKey, summaryModel } = ai.openai;
  if (ai.summaries === 'openai') {
    if (baseUrl) return new OpenAiSummarizer({ baseUrl, apiKey, model: summaryModel });
    log.warn('AI_SUMMARY_PROVIDER=openai without AI_BASE_URL: using the embedded summariser');
  }
  return new WorkerSummarizer();
}
