import { describe, expect, it } from 'vitest';
import { formatDuration, percentOf } from './format';

describe('report formats', () => {
  it('writes durations as h:mm:ss or m:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(75_000)).toBe('1:15');
    expect(formatDuration(5_000_000)).toBe('1:23:20');
    expect(formatDuration(22_400)).toBe('0:22');
  });
  it('writes shares as whole percentages', () => {
    expect(percentOf(1, 3)).toBe('33%');
    expect(percentOf(5, 0)).toBe('—');
  });
});
