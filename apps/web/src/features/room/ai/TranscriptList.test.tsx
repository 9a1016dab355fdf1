import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InterimEntry, TranscriptEntry } from './captions';
import { TranscriptList } from './TranscriptList';

const line = (id: string, text: string, at: string): TranscriptEntry => ({
  id,
  speakerName: 'Ann',
  originalText: text,
  translatedText: null,
  timestamp: at,
  language: 'en',
});

describe('TranscriptList', () => {
  it('lists lines oldest first, like a chat, with the words being spoken now after them', () => {
    const interim: InterimEntry[] = [
      {
        segmentId: 's.3',
        participantId: 'b',
        speakerName: 'Bob',
        text: 'and the budget',
        language: 'en',
        timestamp: '2026-11-23T10:00:20.000Z',
        receivedAt: 0,
      },
    ];
    render(
      <TranscriptList
        active
        lines={[
          line('1', 'The first thing.', '2026-11-23T10:00:01.000Z'),
          line('2', 'The second thing.', '2026-11-23T10:00:09.000Z'),
        ]}
        interim={interim}
      />,
    );
    const texts = screen.getAllByTestId('transcript-original').map((el) => el.textContent);
    expect(texts).toEqual(['The first thing.', 'The second thing.']);
    const now = screen.getByTestId('transcript-interim');
    expect(within(now).getByText('and the budget')).toBeTruthy();
    expect(within(now).getByText('Bob')).toBeTruthy();
    // The interim words come after the last line in the document.
    const last = screen.getAllByTestId('transcript-line').at(-1)!;
    expect(last.compareDocumentPosition(now) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows interim words even before the first line', () => {
    render(
      <TranscriptList
        active
        lines={[]}
        interim={[
          {
            segmentId: 's.1',
            participantId: 'b',
            speakerName: 'Bob',
            text: 'hello every',
            language: 'en',
            timestamp: '2026-11-23T10:00:20.000Z',
            receivedAt: 0,
          },
        ]}
      />,
    );
    expect(screen.queryByText('No transcripts yet')).toBeNull();
    expect(screen.getByTestId('transcript-interim').textContent).toContain('hello every');
  });
});
