import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTranscript } from './transcript-file.js';
import type { SourceLine } from './types.js';
import { SummaryBudgetError, SummaryBusyError, WorkerSummarizer } from './worker.js';

const meetingsDir = fileURLToPath(new URL('../../../../../bench/meetings', import.meta.url));

/** The keyed bench meetings one after another, renumbered: a long meeting of real talk. */
function longMeeting(count: number): SourceLine[] {
  const all = readdirSync(meetingsDir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) => parseTranscript(readFileSync(path.join(meetingsDir, f), 'utf8'), '2026-11-23'));
  return Array.from({ length: count }, (_, i) => ({
    ...all[i % all.length]!,
    id: String(i + 1),
    at: new Date(Date.parse('2026-11-23T09:00:00Z') + i * 5_000).toISOString(),
  }));
}

const summarizers: WorkerSummarizer[] = [];
const make = (options: ConstructorParameters<typeof WorkerSummarizer>[0]) => {
  const s = new WorkerSummarizer(options);
  summarizers.push(s);
  return s;
};
afterAll(async () => {
  await Promise.all(summarizers.map((s) => s.close()));
});

describe('the summariser in a worker thread', () => {
  it('summarises a meeting while the event loop stays free', async () => {
    const summarizer = make({});
    const lines = longMeeting(600);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const summary = await summarizer.summarize({ lines, participants: [], meetingDate: '2026-11-23' });
    delay.disable();
    expect(summary.actionItems.length).toBeGreaterThan(10);
    expect(summary.summary).toMatch(/spoke \(600 lines\)/);
    // The summary ran elsewhere: this thread only waited (generous, the machine is shared).
    expect(delay.max / 1e6).toBeLessThan(500);
  }, 60_000);

  it('terminates a summary past its budget, then serves the next one with a new worker', async () => {
    const summarizer = make({ budgetMs: 50 });
    const input = { lines: longMeeting(2000), participants: [], meetingDate: '2026-11-23' };
    await expect(summarizer.summarize(input)).rejects.toBeInstanceOf(SummaryBudgetError);
    expect(summarizer.busy).toBe(false);
    expect(summarizer.started).toBe(1);
    const roomy = make({ budgetMs: 60_000 });
    const ok = await roomy.summarize({ ...input, lines: input.lines.slice(0, 40) });
    expect(ok.summary).toMatch(/40 lines/);
  }, 60_000);

  it('refuses a summary when too many are waiting', async () => {
    const summarizer = make({ maxWaiting: 1 });
    const input = { lines: longMeeting(60), participants: [], meetingDate: '2026-11-23' };
    const first = summarizer.summarize(input);
    const second = summarizer.summarize(input);
    await expect(summarizer.summarize(input)).rejects.toBeInstanceOf(SummaryBusyError);
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  }, 60_000);
});
