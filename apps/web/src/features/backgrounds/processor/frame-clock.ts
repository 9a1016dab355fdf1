/**
 * Calls `tick` every `intervalMs`, from a worker's timer when workers exist (they keep time in a
 * background tab), else from setInterval. Answers the stop function.
 */
export function startFrameClock(intervalMs: number, tick: () => void): () => void {
  if (typeof Worker !== 'undefined') {
    try {
      const worker = new Worker(new URL('./clock-worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = () => tick();
      worker.postMessage({ intervalMs });
      return () => worker.terminate();
    } catch {
      // A browser that refuses module workers: the page's own timer is second best.
    }
  }
  const id = setInterval(tick, intervalMs);
  return () => clearInterval(id);
}
