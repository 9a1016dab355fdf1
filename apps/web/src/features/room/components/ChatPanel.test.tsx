import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoomSession } from '../room-session';
import { ChatPanel, textAfterAttachment } from './ChatPanel';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ChatPanel attachments', () => {
  it('sends the caption typed before the file and keeps what was typed during the upload', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((r) => (answer = r))),
    );
    const sendChat = vi.fn();
    const session = { meetingId: '123-456-789', joinToken: 'tok', sendChat } as unknown as RoomSession;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ChatPanel session={session} messages={[]} selfId="p1" />
      </QueryClientProvider>,
    );
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'the slides');
    await userEvent.upload(screen.getByTestId('chat-file-input'), new File(['x'], 'slides.pdf'));
    await userEvent.type(box, ' and a question');
    await act(async () =>
      answer(
        new Response(
          JSON.stringify({ id: 'f1', name: 'slides.pdf', size: 1, mimeType: 'application/pdf', url: '/f' }),
          {
            headers: { 'content-type': 'application/json' },
          },
        ),
      ),
    );
    await vi.waitFor(() => expect(sendChat).toHaveBeenCalledWith('the slides', 'f1'));
    expect(box).toHaveValue('and a question');
  });

  it('removes only the caption from the input', () => {
    expect(textAfterAttachment('hello', 'hello')).toBe('');
    expect(textAfterAttachment('hello world', 'hello')).toBe('world');
    expect(textAfterAttachment('rewritten', 'hello')).toBe('rewritten');
    expect(textAfterAttachment('typed later', '')).toBe('typed later');
  });
});
