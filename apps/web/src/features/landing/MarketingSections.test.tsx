import type * as Constants from '@parley/protocol/constants';
import type { Feature } from '@parley/protocol/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AiMarketing, FeatureSection, SuperchargePromo } from './MarketingSections';

// The flags the components read, replaced by a copy each test sets (the committed values first).
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

/** Each landing feature card and the flag it needs (null: built today). */
const FEATURE_CARDS: [string, Feature | null][] = [
  ['Live transcription', 'transcription'],
  ['Automatic meeting summaries', 'summaries'],
  ['Action-item extraction', 'summaries'],
  ['Translation with cultural context', 'translation'],
  ['Analytics', 'analytics'],
  ['PDF export', 'pdfExport'],
  ['Background effects', 'backgroundEffects'],
  ['Chat, whiteboard and files', 'whiteboard'],
  ['Screen sharing', null],
];
const PROMO_ITEMS: [string, Feature | null][] = [
  ['Live transcription', 'transcription'],
  ['AI translation', 'translation'],
  ['Summaries with action items', 'summaries'],
  ['30-day money-back guarantee', null],
];
const AI_ITEMS: [string, Feature | null][] = [
  ['Per-speaker live transcripts', 'transcription'],
  ['Live translation into 12 languages', 'translation'],
  ['Summaries, action items and decisions', 'summaries'],
  ['Download or export as PDF', 'pdfExport'],
];

/** What GET /api/ai/capabilities says of the running engine's measured accuracy. */
let wordAccuracy: { percent: number; measuredOn: string } | null = null;

/** What GET /api/features says this server does (null: it did not answer). */
let serverFeatures: { features: Record<string, boolean>; translationLanguages: string[] } | null = null;

function renderSections() {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/features')
          ? serverFeatures
            ? new Response(JSON.stringify(serverFeatures), {
                headers: { 'content-type': 'application/json' },
              })
            : new Response('{"message":"down"}', {
                status: 503,
                headers: { 'content-type': 'application/json' },
              })
          : new Response(
              JSON.stringify({
                transcription: { engine: wordAccuracy ? 'pocketsphinx' : null, languages: [], wordAccuracy },
                translation: { engine: null, targets: [] },
                summaries: { engine: 'embedded' },
              }),
              { headers: { 'content-type': 'application/json' } },
            ),
      ),
    ),
  );
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <FeatureSection />
        <SuperchargePromo />
        <AiMarketing />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The feature card with this heading (the heading's own text, without its badge). */
function featureCard(title: string): HTMLElement {
  const card = screen
    .getAllByTestId('feature')
    .find((c) => within(c).getByRole('heading', { level: 3 }).firstChild?.textContent === title);
  if (!card) throw new Error(`no feature card ${title}`);
  return card;
}

function listItem(list: string, text: string): HTMLElement {
  const item = within(screen.getByTestId(list))
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(text));
  if (!item) throw new Error(`no item ${text} in ${list}`);
  return item;
}

function expectSoon(el: HTMLElement, soon: boolean, what: string) {
  if (soon) expect(within(el).getByText(SOON), what).toBeVisible();
  else expect(within(el).queryByText(SOON), what).toBeNull();
}

describe('landing marketing sections', () => {
  beforeEach(() => setAll(false));

  it('the committed flags: nothing the page lists is called built unless its flag says so', () => {
    Object.assign(flags.live, flags.committed);
    renderSections();
    for (const [title, feature] of FEATURE_CARDS)
      expectSoon(featureCard(title), feature !== null && !flags.committed[feature], title);
  });

  it('with nothing built, puts "Coming soon" beside every unbuilt feature and none beside what works', () => {
    renderSections();
    for (const [title, feature] of FEATURE_CARDS) expectSoon(featureCard(title), feature !== null, title);
    expect(
      within(featureCard('Chat, whiteboard and files')).getByText('Whiteboard coming soon'),
    ).toBeVisible();
    for (const [text, feature] of PROMO_ITEMS)
      expectSoon(listItem('promo-features', text), feature !== null, text);
    for (const [text, feature] of AI_ITEMS) expectSoon(listItem('ai-features', text), feature !== null, text);
    expect(screen.getByRole('heading', { name: /Your AI meeting assistant/ })).toHaveTextContent(SOON);
  });

  it('where Pro is sold, says plainly that the AI features are still in development', () => {
    renderSections();
    const promo = screen.getByRole('region', { name: 'Supercharge your meetings with AI' });
    expect(within(promo).getByTestId('ai-in-development')).toHaveTextContent(
      'Live transcription, live translation and AI summaries are still in development. Today Pro lets you create and schedule meetings.',
    );
    expect(promo).toHaveTextContent(
      'Unlimited meeting time. Coming soon: live transcription, translation and summaries with action items and decisions; meetings of up to 100 participants.',
    );
    expect(within(promo).getByRole('link', { name: /Unlock AI Features/ })).toHaveAttribute(
      'href',
      '/subscribe',
    );
  });

  it('with every flag flipped, shows no "Coming soon" and no development note', () => {
    setAll(true);
    const { container } = renderSections();
    expect(screen.queryAllByText(SOON)).toEqual([]);
    expect(screen.queryByTestId('ai-in-development')).toBeNull();
    expect(container).toHaveTextContent(
      'Live transcription, translation and summaries with action items and decisions, unlimited meeting time and up to 100 participants.',
    );
    expect(container).toHaveTextContent('Parley listens so you can take part.');
  });

  it('flipping one flag removes only that feature’s badge', () => {
    setAll(false, { transcription: true });
    renderSections();
    expectSoon(featureCard('Live transcription'), false, 'Live transcription');
    expectSoon(featureCard('Automatic meeting summaries'), true, 'summaries');
    expectSoon(listItem('ai-features', 'Per-speaker live transcripts'), false, 'transcripts');
    expect(screen.getByTestId('ai-in-development')).toHaveTextContent(
      'Live translation and AI summaries are still in development.',
    );
  });

  it('says what the running server does: no translation there, no promise; its languages counted', async () => {
    Object.assign(flags.live, flags.committed);
    const all = Object.fromEntries(Object.keys(flags.committed).map((k) => [k, flags.committed[k]!]));
    serverFeatures = { features: { ...all, translation: false }, translationLanguages: ['en'] };
    renderSections();
    await vi.waitFor(() =>
      expectSoon(
        listItem('ai-features', 'Live translation into'),
        true,
        'translation on a server without it',
      ),
    );
    expectSoon(listItem('ai-features', 'Per-speaker live transcripts'), false, 'transcription still runs');
    // A server that says nothing leaves the build's word; one that translates into 5 says 5.
    serverFeatures = { features: all, translationLanguages: ['en', 'es', 'fr', 'de', 'it'] };
    const second = renderSections();
    await within(second.container).findByText('Live translation into 5 languages');
    serverFeatures = null;
  });

  it('shows the transcription accuracy measured for the running engine, never the spec’s 99.2%', async () => {
    wordAccuracy = { percent: 73, measuredOn: 'recorded human speech' };
    const { unmount } = renderSections();
    // The dt (for screen readers) and the visible dd both say it.
    await screen.findAllByText('of words transcribed right (measured on recorded human speech)');
    expect(screen.getAllByText('73%').length).toBeGreaterThan(0);
    expect(screen.queryByText('99.2%')).toBeNull();
    unmount();
    // An engine nobody measured (or none): no accuracy figure at all.
    wordAccuracy = null;
    renderSections();
    await screen.findAllByText('efficiency boost');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryAllByText(/transcribed right/)).toEqual([]);
    expect(screen.queryByText('99.2%')).toBeNull();
  });
});
