import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisReachable, redisRequired } from '../../../test/instances.js';
import { createRedisSharedState, type SharedState } from '../../providers/bus/index.js';
import { chatMarkKey, createMemoryChatMarks, createSharedChatMarks } from './marks.js';

describe('chat duplicate marks', () => {
  it('tell one message from another by room, sender, text and file', () => {
    const k = chatMarkKey('room', 'ann', 'hello', undefined);
    expect(chatMarkKey('room', 'ann', 'hello', undefined)).toBe(k);
    expect(chatMarkKey('room', 'bob', 'hello', undefined)).not.toBe(k);
    expect(chatMarkKey('room2', 'ann', 'hello', undefined)).not.toBe(k);
    expect(chatMarkKey('room', 'ann', 'hello!', undefined)).not.toBe(k);
    expect(chatMarkKey('room', 'ann', 'hello', 'file-1')).not.toBe(k);
  });

  it('in memory: a claim holds for its window, and a released one can be claimed again', async () => {
    let t = 1000;
    const marks = createMemoryChatMarks(() => t);
    expect(await marks.claim('a', 1000)).toBe(true);
    expect(await marks.claim('a', 1000)).toBe(false);
    expect(await marks.claim('b', 1000)).toBe(true);
    t += 999;
    expect(await marks.claim('a', 1000)).toBe(false);
    t += 1;
    expect(await marks.claim('a', 1000)).toBe(true);
    await marks.release('a');
    expect(await marks.claim('a', 1000)).toBe(true);
  });

  describe.skipIf(!redisReachable && !redisRequired)('shared through Redis', () => {
    // Two connections, as two server instances would have.
    let a: SharedState;
    let b: SharedState;
    beforeAll(async () => {
      const log = pino({ level: 'silent' });
      a = await createRedisSharedState(REDIS_URL, log);
      b = await createRedisSharedState(REDIS_URL, log);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('a message taken on one instance is a duplicate on the other until its window ends', async () => {
      const key = `marks-test-${Math.random()}`;
      const onA = createSharedChatMarks(a);
      const onB = createSharedChatMarks(b);
      expect(await onA.claim(key, 300)).toBe(true);
      expect(await onB.claim(key, 300)).toBe(false);
      await new Promise((r) => setTimeout(r, 350));
      expect(await onB.claim(key, 300)).toBe(true);
      await onB.release(key);
      expect(await onA.claim(key, 300)).toBe(true);
      await onA.release(key);
    });
  });
});
