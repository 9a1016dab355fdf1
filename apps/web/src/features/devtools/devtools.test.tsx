import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CameraTestPage } from './CameraTestPage';
import { VideoTestPage } from './VideoTestPage';
import { WebRtcTestPage } from './WebRtcTestPage';

class FakeTrack {
  readonly kind = 'video';
  readonly label = 'Fake camera';
  readyState: 'live' | 'ended' = 'live';
  stop() {
    this.readyState = 'ended';
  }
  getSettings() {
    return { width: 640, height: 480, frameRate: 30, deviceId: 'cam' };
  }
}

class FakeStream {
  constructor(private readonly list: FakeTrack[] = []) {}
  getTracks() {
    return this.list;
  }
  getVideoTracks() {
    return this.list;
  }
  getAudioTracks() {
    return [];
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const inRouter = (ui: React.ReactNode) => <MemoryRouter>{ui}</MemoryRouter>;

describe('developer media pages release the camera', () => {
  let getUserMedia: ReturnType<typeof vi.fn>;
  let play: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    vi.stubGlobal('MediaStream', FakeStream);
    // jsdom has no srcObject on media elements; the pages only assign it.
    Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', { configurable: true, set() {} });
    // jsdom's play() is "not implemented" and returns undefined; browsers return a promise.
    play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    getUserMedia = vi.fn();
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
    });
  });
  afterEach(() => {
    // Unmount while the fakes are still in place: this hook runs before the setup file's cleanup,
    // and a page still mounted may run an effect late (a <video> getting its stream calls play()),
    // which would hit jsdom's play() returning undefined once the spy is restored.
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('/video-test: a camera that answers after the page was left is stopped', async () => {
    const cam = deferred<FakeStream>();
    getUserMedia.mockReturnValue(cam.promise);
    const view = render(inRouter(<VideoTestPage />));
    await userEvent.click(screen.getByRole('button', { name: /start camera/i }));
    view.unmount();
    const track = new FakeTrack();
    await act(async () => cam.resolve(new FakeStream([track])));
    expect(track.readyState).toBe('ended');
  });

  it('/video-test: a camera handed out just before the page unmounts is stopped too', async () => {
    const cam = deferred<FakeStream>();
    getUserMedia.mockReturnValue(cam.promise);
    const view = render(inRouter(<VideoTestPage />));
    await userEvent.click(screen.getByRole('button', { name: /start camera/i }));
    const track = new FakeTrack();
    // The camera answers while the page is still mounted, and the page unmounts before the
    // state update holding the stream commits (inside act, updates wait until act ends).
    await act(async () => {
      cam.resolve(new FakeStream([track]));
      for (let i = 0; i < 5; i++) await Promise.resolve();
      view.unmount();
    });
    expect(track.readyState).toBe('ended');
  });

  it('/camera-test: Retry answered after the page was left stops its camera', async () => {
    const first = new FakeTrack();
    getUserMedia.mockResolvedValueOnce(new FakeStream([first]));
    const view = render(inRouter(<CameraTestPage />));
    const retry = await screen.findByRole('button', { name: /retry/i });
    await vi.waitFor(() => expect(retry).toBeEnabled());
    const late = deferred<FakeStream>();
    getUserMedia.mockReturnValueOnce(late.promise);
    await userEvent.click(retry);
    view.unmount();
    const track = new FakeTrack();
    await act(async () => late.resolve(new FakeStream([track])));
    expect(first.readyState).toBe('ended');
    expect(track.readyState).toBe('ended');
  });

  it('/webrtc-test survives StrictMode (effect, cleanup, effect) and keeps running', async () => {
    const tracks: FakeTrack[] = [];
    getUserMedia.mockImplementation(() => {
      const t = new FakeTrack();
      tracks.push(t);
      return Promise.resolve(new FakeStream([t]));
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ message: 'Meeting not found' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
        ),
      ),
    );
    render(<StrictMode>{inRouter(<WebRtcTestPage />)}</StrictMode>);
    // The run that StrictMode keeps goes on to join the test room (and reports the 404).
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not join test-room: Meeting not found.',
    );
    expect(tracks).toHaveLength(2);
    expect(tracks[0]!.readyState).toBe('ended');
    expect(tracks[1]!.readyState).toBe('live');
    // The kept run shows its camera (the <video> effect has run, not left pending for teardown).
    await vi.waitFor(() => expect(play).toHaveBeenCalled());
  });
});
