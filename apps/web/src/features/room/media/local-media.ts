import { Store } from '@/lib/store';
import type { LocalTracks } from './peer-link';

/**
 * The local camera, microphone and screen: acquisition, toggles, live device switching and screen
 * share. Tracks live here (never in React state); the UI reads `getSnapshot()` through a hook.
 */

export type CameraStatus = 'idle' | 'loading' | 'ready' | 'error' | 'unavailable';

export interface DeviceLists {
  audioInputs: MediaDeviceInfo[];
  audioOutputs: MediaDeviceInfo[];
  videoInputs: MediaDeviceInfo[];
}

export interface LocalMediaSnapshot {
  cameraStatus: CameraStatus;
  cameraError: string | null;
  micError: string | null;
  isMuted: boolean;
  isVideoOn: boolean;
  isScreenSharing: boolean;
  hasAudio: boolean;
  hasVideo: boolean;
  devices: DeviceLists;
  selected: { audioInput: string; audioOutput: string; videoInput: string };
  /** Bumped whenever a track object changes, so video elements re-attach. */
  trackVersion: number;
}

/**
 * What turns the camera into the video that is shown and sent (background effects, features/
 * backgrounds): given the camera track it answers the track to use instead, and it is told when
 * the camera is not on screen (off, or the screen shared) so that it costs nothing then.
 */
export interface CameraEffect {
  /** Processes `camera` (a device switch calls it again); answers the track to show and send. */
  attach(camera: MediaStreamTrack): MediaStreamTrack;
  setActive(active: boolean): void;
  dispose(): void;
}

export const CAMERA_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 640 },
  height: { ideal: 480 },
  frameRate: { ideal: 24, max: 30 },
};

const AUDIO_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

/** The spec's camera error texts (§8), by the DOMException name getUserMedia throws. */
export function cameraErrorMessage(err: unknown): string {
  const name =
    err instanceof Error || (typeof err === 'object' && err && 'name' in err) ? (err as Error).name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Camera permission denied. Please allow camera access in your browser settings.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return name === 'NotFoundError'
        ? 'No camera found. Please connect a camera and try again.'
        : 'The camera does not support the requested settings.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The camera is in use by another application.';
    case 'TypeError':
      return 'Camera API not supported in this browser';
    default:
      return 'Failed to access camera. Please ensure you have granted camera permissions.';
  }
}

/** The spec's microphone alerts (§8), by the DOMException name getUserMedia throws. */
export function micErrorMessage(err: unknown): string {
  const name =
    err instanceof Error || (typeof err === 'object' && err && 'name' in err) ? (err as Error).name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Microphone access denied. Please allow microphone access in your browser settings.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone found. Please connect a microphone and try again.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone is in use by another application.';
    default:
      return 'Failed to start recording';
  }
}

/** Device lists without the 'default' entry (spec §3). */
export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices)
    return { audioInputs: [], audioOutputs: [], videoInputs: [] };
  const all = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.deviceId !== 'default');
  return {
    audioInputs: all.filter((d) => d.kind === 'audioinput'),
    audioOutputs: all.filter((d) => d.kind === 'audiooutput'),
    videoInputs: all.filter((d) => d.kind === 'videoinput'),
  };
}

export class LocalMedia {
  readonly stream = new MediaStream();
  private audio: MediaStreamTrack | null = null;
  private camera: MediaStreamTrack | null = null;
  private screen: MediaStreamTrack | null = null;
  /** The background effect, and the track it answers for the camera (null: the camera as is). */
  private effect: CameraEffect | null = null;
  private effectTrack: MediaStreamTrack | null = null;
  private readonly trackListeners = new Set<(t: LocalTracks) => void>();
  private stopped = false;
  /** The screen share being acquired, so a second click does not open a second picker. */
  private screenPending: Promise<void> | null = null;
  private readonly store = new Store<LocalMediaSnapshot>({
    cameraStatus: 'idle',
    cameraError: null,
    micError: null,
    isMuted: false,
    isVideoOn: true,
    isScreenSharing: false,
    hasAudio: false,
    hasVideo: false,
    devices: { audioInputs: [], audioOutputs: [], videoInputs: [] },
    selected: { audioInput: '', audioOutput: '', videoInput: '' },
    trackVersion: 0,
  });

  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;

  private get snapshot(): LocalMediaSnapshot {
    return this.store.getSnapshot();
  }

  /** Called with the tracks to send whenever they change (the mesh replaces its senders). */
  onTracksChanged(l: (t: LocalTracks) => void): () => void {
    this.trackListeners.add(l);
    return () => this.trackListeners.delete(l);
  }

  private set(patch: Partial<LocalMediaSnapshot>): void {
    this.store.patch(patch);
  }

  tracks(): LocalTracks {
    return { stream: this.stream, audio: this.audio, video: this.screen ?? this.shownCamera };
  }

