/**
 * Counts events per key in a sliding window (in memory, per server instance): used to refuse
 * password guessing and meeting-id probing. Old keys are pruned as the map is used.
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

  record(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.hits.set(key, list);
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
