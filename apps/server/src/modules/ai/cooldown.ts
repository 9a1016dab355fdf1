import type { SharedState } from '../../providers/bus/index.js';

/**
 * One summary per key per `SUMMARY_COOLDOWN_MS`, on whichever instance (each summary reads the
 * whole meeting; per-user budgets alone let several Pro participants queue summaries of the same
 * long meeting). The AI service keys the host's saved summary by the meeting and everyone else's
 * together by the meeting + `:others`. Claimed when a summary starts; a summary that found
 * nothing to read gives its claim back.
 */
export const SUMMARY_COOLDOWN_MS = 30_000;

export interface SummaryCooldown {
  /** 0 when the meeting's summary may start now (and the cooldown starts); else ms to wait. */
  claim(meetingId: string): Promise<number>;
  release(meetingId: string): Promise<void>;
}

/** This instance's cooldowns (no REDIS_URL). */
export function createMemoryCooldown(
  ms = SUMMARY_COOLDOWN_MS,
  now: () => number = Date.now,
): SummaryCooldown {
  const until = new Map<string, number>();
  return {
    async claim(meetingId) {
      const t = now();
      for (const [k, end] of until) if (end <= t) until.delete(k);
      const end = until.get(meetingId);
      if (end !== undefined && end > t) return end - t;
      until.set(meetingId, t + ms);
      return 0;
    },
    async release(meetingId) {
      until.delete(meetingId);
    },
  };
}

/** Cooldowns every instance sees (REDIS_URL): a key holding its end, expiring with it. */
export function createSharedCooldown(
  shared: SharedState,
  ms = SUMMARY_COOLDOWN_MS,
  now: () => number = Date.now,
): SummaryCooldown {
  const keyOf = (id: string) => `parley:summary-cooldown:${id}`;
  return {
    async claim(meetingId) {
      const end = now() + ms;
      if (await shared.setIfAbsent(keyOf(meetingId), String(end), ms)) return 0;
      const held = Number(await shared.get(keyOf(meetingId)));
      // Expired between the two calls: the next click goes through.
      return Number.isFinite(held) && held > now() ? held - now() : 1;
    },
    release: (meetingId) => shared.del(keyOf(meetingId)),
  };
}
