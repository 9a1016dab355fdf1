import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeStream, FakeTrack } from '../testing/fakes';
import { LocalMedia, micErrorMessage } from './local-media';

/** A promise the test resolves by hand, to stop the room while the browser is still asking. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LocalMedia', () => {
  let getUserMedia: ReturnType<typeof vi.fn>;
  let getDisplayMedia: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.stubGlobal('MediaStream', FakeStream);
    getUserMedia = vi.fn();
    getDisplayMedia = vi.fn();
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia, getDisplayMedia, enumerateDevices: () => Promise.resolve([]) },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('stops a screen share that arrives after the room stopped (no sharing bar left behind)', async () => {
    const media = new LocalMedia();
    const pick = deferred<FakeStream>();
    getDisplayMedia.mockReturnValue(pick.promise);
    const sharing = media.startScreenShare();
    media.stop();
    const screen = new FakeTrack('video', 'screen');
    pick.resolve(new FakeStream([screen]));
    await sharing;
    expect(screen.readyState).toBe('ended');
    expect(media.screenTrack).toBeNull();
    expect(media.getSnapshot().isScreenSharing).toBe(false);
  });

  it('stops a camera switched to after the room stopped (camera light goes off)', async () => {
    const media = new LocalMedia();
    const cam = deferred<FakeStream>();
    getUserMedia.mockReturnValue(cam.promise);
    const switching = media.switchCamera('cam-2');
    media.stop();
    const track = new FakeTrack('video', 'cam-2');
    cam.resolve(new FakeStream([track]));
    await switching;
    expect(track.readyState).toBe('ended');
    expect(media.cameraTrack).toBeNull();
  });

  it('stops a microphone switched to after the room stopped', async () => {
    const media = new LocalMedia();
    const mic = deferred<FakeStream>();
    getUserMedia.mockReturnValue(mic.promise);
    const switching = media.switchMicrophone('mic-2');
    media.stop();
    const track = new FakeTrack('audio', 'mic-2');
    mic.resolve(new FakeStream([track]));
    await switching;
    expect(track.readyState).toBe('ended');
    expect(media.audioTrack).toBeNull();
  });

  /** getUserMedia as a browser answers it: `refuse` names the DOMException per kind asked for. */
  function answerMedia(refuse: { audio?: string; video?: string }) {
    getUserMedia.mockImplementation((c: { audio?: unknown; video?: unknown }) => {
      const failing = (c.audio ? refuse.audio : undefined) ?? (c.video ? refuse.video : undefined);
      if (failing) return Promise.reject(new DOMException('refused', failing));
      const tracks: FakeTrack[] = [];
      if (c.audio) tracks.push(new FakeTrack('audio', 'mic'));
      if (c.video) tracks.push(new FakeTrack('video', 'cam'));
      return Promise.resolve(new FakeStream(tracks));
    });
  }

  it('a refused microphone keeps the camera and says the microphone was denied', async () => {
    answerMedia({ audio: 'NotAllowedError' });
    const media = new LocalMedia();
    await media.start({ audio: true, video: true });
    const snap = media.getSnapshot();
    expect(snap.micError).toBe(
      'Microphone access denied. Please allow microphone access in your browser settings.',
    );
    expect(snap.cameraStatus).toBe('ready');
    expect(snap.cameraError).toBeNull();
    expect(media.cameraTrack).not.toBeNull();
    expect(media.audioTrack).toBeNull();
  });

  it('a missing camera keeps the microphone; each device gets its own message', async () => {
    answerMedia({ video: 'NotFoundError' });
    const media = new LocalMedia();
    await media.start({ audio: true, video: true });
    const snap = media.getSnapshot();
    expect(snap.micError).toBeNull();
    expect(snap.cameraStatus).toBe('unavailable');
    expect(snap.cameraError).toBe('No camera found. Please connect a camera and try again.');
    expect(media.audioTrack).not.toBeNull();
  });

  it('Retry asks again only for the failed device and clears its alert', async () => {
    answerMedia({ audio: 'NotReadableError' });
    const media = new LocalMedia();
    await media.start({ audio: false, video: true });
    expect(media.getSnapshot().micError).toBe('The microphone is in use by another application.');
    const camera = media.cameraTrack;
    answerMedia({});
    getUserMedia.mockClear();
    await media.retry();
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(getUserMedia.mock.calls[0]?.[0]).not.toHaveProperty('video');
    expect(media.getSnapshot().micError).toBeNull();
    expect(media.audioTrack?.enabled).toBe(false); // joined muted stays muted
    expect(media.cameraTrack).toBe(camera);
  });

  it('names every microphone failure of spec §8', () => {
    expect(micErrorMessage(new DOMException('x', 'NotFoundError'))).toBe(
      'No microphone found. Please connect a microphone and try again.',
    );
    expect(micErrorMessage(new DOMException('x', 'NotReadableError'))).toBe(
      'The microphone is in use by another application.',
    );
    expect(micErrorMessage(new Error('odd'))).toBe('Failed to start recording');
  });

  it('a second click while the screen picker is open does not open another', async () => {
    const media = new LocalMedia();
    const pick = deferred<FakeStream>();
    getDisplayMedia.mockReturnValue(pick.promise);
    const first = media.startScreenShare();
    const second = media.startScreenShare();
    const screen = new FakeTrack('video', 'screen');
    pick.resolve(new FakeStream([screen]));
    await Promise.all([first, second]);
    expect(getDisplayMedia).toHaveBeenCalledTimes(1);
    expect(media.screenTrack).toBe(screen);
    expect(media.getSnapshot().isScreenSharing).toBe(true);
    media.stop();
    expect(screen.readyState).toBe('ended');
  });
});
