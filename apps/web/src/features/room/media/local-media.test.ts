import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalMedia } from './local-media';

class FakeTrack {
  readyState: 'live' | 'ended' = 'live';
  enabled = true;
  contentHint = '';
  onended: (() => void) | null = null;
  constructor(
    readonly kind: 'audio' | 'video',
    readonly deviceId = 'dev',
  ) {}
  stop() {
    this.readyState = 'ended';
  }
  getSettings() {
    return { deviceId: this.deviceId };
  }
}

class FakeStream {
  private readonly list: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.list = [...tracks];
  }
  getTracks() {
    return [...this.list];
  }
  getAudioTracks() {
    return this.list.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.list.filter((t) => t.kind === 'video');
  }
  addTrack(t: FakeTrack) {
    if (!this.list.includes(t)) this.list.push(t);
  }
  removeTrack(t: FakeTrack) {
    const i = this.list.indexOf(t);
    if (i >= 0) this.list.splice(i, 1);
  }
}

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
