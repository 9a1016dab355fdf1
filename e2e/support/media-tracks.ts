import type { BrowserContext, Page } from 'playwright-core';

/**
 * Records every track that getUserMedia and getDisplayMedia hand to the page, so a test can prove
 * the camera, microphone and screen are released (readyState 'ended') after a Leave or after
 * navigating away. Install it on the context (or page) before the page loads.
 */
export async function recordMediaTracks(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    type Recorded = { source: string; track: MediaStreamTrack };
    const w = window as unknown as { __mediaTracks: Recorded[] };
    w.__mediaTracks = [];
    const md = navigator.mediaDevices as MediaDevices | undefined;
    if (!md) return;
    for (const source of ['getUserMedia', 'getDisplayMedia'] as const) {
      const original = md[source] as ((c?: MediaStreamConstraints) => Promise<MediaStream>) | undefined;
      if (typeof original !== 'function') continue;
      Object.defineProperty(md, source, {
        configurable: true,
        value: async (constraints?: MediaStreamConstraints) => {
          const stream = await original.call(md, constraints);
          for (const track of stream.getTracks()) w.__mediaTracks.push({ source, track });
          return stream;
        },
      });
    }
  });
}

export interface RecordedTracks {
  total: number;
  /** Tracks still running, as `source:kind` (e.g. 'getDisplayMedia:video'). */
  live: string[];
}

export async function recordedTracks(page: Page): Promise<RecordedTracks> {
  return page.evaluate(() => {
    const list =
      (window as unknown as { __mediaTracks?: { source: string; track: MediaStreamTrack }[] })
        .__mediaTracks ?? [];
    return {
      total: list.length,
      live: list.filter((r) => r.track.readyState !== 'ended').map((r) => `${r.source}:${r.track.kind}`),
    };
  });
}

/** Waits (up to `timeoutMs`) until every recorded track has ended; answers what was recorded. */
export async function waitMediaReleased(page: Page, timeoutMs = 5000): Promise<RecordedTracks> {
  const deadline = Date.now() + timeoutMs;
  let now = await recordedTracks(page);
  while (now.live.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    now = await recordedTracks(page);
  }
  return now;
}