  /** The camera as it is shown and sent: through the background effect when one is on. */
  private get shownCamera(): MediaStreamTrack | null {
    return this.effectTrack ?? this.camera;
  }

  /** Puts `to` in the stream in place of `from` (the stream holds the shown camera or the screen). */
  private swapInStream(from: MediaStreamTrack | null, to: MediaStreamTrack | null): void {
    if (from === to) return;
    if (from) this.stream.removeTrack(from);
    if (to) this.stream.addTrack(to);
  }

  /**
   * Turns a background effect on (or off with null): every connection then sends its track in
   * place of the camera's (replaceTrack, no renegotiation), and the self view shows it. The
   * previous effect is disposed.
   */
  setCameraEffect(effect: CameraEffect | null): void {
    if (effect === this.effect || this.stopped) {
      if (this.stopped) effect?.dispose();
      return;
    }
    const before = this.shownCamera;
    this.effect?.dispose();
    this.effect = effect;
    this.effectTrack = effect && this.camera ? effect.attach(this.camera) : null;
    if (this.effectTrack) this.effectTrack.enabled = this.snapshot.isVideoOn;
    effect?.setActive(this.snapshot.isVideoOn && !this.screen);
    if (!this.screen) this.swapInStream(before, this.shownCamera);
    this.tracksChanged();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  get cameraTrack(): MediaStreamTrack | null {
    return this.camera;
  }

  get audioTrack(): MediaStreamTrack | null {
    return this.audio;
  }

  get screenTrack(): MediaStreamTrack | null {
    return this.screen;
  }

  private tracksChanged(): void {
    this.set({
      hasAudio: !!this.audio,
      hasVideo: !!this.camera,
      trackVersion: this.snapshot.trackVersion + 1,
    });
    const t = this.tracks();
    for (const l of this.trackListeners) l(t);
  }

  /** Acquires camera and microphone; a failing camera still leaves the microphone working. */
  async start(initial: { audio: boolean; video: boolean }): Promise<void> {
    this.set({
      isMuted: !initial.audio,
      isVideoOn: initial.video,
      cameraStatus: 'loading',
      cameraError: null,
      micError: null,
    });
    const md = navigator.mediaDevices;
    if (!md?.getUserMedia) {
      this.set({ cameraStatus: 'error', cameraError: 'Camera API not supported in this browser' });
      return;
    }
    let a: MediaStreamTrack | null;
    let v: MediaStreamTrack | null;
    try {
      const got = await md.getUserMedia({ audio: AUDIO_CONSTRAINTS, video: CAMERA_CONSTRAINTS });
      a = got.getAudioTracks()[0] ?? null;
      v = got.getVideoTracks()[0] ?? null;
    } catch {
      // Asked again one at a time: one refused or missing device must not take the other with it,
      // and each gets its own message (a refused microphone used to leave the camera off too,
      // with a camera message).
      a = await this.acquireOne('audio');
      v = await this.acquireOne('video');
    }
    if (this.stopped) {
      a?.stop();
      v?.stop();
      return;
    }
    if (a) this.useAudio(a);
    if (v) {
      this.useCamera(v);
      this.set({ cameraStatus: 'ready' });
    }
    this.tracksChanged();
    await this.refreshDevices();
  }

  /** Asks for the microphone or the camera alone; a failure stores the spec's message for it. */
  private async acquireOne(kind: 'audio' | 'video'): Promise<MediaStreamTrack | null> {
    try {
      const s = await navigator.mediaDevices.getUserMedia(
        kind === 'audio' ? { audio: AUDIO_CONSTRAINTS } : { video: CAMERA_CONSTRAINTS },
      );
      return (kind === 'audio' ? s.getAudioTracks() : s.getVideoTracks())[0] ?? null;
    } catch (err) {
      if (kind === 'audio') this.set({ micError: micErrorMessage(err) });
      else
        this.set({
          cameraStatus: (err as Error).name === 'NotFoundError' ? 'unavailable' : 'error',
          cameraError: cameraErrorMessage(err),
        });
      return null;
    }
  }

  /** Asks again for whichever of the microphone and camera failed (the alerts' Retry button). */
  async retry(): Promise<void> {
    if (this.stopped || !navigator.mediaDevices?.getUserMedia) return;
    const live = (t: MediaStreamTrack | null) => t?.readyState === 'live';
    const a = live(this.audio) ? null : await this.acquireOne('audio');
    const needCamera = !live(this.camera);
    if (needCamera) this.set({ cameraStatus: 'loading', cameraError: null });
    const v = needCamera ? await this.acquireOne('video') : null;
    if (this.stopped) {
      a?.stop();
      v?.stop();
      return;
    }
    if (a) {
      this.useAudio(a);
      this.set({ micError: null });
    }
    if (v) {
      this.useCamera(v);
      this.set({ cameraStatus: 'ready', cameraError: null });
    }
    if (a || v) this.tracksChanged();
    await this.refreshDevices();
  }

  private useAudio(track: MediaStreamTrack): void {
    if (this.audio) {
      this.stream.removeTrack(this.audio);
      this.audio.stop();
    }
    this.audio = track;
    track.enabled = !this.snapshot.isMuted;
    this.stream.addTrack(track);
    this.set({ selected: { ...this.snapshot.selected, audioInput: track.getSettings().deviceId ?? '' } });
  }

  private useCamera(track: MediaStreamTrack): void {
    const before = this.shownCamera;
    this.camera?.stop();
    this.camera = track;
    track.enabled = this.snapshot.isVideoOn;
    if (this.effect) {
      this.effectTrack = this.effect.attach(track);
      this.effectTrack.enabled = this.snapshot.isVideoOn;
      this.effect.setActive(this.snapshot.isVideoOn && !this.screen);
    }
    if (!this.screen) this.swapInStream(before, this.shownCamera);
    track.onended = () => {
      if (this.camera === track) this.set({ cameraStatus: 'error', cameraError: 'The camera stopped.' });
    };
    this.set({ selected: { ...this.snapshot.selected, videoInput: track.getSettings().deviceId ?? '' } });
  }

  setMuted(muted: boolean): void {
    if (this.audio) this.audio.enabled = !muted;
    this.set({ isMuted: muted });
  }

  setVideoOn(on: boolean): void {
    if (this.camera) this.camera.enabled = on;
    if (this.effectTrack) this.effectTrack.enabled = on;
    // The effect stops processing while the camera is off.
    this.effect?.setActive(on && !this.screen);
    this.set({ isVideoOn: on });
  }

  async refreshDevices(): Promise<void> {
    try {
      this.set({ devices: await listDevices() });
    } catch (err) {
      console.warn('Could not list devices', err);
    }
  }

  /** True (after stopping the stream's tracks) when the room stopped while the stream was awaited. */
  private discardIfStopped(s: MediaStream): boolean {
    if (!this.stopped) return false;
    s.getTracks().forEach((t) => t.stop());
    return true;
  }

  async switchMicrophone(deviceId: string): Promise<void> {
    if (this.stopped) return;
    const s = await navigator.mediaDevices.getUserMedia({
      audio: { ...AUDIO_CONSTRAINTS, deviceId: { exact: deviceId } },
    });
    if (this.discardIfStopped(s)) return;
    const track = s.getAudioTracks()[0];
    if (!track) return;
    this.useAudio(track);
    this.set({ selected: { ...this.snapshot.selected, audioInput: deviceId }, micError: null });
    this.tracksChanged();
  }

  async switchCamera(deviceId: string): Promise<void> {
    if (this.stopped) return;
    const s = await navigator.mediaDevices.getUserMedia({
      video: { ...CAMERA_CONSTRAINTS, deviceId: { exact: deviceId } },
    });
    if (this.discardIfStopped(s)) return;
    const track = s.getVideoTracks()[0];
    if (!track) return;
    this.useCamera(track);
    this.set({
      selected: { ...this.snapshot.selected, videoInput: deviceId },
      cameraStatus: 'ready',
      cameraError: null,
    });
    this.tracksChanged();
  }

  /** The speaker is applied by each media element (setSinkId); we only remember the choice. */
  setSpeaker(deviceId: string): void {
    this.set({ selected: { ...this.snapshot.selected, audioOutput: deviceId } });
  }

  startScreenShare(): Promise<void> {
    if (this.screen || this.stopped) return Promise.resolve();
    this.screenPending ??= this.acquireScreen().finally(() => {
      this.screenPending = null;
    });
    return this.screenPending;
  }

  private async acquireScreen(): Promise<void> {
    const s = await navigator.mediaDevices.getDisplayMedia({
      video: { frameRate: { ideal: 15 } },
      audio: false,
    });
    if (this.discardIfStopped(s)) return;
    const track = s.getVideoTracks()[0];
    if (!track) return;
    track.contentHint = 'detail';
    track.onended = () => this.stopScreenShare();
    const shown = this.shownCamera;
    if (shown) this.stream.removeTrack(shown);
    this.screen = track;
    this.effect?.setActive(false);
    this.stream.addTrack(track);
    this.set({ isScreenSharing: true });
    this.tracksChanged();
  }

  stopScreenShare(): void {
    const track = this.screen;
    if (!track) return;
    this.screen = null;
    track.onended = null;
    track.stop();
    this.stream.removeTrack(track);
    const shown = this.shownCamera;
    if (shown) this.stream.addTrack(shown);
    this.effect?.setActive(this.snapshot.isVideoOn);
    this.set({ isScreenSharing: false });
    this.tracksChanged();
  }

  stop(): void {
    this.stopped = true;
    for (const t of [this.audio, this.camera, this.screen]) t?.stop();
    this.effect?.dispose();
    this.effect = this.effectTrack = null;
    this.audio = this.camera = this.screen = null;
    this.tracksChanged();
  }
}
