import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/queryClient';
import { useUser } from './api';
import { useLandingAuthEffects } from './useLandingAuthEffects';

function Landing() {
  useLandingAuthEffects();
  const { user, isLoading } = useUser();
  const location = useLocation();
  return (
    <div>
      <span data-testid="search">{location.search}</span>
      <span data-testid="who">{isLoading ? 'loading' : (user?.firstName ?? 'nobody')}</span>
    </div>
  );
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/', element: <Landing /> }], { initialEntries: [url] });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

function answerUser(user: object | null) {
  const fetchMock = vi.fn(async (url: string) =>
    url === '/api/auth/user' && user
      ? new Response(JSON.stringify(user), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ message: 'Please log in' }), { status: 401 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('useLandingAuthEffects', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refreshes the user on login=success and removes it from the address', async () => {
    const fetchMock = answerUser({ id: 'u1', email: 'a@example.com', firstName: 'Ann', lastName: null });
    renderAt('/?login=success&x=1');
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('Ann'));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?x=1'));
    // The user is asked for again 100 ms after the page loads.
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => u === '/api/auth/user').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('clears the stored user data and session storage when nobody is signed in', async () => {
    answerUser(null);
    localStorage.setItem('meeting-data', '{"id":1}');
    localStorage.setItem('ai-settings', 'on');
    localStorage.setItem('parley-theme', 'dark');
    sessionStorage.setItem('meeting-session-123', 'abc');
    renderAt('/');
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('nobody'));
    await waitFor(() => expect(localStorage.getItem('meeting-data')).toBeNull());
    expect(localStorage.getItem('ai-settings')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    // The theme is not user data: it stays.
    expect(localStorage.getItem('parley-theme')).toBe('dark');
  });

  it('keeps stored data for a signed-in user', async () => {
    answerUser({ id: 'u2', email: 'b@example.com', firstName: 'Bo', lastName: null });
    localStorage.setItem('meeting-data', 'keep');
    sessionStorage.setItem('meeting-session-1', 'keep');
    renderAt('/');
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('Bo'));
    await new Promise((r) => setTimeout(r, 150));
    expect(localStorage.getItem('meeting-data')).toBe('keep');
    expect(sessionStorage.getItem('meeting-session-1')).toBe('keep');
  });
});
