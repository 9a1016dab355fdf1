import { describe, expect, it } from 'vitest';
import { COLLABORATION_LIMITS, clientMessageSchema } from './ws.js';

const update = (data: Record<string, unknown>) =>
  clientMessageSchema.safeParse({ type: 'collaboration_update', data });

describe('collaboration_update bounds', () => {
  it('counts its size in UTF-8 bytes, not characters', () => {
    // 'é' is 2 bytes in UTF-8: a string of maxBytes/2 of them is over the limit with its quotes.
    const half = 'é'.repeat(COLLABORATION_LIMITS.maxBytes / 2);
    expect(update({ text: half }).success).toBe(false);
    expect(update({ text: 'é'.repeat(COLLABORATION_LIMITS.maxBytes / 2 - 20) }).success).toBe(true);
    // '😀' is 4 bytes (a surrogate pair of 2 UTF-16 units).
    expect(update({ text: '😀'.repeat(COLLABORATION_LIMITS.maxBytes / 4) }).success).toBe(false);
  });

  it('refuses nesting deeper than the limit', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < COLLABORATION_LIMITS.maxDepth + 1; i++) deep = { d: deep };
    expect(update(deep).success).toBe(false);
    expect(update({ a: { b: { c: 1 } } }).success).toBe(true);
  });
});
