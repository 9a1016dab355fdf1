/**
 * The embedded summariser on long meetings: 250, 500, 1,000 and 2,000 lines (the keyed bench
 * meetings one after another, renumbered, 5 s apart), run as the server runs it (a worker thread,
 * providers/summaries/worker.ts). For each size, BENCH_RUNS (3) summaries: the time from asking to
 * the answer, and the server thread's event-loop delay while it runs (perf_hooks
 * monitorEventLoopDelay, 10 ms resolution: p99 and max). The worker is started and warmed first.
 * Target (issue 34): 2,000 lines in ≤ 5 s with the event loop's p99 delay ≤ 50 ms; a miss exits 1.
 * Writes bench/results/summary-load.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseTranscript } from '../apps/server/src/providers/summaries/transcript-file.js';
import type { SourceLine } from '../apps/server/src/providers/summaries/types.js';
import { WorkerSummarizer } from '../apps/server/src/providers/summaries/worker.js';
import { benchRoot, recordResult } from './support/results.js';

const SIZES = [250, 500, 1000, 2000];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = { ms: 5_000, loopP99Ms: 50 };

function meeting(count: number): SourceLine[] {
  const all = readdirSync(benchRoot)
    .filter((d) => /^meetings(-blind(-\d+)?)?$/.test(d))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .flatMap((d) =>
      readdirSync(path.join(benchRoot, d))
        .filter((f) => f.endsWith('.txt'))
        .sort()
        .flatMap((f) => parseTranscript(readFileSync(path.join(benchRoot, d, f), 'utf8'), '2026-11-23')),
    );
  if (all.length < count) throw new Error(`only ${all.length} lines in the bench meetings`);
  return all.slice(0, count).map((l, i) => ({
    ...l,
    id: String(i + 1),
    at: new Date(Date.parse('2026-11-23T09:00:00Z') + i * 5_000).toISOString(),
  }));
}

const round = (n: number) => Math.round(n * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<number> {
  const summarizer = new WorkerSummarizer({ budgetMs: 120_000 });
  try {
    await summarizer.summarize({ lines: meeting(20), participants: [], meetingDate: '2026-11-23' });
    const sizes = [];
    for (const n of SIZES) {
      const lines = meeting(n);
      const runs = [];
      for (let r = 0; r < RUNS; r += 1) {
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const t0 = performance.now();
        const summary = await summarizer.summarize({ lines, participants: [], meetingDate: '2026-11-23' });
        const ms = performance.now() - t0;
        delay.disable();
        runs.push({
          ms: round(ms),
          loopP99Ms: round(delay.percentile(99) / 1e6),
          loopMaxMs: round(delay.max / 1e6),
          actionItems: summary.actionItems.length,
          decisions: summary.decisions.length,
        });
      }
      const row = {
        lines: n,
        runs: runs.length,
        medianMs: median(runs.map((x) => x.ms)),
        maxMs: Math.max(...runs.map((x) => x.ms)),
        loopP99Ms: Math.max(...runs.map((x) => x.loopP99Ms)),
        loopMaxMs: Math.max(...runs.map((x) => x.loopMaxMs)),
        each: runs,
      };
      sizes.push(row);
      console.log(
        `${String(n).padStart(5)} lines: median ${row.medianMs} ms (max ${row.maxMs}), event loop p99 ${row.loopP99Ms} ms ` +
          `(max ${row.loopMaxMs}), ${runs[0]!.actionItems} action items, ${runs[0]!.decisions} decisions (${RUNS} runs)`,
      );
    }
    const last = sizes.at(-1)!;
    const pass = last.maxMs <= TARGET.ms && last.loopP99Ms <= TARGET.loopP99Ms;
    console.log(
      `\ntarget: 2,000 lines ≤ ${TARGET.ms} ms, event loop p99 ≤ ${TARGET.loopP99Ms} ms: ${pass ? 'PASS' : 'MISS'}`,
    );
    const file = recordResult('summary-load', {
      engine: summarizer.name,
      target: TARGET,
      runsPerSize: RUNS,
      sizes,
      pass,
    });
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
    return pass ? 0 : 1;
  } finally {
    await summarizer.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
