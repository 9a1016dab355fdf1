import { describe, expect, it } from 'vitest';
import type { SourceLine } from '../../providers/summaries/types.js';
import { createMemoryCooldown } from './cooldown.js';
import { boundSummaryInput } from './summary-input.js';

const line = (i: number, kind: SourceLine['kind'], text = `line ${i}`): SourceLine => ({
  id: String(i),
  speaker: kind === 'chat' ? 'Guest' : 'Host',
  text,
  at: new Date(Date.UTC(2026, 10, 23, 9, 0, i)).toISOString(),
  kind,
});

describe('what a summary reads', () => {
  it('reads a whole ordinary meeting as it was said', () => {
    const sources = [line(0, 'speech'), line(1, 'chat'), line(2, 'speech')];
    expect(boundSummaryInput(sources)).toEqual({ lines: sources, skipped: 0 });
  });

  it('cuts a long line at a word, and keeps the transcript before a chat flood', () => {
    const flood = Array.from({ length: 50 }, (_, i) => line(100 + i, 'chat', 'word '.repeat(400)));
    const talk = Array.from({ length: 10 }, (_, i) => line(i, 'speech'));
    const { lines, skipped } = boundSummaryInput([...talk, ...flood], {
      maxLines: 20,
      maxLineChars: 100,
      maxChars: 1_000,
    });
    expect(lines.filter((l) => l.kind === 'speech')).toEqual(talk);
    const chat = lines.filter((l) => l.kind === 'chat');
    expect(chat.every((l) => l.text.length <= 100 && l.text.endsWith('word…'))).toBe(true);
    // The latest chat fills what is left; the order is the meeting's.
    expect(chat.at(-1)!.id).toBe('149');
    expect(lines.map((l) => Number(l.id))).toEqual([...lines.map((l) => Number(l.id))].sort((a, b) => a - b));
    expect(skipped).toBe(60 - lines.length);
    expect(lines.reduce((n, l) => n + l.text.length, 0)).toBeLessThanOrEqual(1_000);
  });
});

describe('the summary cooldown', () => {
  it('lets one summary of a meeting start per cooldown, and gives a claim back', async () => {
    let now = 0;
    const cooldown = createMemoryCooldown(30_000, () => now);
    expect(await cooldown.claim('m1')).toBe(0);
    now = 10_000;
    expect(await cooldown.claim('m1')).toBe(20_000);
    expect(await cooldown.claim('m2')).toBe(0);
    await cooldown.release('m2');
    expect(await cooldown.claim('m2')).toBe(0);
    now = 30_000;
    expect(await cooldown.claim('m1')).toBe(0);
  });
});
