import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fromApertium, toApertium } from './apertium-format.js';

export interface PipelineOptions {
  /** A request with no answer after this long kills the pipeline (the next request restarts it). */
  timeoutMs: number;
}

export class ApertiumPipelineError extends Error {}

interface Pending {
  resolve(text: string): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One apertium mode (e.g. `eng-spa`) kept warm: its null-flush pipeline (`apertium-wblank-mode -z`)
 * runs in one bash process that lives between requests, so a line costs a few milliseconds instead
 * of the 80–220 ms of starting the eight-stage pipeline and loading its dictionaries.
 *
 * Each request is the escaped line and a NUL; every stage flushes on NUL and passes it on, so the
 * answer is everything up to the next NUL on stdout. The stream has no request ids, so requests
 * are strictly one at a time (a queue); a request that gets no answer in time, or a pipeline that
 * exits, fails the request in flight and the process is killed, to be started again by the next
 * request.
 */
export class ApertiumPipeline {
  private proc: ChildProcessWithoutNullStreams | null = null;
  private pending: Pending | null = null;
  private received: Buffer[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** How many times a process was started (for tests and logs). */
  starts = 0;

  /**
   * @param mode the mode's name, for messages (`eng-spa`)
   * @param script the null-flush pipeline `apertium-wblank-mode -z <mode file>` printed
   */
  constructor(
    readonly mode: string,
    private readonly script: string,
    private readonly options: PipelineOptions,
  ) {}

  translate(text: string): Promise<string> {
    const run = this.queue.then(() => this.request(text));
    // The queue only orders requests: one failure must not fail the ones behind it.
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Kills the process; later requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.kill(new ApertiumPipelineError('the translator was closed'));
    await this.queue;
  }

  private async request(text: string): Promise<string> {
    if (this.closed) throw new ApertiumPipelineError('the translator was closed');
    const proc = this.start();
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill(
          new ApertiumPipelineError(`apertium (${this.mode}) gave no answer in ${this.options.timeoutMs} ms`),
        );
      }, this.options.timeoutMs);
      this.pending = { resolve, reject, timer };
      proc.stdin.write(`${toApertium(text)}\0`);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.proc) return this.proc;
    // `$1` is lt-proc's generation flag: -n leaves out the `*`/`#` marks of unknown words (what
    // `apertium -u` passes); `$2` (the tagger's) stays empty. Its own process group, so a kill
    // reaches every stage.
    const proc = spawn('bash', ['-c', this.script, 'apertium', '-n'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.starts += 1;
    this.proc = proc;
    this.received = [];
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-500);
    });
    proc.stdin.on('error', () => undefined); // an exit is reported by 'exit' below
    proc.on('error', (err) => this.onExit(proc, `could not start: ${err.message}`));
    proc.on('exit', (code, signal) =>
      this.onExit(proc, `exited (${signal ?? code})${stderr ? `: ${stderr.trim()}` : ''}`),
    );
    return proc;
  }

  private onData(chunk: Buffer): void {
    let rest = chunk;
    for (let nul = rest.indexOf(0); nul !== -1; nul = rest.indexOf(0)) {
      this.received.push(rest.subarray(0, nul));
      rest = rest.subarray(nul + 1);
      const answer = Buffer.concat(this.received).toString('utf8');
      this.received = [];
      const pending = this.pending;
      this.pending = null;
      if (pending) {
        clearTimeout(pending.timer);
        pending.resolve(fromApertium(answer));
      }
    }
    if (rest.length > 0) this.received.push(rest);
  }

  private onExit(proc: ChildProcessWithoutNullStreams, why: string): void {
    if (this.proc !== proc) return;
    this.proc = null;
    this.fail(new ApertiumPipelineError(`apertium (${this.mode}) ${why}`));
  }

  private kill(err: Error): void {
    const proc = this.proc;
    this.proc = null;
    if (proc?.pid !== undefined) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.fail(err);
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = null;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(err);
    }
  }
}
