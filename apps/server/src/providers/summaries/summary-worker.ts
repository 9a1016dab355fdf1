/**
 * The summary worker thread: the embedded summariser (wink-nlp, the rules, the decision
 * classifier) run off the server's event loop. It reads one meeting at a time and answers its
 * summary or its error; the server thread times it and terminates it past its budget
 * (worker.ts). An entry point of its own in the bundle (build.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RulesSummarizer } from './rules/index.js';
import type { FromSummaryWorker, ToSummaryWorker } from './worker.js';

const port = parentPort;
if (!port) throw new Error('summary-worker.ts runs only as a worker thread');
const summarizer = new RulesSummarizer(workerData as ConstructorParameters<typeof RulesSummarizer>[0]);

// Loaded before the first meeting is read (wink's model, the classifier's ~500 KB of JSON), so a
// summary's budget measures the summary, not the start-up (seconds under tsx on a loaded machine).
void summarizer
  .summarize({
    lines: [{ id: '1', speaker: 'A', text: "I'll start.", at: '2026-01-01T09:00:00Z', kind: 'speech' }],
    participants: [],
    meetingDate: '2026-01-01',
  })
  .finally(() => port.postMessage({ ready: true } satisfies FromSummaryWorker));

port.on('message', (message: ToSummaryWorker) => {
  const send = (answer: FromSummaryWorker) => port.postMessage(answer);
  summarizer.summarize(message.input).then(
    (summary) => send({ seq: message.seq, summary }),
    (err: unknown) => send({ seq: message.seq, error: err instanceof Error ? err.message : String(err) }),
  );
});
