import type * as Constants from '@parley/protocol/constants';
import type { Feature } from '@parley/protocol/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as renderPlain, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PlanCard } from './PlanCard';

/** The card under a query client; the server's feature list is not asked here (the build's flags stand). */
const render = (ui: ReactElement) => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new Error('offline'))),
  );
  return renderPlain(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);
};

// The flags the components read, replaced by a copy each test sets.
const flags = vi.hoisted(() => ({
  live: {} as Record<string, boolean>,
  committed: {} as Record<string, boolean>,
}));
vi.mock('@parley/protocol/constants', async (importOriginal) => {
  const actual = await importOriginal<typeof Constants>();
  Object.assign(flags.committed, actual.FEATURE_AVAILABILITY);
  Object.assign(flags.live, actual.FEATURE_AVAILABILITY);
  return { ...actual, FEATURE_AVAILABILITY: flags.live };
});

function setAll(on: boolean, except: Partial<Record<Feature, boolean>> = {}) {
  for (const key of Object.keys(flags.committed)) flags.live[key] = on;
  Object.assign(flags.live, except);
}

const SOON = /coming soon/i;

/** The Pro plan's lines and the flags each needs (empty: built today). */
const PLAN_LINES: [string, Feature[]][] = [
  ['Live transcription of every speaker', ['transcription']],
  ['Live translation with cultural context', ['translation']],
  ['AI meeting summaries with action items and decisions', ['summaries']],
  ['Unlimited meeting duration', []],
  ['Up to 100 participants', ['largeMeetings']],
  ['PDF export and meeting analytics', ['pdfExport', 'analytics']],
];

function line(text: string): HTMLElement {
  const item = within(screen.getByTestId('plan-card'))
    .getAllByRole('listitem')
    .find((li) => li.textContent?.startsWith(text));
  if (!item) throw new Error(`no plan line ${text}`);
  return item;
}

function soonOn(el: HTMLElement): boolean {
  return within(el).queryByText(SOON) !== null;
}

describe('PlanCard', () => {
  beforeEach(() => setAll(false));

  it('lists every line of the plan, with "Coming soon" exactly beside the unbuilt ones', () => {
    render(<PlanCard />);
    expect(within(screen.getByTestId('plan-card')).getAllByRole('listitem')).toHaveLength(PLAN_LINES.length);
    for (const [text, needs] of PLAN_LINES) expect(soonOn(line(text)), text).toBe(needs.length > 0);
    expect(line('Up to 100 participants')).toHaveTextContent(
      'Meetings of three or more already run through our video server; larger meetings are still being tested.',
    );
  });

  it('follows the committed flags', () => {
    Object.assign(flags.live, flags.committed);
    render(<PlanCard />);
    for (const [text, needs] of PLAN_LINES)
      expect(soonOn(line(text)), text).toBe(needs.some((f) => !flags.committed[f]));
  });

  it('says in one plain line that the AI features are still in development, beside the price', () => {
    render(<PlanCard />);
    const card = screen.getByTestId('plan-card');
    expect(card).toHaveTextContent('$9.99');
    expect(within(card).getByTestId('ai-in-development')).toHaveTextContent(
      'Live transcription, live translation and AI summaries are still in development. Today Pro lets you create and schedule meetings.',
    );
  });

  it('keeps a line marked while any of its features is missing, and drops every mark once all work', () => {
    setAll(false, { pdfExport: true });
    const { unmount } = render(<PlanCard />);
    expect(soonOn(line('PDF export and meeting analytics'))).toBe(true);
    unmount();

    setAll(true);
    render(<PlanCard />);
    expect(screen.queryAllByText(SOON)).toEqual([]);
    expect(screen.queryByTestId('ai-in-development')).toBeNull();
    expect(
      screen.queryByText(
        'Meetings of three or more already run through our video server; larger meetings are still being tested.',
      ),
    ).toBeNull();
  });
});
