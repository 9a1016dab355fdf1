import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type SharedState } from '../../providers/bus/index.js';
import { chatMarkKey, createMemoryChatMarks, createSharedChatMarks } from './marks.js';

const redisReachable = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

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

  describe.skipIf(!redisReachable && process.env.CI !== 'true')('shared through Redis', () => {
    // Two connections, as two server instances would have.
    let a: SharedState;
    let b: SharedState;
    beforeAll(async () => {
      const log = pino({ level: 'silent' });
      a = await createRedisSharedState('redis://127.0.0.1:6379', log);
      b = await createRedisSharedState('redis://127.0.0.1:6379', log);
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
