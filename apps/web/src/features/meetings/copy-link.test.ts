import { COPIED_NOTICE_MS } from '@parley/protocol/constants';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCopyMeetingLink } from './copy-link';

function mockClipboard(writeText: (t: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('useCopyMeetingLink', () => {
  it('copies the meeting link and shows the notice for the spec time, restarted by a second copy', async () => {
    expect(COPIED_NOTICE_MS).toBe(2000); // spec §9: "Copied-link notice | 2 s"
    vi.useFakeTimers();
    const writeText = vi.fn(() => Promise.resolve());
    mockClipboard(writeText);
    const { result } = renderHook(() => useCopyMeetingLink('123-456-789'));
    await act(async () => {
      await expect(result.current.copy()).resolves.toBe(true);
    });
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/meeting/123-456-789`);
    expect(result.current.copied).toBe(true);
    act(() => vi.advanceTimersByTime(COPIED_NOTICE_MS - 500));
    await act(async () => {
      await result.current.copy();
    });
    act(() => vi.advanceTimersByTime(COPIED_NOTICE_MS - 500));
    expect(result.current.copied).toBe(true);
    act(() => vi.advanceTimersByTime(500));
    expect(result.current.copied).toBe(false);
  });

  it('answers false when the clipboard refuses, without a notice', async () => {
    mockClipboard(() => Promise.reject(new Error('denied')));
    const { result } = renderHook(() => useCopyMeetingLink('123-456-789'));
    await act(async () => {
      await expect(result.current.copy()).resolves.toBe(false);
    });
    expect(result.current.copied).toBe(false);
  });
});
