import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../lib/worker-entry.js';
import type { MeetingSummary, Summarizer, SummaryInput } from './types.js';

/**
 * The embedded summariser in a worker thread, so a long meeting never stops the server's event
 * loop: the security review saw 300 chat messages of ~1,800 characters stop every request of an
 * instance (health included) for 21.9 s while the rules read them on the event loop.
 *
 * One summary at a time (on 2 cores, two would only each take twice as long), a few waiting, and
 * a time budget per summary: past it the worker is terminated (its memory with it) and the
 * caller gets SummaryBudgetError; the next summary starts a new worker. A worker idle for
 * `idleMs` is ended too (it holds the NLP model and the classifier, ~150 MiB).
 */
export type ToSummaryWorker = { seq: number; input: SummaryInput };
export type FromSummaryWorker =
  { ready: true } | { seq: number; summary: MeetingSummary } | { seq: number; error: string };

export interface WorkerSummarizerOptions {
  /** Longest a summary may take, from the moment the worker is asked (default 30 s). */
  budgetMs?: number;
  /** Longest a new worker may take to load its models (default 60 s); not part of the budget. */
  startMs?: number;
  /** Summaries that may wait behind the running one; more are refused (default 4). */
  maxWaiting?: number;
  /** An idle worker is ended after this long (default 60 s). */
  idleMs?: number;
  /** The RulesSummarizer's options, passed to the worker. */
  decisions?: 'learned' | 'rules';
  /** The worker's heap limit (MiB, default 1024): a summary that needs more fails, not the server. */
  maxHeapMb?: number;
}

export class SummaryBudgetError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the summary took longer than ${Math.round(budgetMs / 1000)} s and was stopped`);
    this.name = 'SummaryBudgetError';
  }
}

export class SummaryBusyError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} summaries are already waiting`);
    this.name = 'SummaryBusyError';
  }
}

interface Job {
  input: SummaryInput;
  resolve(summary: MeetingSummary): void;
  reject(err: Error): void;
}

export class WorkerSummarizer implements Summarizer {
  readonly name: string;
  readonly budgetMs: number;
  private readonly maxWaiting: number;
  private readonly idleMs: number;
  private readonly options: WorkerSummarizerOptions;
  private worker: Worker | null = null;
  /** The worker has loaded its models (a summary is posted only then). */
  private ready = false;
  private startTimer: NodeJS.Timeout | null = null;
  private readonly queue: Job[] = [];
  private running: { job: Job; seq: number; timer: NodeJS.Timeout } | null = null;
  private seq = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: WorkerSummarizerOptions = {}) {
    this.options = options;
    this.budgetMs = options.budgetMs ?? 30_000;
    this.maxWaiting = options.maxWaiting ?? 4;
    this.idleMs = options.idleMs ?? 60_000;
    // The same name as the summariser it runs: the engine a summary records.
    this.name = options.decisions === 'rules' ? 'rules (wink-nlp)' : 'rules + decision classifier (wink-nlp)';
  }

  /** Workers started so far (a terminated one is replaced by the next): for tests and logs. */
  started = 0;

  /** Whether a summary is running now. */
  get busy(): boolean {
    return this.running !== null;
  }

  summarize(input: SummaryInput): Promise<MeetingSummary> {
    if (this.closed) return Promise.reject(new Error('the summariser is closed'));
    // The first one waits for a worker to start but is not waiting behind another summary.
    if (this.queue.length + (this.running ? 1 : 0) > this.maxWaiting)
      return Promise.reject(new SummaryBusyError(this.queue.length));
    return new Promise<MeetingSummary>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the summariser is closed'));
    if (this.running) this.finish(new Error('the summariser is closed'));
    await this.stop();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return this.idle();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    let worker: Worker;
    try {
      worker = this.worker ?? this.start();
    } catch (err) {
      job.reject(err instanceof Error ? err : new Error(String(err)));
      return this.next();
    }
    worker.ref();
    if (!this.ready) {
      this.queue.unshift(job); // posted when the worker says it is ready
      return;
    }
    const seq = ++this.seq;
    const timer = setTimeout(() => {
      // Terminated, not asked to stop: the rules cannot be interrupted from inside.
      void this.stop();
      this.finish(new SummaryBudgetError(this.budgetMs));
    }, this.budgetMs);
    this.running = { job, seq, timer };
    worker.postMessage({ seq, input: job.input } satisfies ToSummaryWorker);
  }

  private start(): Worker {
    const entry = workerEntry(import.meta.url, 'summary-worker');
    if (!existsSync(entry.file))
      throw new Error(`the summary worker is missing at ${entry.file} (build the server with build.mjs)`);
    const options = {
      workerData: { decisions: this.options.decisions },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 1024 },
    };
    const worker = entry.bootstrap
      ? new Worker(entry.bootstrap, { ...options, eval: true })
      : new Worker(entry.file, options);
    this.started += 1;
    this.ready = false;
    this.startTimer = setTimeout(() => {
      this.startTimer = null;
      void this.stop();
      for (const job of this.queue.splice(0))
        job.reject(new Error('the summary worker did not start in time'));
    }, this.options.startMs ?? 60_000);
    worker.on('message', (m: FromSummaryWorker) => {
      if ('ready' in m) {
        if (this.worker !== worker) return;
        if (this.startTimer) clearTimeout(this.startTimer);
        this.startTimer = null;
        this.ready = true;
        return this.next();
      }
      if (!this.running || m.seq !== this.running.seq) return;
      if ('error' in m) this.finish(new Error(`the summary failed: ${m.error}`));
      else this.finish(null, m.summary);
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      void this.stop();
      if (this.running) this.finish(new Error(`the summary worker ${why}`));
      else for (const job of this.queue.splice(0)) job.reject(new Error(`the summary worker ${why}`));
    };
    worker.on('error', (err: Error) => gone(`failed: ${err.message}`));
    worker.on('exit', (code) => gone(`stopped (exit ${code})`));
    this.worker = worker;
    return worker;
  }

  private finish(err: Error | null, summary?: MeetingSummary): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = null;
    if (err) running.job.reject(err);
    else running.job.resolve(summary!);
    this.next();
  }

  /** Nothing to do: the worker no longer holds the process open, and ends after idleMs. */
  private idle(): void {
    const worker = this.worker;
    if (!worker) return;
    worker.unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.running) void this.stop();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (worker) await worker.terminate();
  }
}
