import type { LocalMedia } from '@/features/room/media/local-media';
import type { SignalClient } from '@/features/room/signal-client';
import { rms, SpeakingHysteresis } from './speaking-detector';

/** How often the level is read. */
const READ_EVERY_MS = 50;

/**
 * Tells the room when this participant starts and stops speaking (`speaking {speaking}`; the
 * server sums talk time for the meeting report). It listens to the local microphone (a WebAudio
 * AnalyserNode, nothing sent anywhere but the two booleans) only while the participant is in the
 * room and unmuted; muting or leaving ends a stretch at once.
 */
export class SpeakingMeter {
  private ctx: AudioContext | null = null;
  private source: MediaStreamAudioSourceNode | null = null;
  private analyser: AnalyserNode | null = null;
  private track: MediaStreamTrack | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly detector = new SpeakingHysteresis();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly opts: {
      signal: SignalClient;
      media: LocalMedia;
      log?: (msg: string, extra?: unknown) => void;
    },
  ) {
    const { signal, media } = opts;
    this.cleanups.push(
      signal.subscribe(() => this.follow()),
      media.subscribe(() => this.follow()),
      media.onTracksChanged(() => this.follow()),
    );
    this.follow();
  }

  /** Listens exactly while joined, unmuted and with a live microphone track. */
  private follow(): void {
    const track = this.opts.media.audioTrack;
    const want =
      this.opts.signal.state === 'joined' &&
      !this.opts.media.getSnapshot().isMuted &&
      !!track &&
      track.readyState === 'live';
    if (want && track) {
      if (this.track !== track) this.start(track);
    } else if (this.track) {
      this.stop();
    }
  }

  private start(track: MediaStreamTrack): void {
    this.stop();
    try {
      const ctx = new AudioContext();
      const source = ctx.createMediaStreamSource(new MediaStream([track]));
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 1024;
      source.connect(analyser);
      // A context created without a user gesture may start suspended.
      if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
      const samples = new Float32Array(analyser.fftSize);
      this.ctx = ctx;
      this.source = source;
      this.analyser = analyser;
      this.track = track;
      this.timer = setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        const change = this.detector.feed(rms(samples), performance.now());
        if (change !== null) this.tell(change);
      }, READ_EVERY_MS);
    } catch (err) {
      this.opts.log?.('could not listen to the microphone level', err);
      this.stop();
    }
  }

  private tell(speaking: boolean): void {
    if (this.opts.signal.state === 'joined') this.opts.signal.send({ type: 'speaking', speaking });
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const ended = this.detector.reset();
    if (ended !== null) this.tell(ended);
    this.source?.disconnect();
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
    this.source = null;
    this.analyser = null;
    this.track = null;
  }

  /** Speaking now (tests read it through the room's debug hook). */
  get isSpeaking(): boolean {
    return this.detector.isSpeaking;
  }

  dispose(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.stop();
  }
}
