import { createHash } from 'node:crypto';
import type { SharedState } from '../../providers/bus/index.js';

/**
 * The chat's duplicate marks: a message (its sender, text and file) is taken once within the
 * duplicate window, on whichever instance it arrives. Kept apart from the room's state, so that a
 * chat message takes no room lock: with Redis it costs one `SET NX PX` instead of the lock, a
 * read and a write of the whole room (measured by bench/chat-load.ts: 9.2 Redis commands per
 * chat message with the mark in the room, the lock's retries in the latency tail).
 */
export interface ChatMarks {
  /** True the first time `key` is claimed within `windowMs`; false for a duplicate. */
  claim(key: string, windowMs: number): Promise<boolean>;
  /** Forgets a claim (the message was refused, so sending it again is no duplicate). */
  release(key: string): Promise<void>;
}

/** The mark of one message: who sent what (and which file) in which room. */
export function chatMarkKey(
  roomId: string,
  senderId: string,
  content: string,
  fileId: string | undefined,
): string {
  const digest = createHash('sha256')
    .update(`${content}\u0000${fileId ?? ''}`)
    .digest('base64url');
  return `${roomId}:${senderId}:${digest}`;
}

/** This instance's marks (no REDIS_URL: one instance holds every room). */
export function createMemoryChatMarks(now: () => number = Date.now): ChatMarks {
  const until = new Map<string, number>();
  let claims = 0;
  return {
    async claim(key, windowMs) {
      const t = now();
      // Expired marks go every 256 claims, so the map holds about a window's worth of messages.
      if (++claims % 256 === 0) for (const [k, end] of until) if (end <= t) until.delete(k);
      const end = until.get(key);
      if (end !== undefined && end > t) return false;
      until.set(key, t + windowMs);
      return true;
    },
    async release(key) {
      until.delete(key);
    },
  };
}

/** Marks every instance sees (REDIS_URL): a key with the window as its expiry. */
export function createSharedChatMarks(shared: SharedState): ChatMarks {
  const keyOf = (key: string) => `parley:chatmark:${key}`;
  return {
    claim: (key, windowMs) => shared.setIfAbsent(keyOf(key), '1', windowMs),
    release: (key) => shared.del(keyOf(key)),
  };
}
