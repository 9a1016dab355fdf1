import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RoomProvider } from '../room-context';
import { participant } from '../testing/fakes';
import { enterTestRoom } from '../testing/room-harness';
import { SummaryCard } from './SummaryCard';

type Room = Awaited<ReturnType<typeof enterTestRoom>>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Generate Summary against a server that answers POST with `answer` (GET: none saved yet). */
async function generateAgainst(room: Room, answer: Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init?: RequestInit) =>
      Promise.resolve(init?.method === 'POST' ? answer : json(404, { message: 'No summary yet' })),
    ),
  );
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <RoomProvider controller={room.controller} session={room.session} isPro>
          <SummaryCard />
        </RoomProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Generate Summary' }));
  return screen.findByRole('alert');
}

describe('the Meeting Summarizer says why a summary did not come', () => {
  let room: Room | null = null;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => {
    room?.controller.stop();
    room = null;
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('nothing said yet: the spec’s alert', async () => {
    room = await enterTestRoom(participant('h1', 'Hana', { isHost: true }));
    const alert = await generateAgainst(room, json(422, { message: 'Nothing to summarize yet' }));
    expect(alert).toHaveTextContent('Please start recording and have some conversation first.');
  });

  it('a cooldown or a summariser that gave up: the server’s own words', async () => {
    room = await enterTestRoom(participant('h1', 'Hana', { isHost: true }));
    const wait = 'A summary of this meeting was just made. You can make a new one in 27 seconds.';
    const alert = await generateAgainst(room, json(429, { message: wait }));
    expect(alert).toHaveTextContent(wait);
    expect(alert).not.toHaveTextContent('conversation first');
  });
});
