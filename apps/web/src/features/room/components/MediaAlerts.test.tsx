import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { LocalMedia, LocalMediaSnapshot } from '../media/local-media';
import { MediaAlerts } from './MediaAlerts';

/** A LocalMedia stand-in: the snapshot the alerts read, and a retry the test can watch. */
function fakeMedia(patch: Partial<LocalMediaSnapshot>) {
  let snap = { micError: null, cameraError: null, ...patch } as LocalMediaSnapshot;
  const listeners = new Set<() => void>();
  const media = {
    getSnapshot: () => snap,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    retry: vi.fn(() => Promise.resolve()),
  };
  const update = (p: Partial<LocalMediaSnapshot>) =>
    act(() => {
      snap = { ...snap, ...p };
      listeners.forEach((l) => l());
    });
  return { media: media as unknown as LocalMedia, retry: media.retry, update };
}

const DENIED = 'Microphone access denied. Please allow microphone access in your browser settings.';

describe('MediaAlerts', () => {
  it('shows nothing while camera and microphone work', () => {
    const { media } = fakeMedia({});
    render(<MediaAlerts media={media} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the microphone and camera failures, and Retry asks the devices again', async () => {
    const { media, retry, update } = fakeMedia({
      micError: DENIED,
      cameraError: 'The camera is in use by another application.',
    });
    render(<MediaAlerts media={media} />);
    expect(screen.getByRole('alert', { name: 'Microphone problem' })).toHaveTextContent(DENIED);
    expect(screen.getByRole('alert', { name: 'Camera problem' })).toHaveTextContent(
      'The camera is in use by another application.',
    );
    await userEvent.click(screen.getAllByRole('button', { name: 'Retry' })[0]!);
    expect(retry).toHaveBeenCalledTimes(1);
    update({ micError: null, cameraError: null });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a dismissed alert stays away until a different failure of that device', async () => {
    const { media, update } = fakeMedia({ micError: DENIED });
    render(<MediaAlerts media={media} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the microphone alert' }));
    expect(screen.queryByRole('alert')).toBeNull();
    update({ micError: 'Failed to start recording' });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to start recording');
  });
});
