/// <reference lib="webworker" />
/**
 * A metronome in a worker: timers in a page's main thread are throttled to once a second when the
 * tab is in the background, which would freeze the video others receive; a worker's are not.
 */
let timer: ReturnType<typeof setInterval> | null = null;
self.onmessage = (e: MessageEvent<{ intervalMs: number } | 'stop'>) => {
  if (timer) clearInterval(timer);
  timer = null;
  if (e.data === 'stop') return;
  timer = setInterval(() => self.postMessage('tick'), e.data.intervalMs);
};
