import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RemoteMedia, RemotePeer } from '../media/remote-media';
import { MEDIA_WAIT_GIVE_UP_MS, RECONNECTING_SHOWN_MS } from '../remote-tile-status';
import { participant } from '../testing/fakes';
import { RemoteTile } from './VideoTiles';

/** The one participant's media path as the tile reads it, moved by the test. */
class FakeRemote {
  connectionState: RTCPeerConnectionState = 'new';
  retry = vi.fn();
  private version = 0;
  private readonly listeners = new Set<() => void>();
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  getVersion = () => this.version;
  peer = (): RemotePeer => ({
    stream: null,
    connectionState: this.connectionState,
    hasVideo: false,
    path: 'mesh',
  });
  set(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.version += 1;
    act(() => this.listeners.forEach((l) => l()));
  }
}

function tile(remote: FakeRemote, extra: Parameters<typeof participant>[2] = {}) {
  return render(
    <RemoteTile remote={remote as unknown as RemoteMedia} participant={participant('p2', 'Bo', extra)} />,
  );
}

describe('RemoteTile', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says "Connecting..." while media is on its way, never "Video off"', () => {
    tile(new FakeRemote());
    expect(screen.getByRole('status').textContent).toContain('Connecting...');
    expect(screen.queryByText('Video off')).toBeNull();
    expect(screen.getByTestId('remote-tile').dataset.status).toBe('connecting');
  });

  it('says "Video off" for a connected participant whose camera is off, and nothing for one whose is on', () => {
    const remote = new FakeRemote();
    remote.connectionState = 'connected';
    const { unmount } = tile(remote, { isVideoOn: false });
    expect(screen.getByText('Video off')).toBeTruthy();
    expect(screen.queryByText('Connecting...')).toBeNull();
    unmount();
    tile(remote);
    expect(screen.queryByText('Video off')).toBeNull();
    expect(screen.queryByText('Connecting...')).toBeNull();
  });

  it('says "Could not connect" with Retry after 15 s without media; Retry tries again and waits anew', () => {
    const remote = new FakeRemote();
    tile(remote);
    act(() => vi.advanceTimersByTime(MEDIA_WAIT_GIVE_UP_MS - 100));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Could not connect');
    expect(screen.queryByText('Connecting...')).toBeNull();

    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(remote.retry).toHaveBeenCalledWith('p2');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Connecting...');

    // The fresh connection goes through its states and still does not connect: told again.
    remote.set('connecting');
    act(() => vi.advanceTimersByTime(MEDIA_WAIT_GIVE_UP_MS));
    expect(screen.getByRole('alert').textContent).toContain('Could not connect');
    // It connects after all: the error goes.
    remote.set('connected');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('remote-tile').dataset.status).toBe('connected');
  });

  it('says "Reconnecting..." for 10 s after the participant dropped, then dims with "Connection lost"', () => {
    const remote = new FakeRemote();
    remote.connectionState = 'connected';
    const { rerender } = tile(remote, { isConnected: false });
    const el = () => screen.getByTestId('remote-tile');
    expect(screen.getByText('Reconnecting...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(RECONNECTING_SHOWN_MS - 100));
    expect(el().dataset.status).toBe('reconnecting');
    act(() => vi.advanceTimersByTime(100));
    expect(el().dataset.status).toBe('lost');
    expect(screen.getByText('Connection lost')).toBeTruthy();
    expect(screen.queryByText('Reconnecting...')).toBeNull();
    expect(el().className).toContain('opacity-50');
    // Back: bright again at once, and a later drop counts its 10 s anew.
    const back = (isConnected: boolean) => (
      <RemoteTile
        remote={remote as unknown as RemoteMedia}
        participant={participant('p2', 'Bo', { isConnected })}
      />
    );
    rerender(back(true));
    expect(el().dataset.status).toBe('connected');
    expect(el().className).not.toContain('opacity-50');
    rerender(back(false));
    act(() => vi.advanceTimersByTime(RECONNECTING_SHOWN_MS - 100));
    expect(el().dataset.status).toBe('reconnecting');
  });

  it('gives no error when the media comes in time, and counts a later wait from its own start', () => {
    const remote = new FakeRemote();
    tile(remote);
    act(() => vi.advanceTimersByTime(5_000));
    remote.set('connected');
    act(() => vi.advanceTimersByTime(MEDIA_WAIT_GIVE_UP_MS));
    expect(screen.queryByRole('alert')).toBeNull();
    // The connection drops: "Reconnecting..." at once, "Could not connect" 15 s later.
    remote.set('disconnected');
    expect(screen.getByText('Reconnecting...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(MEDIA_WAIT_GIVE_UP_MS - 100));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('alert').textContent).toContain('Could not connect');
  });

  it('says "Reconnecting..." while the participant itself is away, and does not give up on them', () => {
    tile(new FakeRemote(), { isConnected: false });
    expect(screen.getByText('Reconnecting...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(MEDIA_WAIT_GIVE_UP_MS * 2));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
