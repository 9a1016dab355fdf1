import type { Timers } from '../free-time.js';

/**
 * A clock the test moves by hand: `advance` runs every timer that falls due, in order, at its
 * own time, and lets the work it queued finish before the next one (`settle`).
 */
export class FakeClock implements Timers {
  private t = 1_700_000_000_000;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  /** What to wait for after each timer (the service's queue); set once the service exists. */
  settle: () => Promise<void> = async () => {};

  now = (): number => this.t;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  get pending(): number {
    return this.timers.size;
  }

  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await this.settle();
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (!next || entry[1].at < next[1].at) next = entry;
      if (!next || next[1].at > end) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
      await this.settle();
    }
    this.t = end;
    await this.settle();
  }
}
