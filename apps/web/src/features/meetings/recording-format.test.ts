import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from './recording-format';

describe('recording figures on My Meetings', () => {
  it('shows lengths as m:ss, and h:mm:ss past an hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65.4)).toBe('1:05');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
  it('shows sizes in KB, MB and GB', () => {
    expect(formatBytes(300)).toBe('1 KB');
    expect(formatBytes(840 * 1024)).toBe('840 KB');
    expect(formatBytes(12.34 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatBytes(2.5 * 1024 ** 3)).toBe('2.50 GB');
  });
});
