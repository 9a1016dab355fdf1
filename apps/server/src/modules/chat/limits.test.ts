import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS, createChatLimiter } from './limits.js';

describe('chat limits', () => {
  it('let a participant send a burst, then one message a second, and say how long to wait', () => {
    let now = 0;
    const limiter = createChatLimiter(() => now);
    const { burst } = CHAT_LIMITS.perParticipant.messages;
    for (let i = 0; i < burst; i += 1) expect(limiter.take('m', 'ana', 10)).toBeNull();
    expect(limiter.take('m', 'ana', 10)).toBe(
      'You are sending messages too fast. Wait 1 second and try again.',
    );
    // Someone else in the meeting is not held back by Ana.
    expect(limiter.take('m', 'ben', 10)).toBeNull();
    now = 1_000;
    expect(limiter.take('m', 'ana', 10)).toBeNull();
    expect(limiter.take('m', 'ana', 10)).not.toBeNull();
  });

  it('count characters: a few long messages, then a wait', () => {
    let now = 0;
    const limiter = createChatLimiter(() => now);
    const sent = Array.from({ length: 10 }, () => limiter.take('m', 'ana', 1_800));
    expect(sent.filter((r) => r === null)).toHaveLength(6); // 12,000 characters
    expect(sent.at(-1)).toMatch(/^You are sending messages too fast\. Wait \d+ seconds and try again\.$/);
    now = 9_000;
    expect(limiter.take('m', 'ana', 1_800)).toBeNull();
  });

  it('hold a whole meeting to its budget whoever sends, and only that meeting', () => {
    const limiter = createChatLimiter(() => 0);
    const { burst } = CHAT_LIMITS.perMeeting.messages;
    const results = Array.from({ length: burst + 5 }, (_, i) => limiter.take('m', `guest-${i}`, 5));
    expect(results.filter((r) => r === null)).toHaveLength(burst);
    expect(results.at(-1)).toBe("This meeting's chat is too busy right now. Wait 1 second and try again.");
    expect(limiter.take('other', 'guest-0', 5)).toBeNull();
  });
});
