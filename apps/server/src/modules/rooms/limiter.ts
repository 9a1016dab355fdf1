/**
 * Counts events per key in a sliding window (in memory, per server instance): used to refuse
 * password guessing, meeting-id probing and join floods. Old keys are pruned as the map is used.
 * Callers that await between deciding and knowing the outcome use `tryRecord` (check and count in
 * one synchronous step, so concurrent requests cannot all pass) and `undo` for outcomes that
 * should not count.
 */
export class WindowCounter {
  private readonly hits = new Map<string, number[]>();
  private lastPrune = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `key` has reached the limit within the window. */
  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }

  /** How long until `key` is below the limit again (0 when it is not at the limit). */
  retryAfterMs(key: string): number {
    const list = this.recent(key);
    if (list.length < this.limit) return 0;
    return Math.max(0, list[list.length - this.limit]! + this.windowMs - this.now());
  }

  record(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.hits.set(key, list);
  }

  /** Counts one event unless `key` is already at the limit; false (nothing counted) when it is. */
  tryRecord(key: string): boolean {
    const list = this.recent(key);
    if (list.length >= this.limit) return false;
    list.push(this.now());
    this.hits.set(key, list);
    return true;
  }

  /** Takes back the latest event of `key` (its outcome turned out not to count). */
  undo(key: string): void {
    const list = this.hits.get(key);
    if (!list) return;
    list.pop();
    if (list.length === 0) this.hits.delete(key);
  }

  private recent(key: string): number[] {
    const t = this.now();
    if (t - this.lastPrune > this.windowMs) this.prune(t);
    return (this.hits.get(key) ?? []).filter((at) => t - at < this.windowMs);
  }

  private prune(t: number): void {
    this.lastPrune = t;
    for (const [key, list] of this.hits) {
      if (!list.some((at) => t - at < this.windowMs)) this.hits.delete(key);
    }
  }
}

/** Keys locked until a time (in memory, per server instance): a meeting's password entry, an address. */
export class Lockout {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly lockMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long `key` stays locked (0 when it is not). */
  remainingMs(key: string): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.until.delete(key);
    return 0;
  }

  lock(key: string): void {
    const t = this.now();
    for (const [k, until] of this.until) if (until <= t) this.until.delete(k);
    this.until.set(key, t + this.lockMs);
  }
}
