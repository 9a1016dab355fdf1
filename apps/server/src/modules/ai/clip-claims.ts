import { randomUUID } from 'node:crypto';
import type { SharedState } from '../../providers/bus/index.js';

/**
 * One clip transcription at a time per user, on whichever instance (security review, issue 34
 * item 2: six parallel uploads of one account took every speech decoder). Claimed before the
 * upload is read, given back when the answer is sent or the caller went away.
 */
export interface ClipClaims {
  /** A release function when the user had no clip in flight; null when one is. */
  claim(userId: string): Promise<(() => Promise<void>) | null>;
}

/**
 * A claim left behind by an instance that died expires after this (longer than a clip can take:
 * the 60 s decode budget, the wait for a decoder and a 10-minute clip at real-time factor 0.4).
 */
export const CLIP_CLAIM_TTL_MS = 15 * 60_000;

export function createMemoryClipClaims(): ClipClaims {
  const held = new Set<string>();
  return {
    async claim(userId) {
      if (held.has(userId)) return null;
      held.add(userId);
      return async () => {
        held.delete(userId);
      };
    },
  };
}

/** REDIS_URL: a key per user, deleted only by the claim that set it. */
export function createSharedClipClaims(shared: SharedState, ttlMs = CLIP_CLAIM_TTL_MS): ClipClaims {
  const keyOf = (id: string) => `parley:clip-claim:${id}`;
  return {
    async claim(userId) {
      const token = randomUUID();
      if (!(await shared.setIfAbsent(keyOf(userId), token, ttlMs))) return null;
      return async () => {
        if ((await shared.get(keyOf(userId))) === token) await shared.del(keyOf(userId));
      };
    },
  };
}
