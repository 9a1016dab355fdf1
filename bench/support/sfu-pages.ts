import type { Page } from 'playwright-core';

/** What the benchmarks read from a room page on the SFU (through the app's `window.__parley`). */

/** Every remote video this page receives through the SFU: frames decoded, width, bytes. */
export function inboundVideo(
  page: Page,
): Promise<{ mid: string; frames: number; width: number; bytes: number }[]> {
  return page.evaluate(async () => {
    const sub = window.__parley?.sfu?.()?.subscriber;
    const out: { mid: string; frames: number; width: number; bytes: number }[] = [];
    if (!sub) return out;
    (await sub.getStats()).forEach(
      (s: {
        type: string;
        kind?: string;
        mid?: string;
        framesDecoded?: number;
        frameWidth?: number;
        bytesReceived?: number;
      }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video')
          out.push({
            mid: s.mid ?? '?',
            frames: s.framesDecoded ?? 0,
            width: s.frameWidth ?? 0,
            bytes: s.bytesReceived ?? 0,
          });
      },
    );
    return out;
  });
}

/** Waits until every page shows a decoded frame in `n` remote tiles. */
export async function waitRemoteFrames(pages: Page[], n: number): Promise<void> {
  await Promise.all(
    pages.map((page) =>
      page.waitForFunction(
        (count) =>
          [...document.querySelectorAll<HTMLVideoElement>('[data-testid="remote-tile"] video')].filter(
            (v) => v.readyState >= 2 && v.videoWidth > 0,
          ).length >= count,
        n,
        { timeout: 30_000, polling: 200 },
      ),
    ),
  );
}
