import { describe, expect, it } from 'vitest';
import { firstOf, summaryFileName, summaryText } from './summary-text';

describe('summary download (spec §9)', () => {
  it('names the file meeting-summary-{meetingId}-{date}.txt', () => {
    expect(summaryFileName('123-456-789', new Date('2026-11-23T15:00:00Z'))).toBe(
      'meeting-summary-123-456-789-2026-11-23.txt',
    );
  });

  it('has the four sections, None when empty, owners and due dates on action items', () => {
    const text = summaryText({
      summary: 'We planned the launch.',
      keyPoints: [{ text: 'Launch moves to March', sources: ['1'] }],
      actionItems: [{ text: 'Send the deck', owner: 'Luis', due: '2026-11-27', sources: ['2'] }],
      decisions: [],
    });
    expect(text).toBe(
      [
        'Overview',
        'We planned the launch.',
        '',
        'Key Points',
        '- Launch moves to March',
        '',
        'Action Items',
        '- Send the deck (owner: Luis, due 2026-11-27)',
        '',
        'Decisions',
        'None',
        '',
      ].join('\n'),
    );
  });

  it('shows the first n and counts the rest', () => {
    expect(firstOf([1, 2, 3, 4, 5], 3)).toEqual({ shown: [1, 2, 3], more: 2 });
    expect(firstOf([1], 2)).toEqual({ shown: [1], more: 0 });
  });
});
