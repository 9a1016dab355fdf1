import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundPanel } from './BackgroundPanel';
import { NO_EFFECT, type BackgroundChoice } from './effect';

afterEach(() => vi.unstubAllGlobals());

/** Radix's slider measures itself; jsdom has no ResizeObserver. */
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const CATALOGUE = [
  { id: 'office-loft', name: 'Bright Loft', category: 'office', isPremium: false },
  { id: 'meeting-room', name: 'Glass Meeting Room', category: 'office', isPremium: true },
  { id: 'mountain-lake', name: 'Mountain Lake', category: 'nature', isPremium: false },
  { id: 'low-poly', name: 'Low Poly', category: 'abstract', isPremium: false },
].map((b) => ({
  ...b,
  thumbnailUrl: `/api/backgrounds/${b.id}/thumbnail`,
  imageUrl: `/api/backgrounds/${b.id}/image`,
}));

function setup(value: BackgroundChoice = NO_EFFECT) {
  let answer!: (r: Response) => void;
  vi.stubGlobal('ResizeObserver', NoResizeObserver);
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>((r) => (answer = r))),
  );
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <BackgroundPanel value={value} onChange={onChange} signedIn={false} isPro={false} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const respond = () =>
    act(async () =>
      answer(new Response(JSON.stringify(CATALOGUE), { headers: { 'content-type': 'application/json' } })),
    );
  return { onChange, respond };
}

describe('BackgroundPanel', () => {
  it('offers None, Blur and Virtual, with the current effect in a badge', () => {
    const { onChange } = setup();
    expect(screen.getByTestId('effect-badge')).toHaveTextContent('None');
    expect(screen.getByRole('button', { name: 'None' })).toHaveAttribute('aria-pressed', 'true');
    void userEvent.click(screen.getByRole('button', { name: 'Blur' }));
    return vi.waitFor(() => expect(onChange).toHaveBeenCalledWith({ ...NO_EFFECT, type: 'blur' }));
  });

  it("shows the 'Subtle' to 'Strong' slider while Blur is on", () => {
    setup({ ...NO_EFFECT, type: 'blur', blurIntensity: 7 });
    expect(screen.getByText('Subtle')).toBeInTheDocument();
    expect(screen.getByText('Strong')).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Blur intensity' })).toHaveAttribute('aria-valuenow', '7');
    expect(screen.getByTestId('effect-badge')).toHaveTextContent('Blur 7');
  });

  it('opens Virtual Backgrounds: eight placeholders while loading, then tabs, names and premium marks', async () => {
    const { onChange, respond } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Virtual' }));
    const dialog = screen.getByRole('dialog', { name: 'Virtual Backgrounds' });
    expect(within(dialog).getAllByTestId('background-placeholder')).toHaveLength(8);
    await respond();
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['All', 'Office', 'Nature', 'Abstract']);
    expect(await within(dialog).findAllByTestId('background-tile')).toHaveLength(4);
    expect(within(dialog).getByText('Mountain Lake')).toBeInTheDocument();
    expect(within(dialog).getAllByTestId('premium-mark')).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Nature' }));
    expect(
      within(dialog)
        .getAllByTestId('background-tile')
        .map((t) => t.textContent),
    ).toEqual(['Mountain Lake']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mountain Lake' }));
    expect(onChange).toHaveBeenCalledWith({ ...NO_EFFECT, type: 'virtual', backgroundId: 'mountain-lake' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
