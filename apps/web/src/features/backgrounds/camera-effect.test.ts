import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalMedia, type CameraEffect } from '@/features/room/media/local-media';
import { FakeStream, FakeTrack } from '@/features/room/testing/fakes';

/** An effect that answers one output track for any camera and records what it was told. */
class FakeEffect implements CameraEffect {
  readonly output = new FakeTrack('video', 'processed');
  inputs: unknown[] = [];
  active: boolean[] = [];
  disposed = false;
  attach(camera: MediaStreamTrack): MediaStreamTrack {
    this.inputs.push(camera);
    return this.output as unknown as MediaStreamTrack;
  }
  setActive(active: boolean): void {
    this.active.push(active);
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('LocalMedia with a background effect', () => {
  let camera: FakeTrack;
  let media: LocalMedia;
  let sent: unknown[];

  beforeEach(async () => {
    vi.stubGlobal('MediaStream', FakeStream);
    camera = new FakeTrack('video', 'cam-1');
    const getUserMedia = vi.fn(async (c: MediaStreamConstraints) =>
      c.video && !c.audio ? new FakeStream([new FakeTrack('video', 'cam-2')]) : new FakeStream([camera]),
    );
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia, getDisplayMedia: vi.fn(), enumerateDevices: () => Promise.resolve([]) },
    });
    media = new LocalMedia();
    await media.start({ audio: false, video: true });
    sent = [];
    media.onTracksChanged((t) => sent.push(t.video));
  });
  afterEach(() => vi.unstubAllGlobals());

  const streamVideo = () => (media.stream as unknown as FakeStream).getVideoTracks();

  it('sends and shows the processed track in place of the camera, and the camera again after None', () => {
    const effect = new FakeEffect();
    media.setCameraEffect(effect);
    expect(effect.inputs).toEqual([camera]);
    expect(media.tracks().video).toBe(effect.output);
    expect(sent).toEqual([effect.output]);
    expect(streamVideo()).toEqual([effect.output]);
    media.setCameraEffect(null);
    expect(effect.disposed).toBe(true);
    expect(media.tracks().video).toBe(camera);
    expect(streamVideo()).toEqual([camera]);
  });

  it('stops processing while the camera is off, and starts again when it is on', () => {
    const effect = new FakeEffect();
    media.setCameraEffect(effect);
    media.setVideoOn(false);
    expect(effect.active.at(-1)).toBe(false);
    expect(effect.output.enabled).toBe(false);
    media.setVideoOn(true);
    expect(effect.active.at(-1)).toBe(true);
    expect(effect.output.enabled).toBe(true);
  });

  it('processes the new camera after a device switch, keeping the same sent track', async () => {
    const effect = new FakeEffect();
    media.setCameraEffect(effect);
    await media.switchCamera('cam-2');
    expect(effect.inputs).toHaveLength(2);
    expect((effect.inputs[1] as FakeTrack).deviceId).toBe('cam-2');
    expect(media.tracks().video).toBe(effect.output);
    expect(streamVideo()).toEqual([effect.output]);
  });

  it('pauses while the screen is shared and sends the screen, then the processed camera again', async () => {
    const screen = new FakeTrack('video', 'screen');
    (navigator.mediaDevices.getDisplayMedia as ReturnType<typeof vi.fn>).mockResolvedValue(
      new FakeStream([screen]),
    );
    const effect = new FakeEffect();
    media.setCameraEffect(effect);
    await media.startScreenShare();
    expect(media.tracks().video).toBe(screen);
    expect(effect.active.at(-1)).toBe(false);
    media.stopScreenShare();
    expect(media.tracks().video).toBe(effect.output);
    expect(effect.active.at(-1)).toBe(true);
  });

  it('disposes the effect when the room stops', () => {
    const effect = new FakeEffect();
    media.setCameraEffect(effect);
    media.stop();
    expect(effect.disposed).toBe(true);
    const late = new FakeEffect();
    media.setCameraEffect(late);
    expect(late.disposed).toBe(true);
  });
});
