import { AUDIO_STREAM } from '@parley/protocol/constants';
import workletUrl from './pcm-worklet.ts?worker&url';

/**
 * Streams one microphone track to the server as 16 kHz mono PCM frames while transcription is on
 * (an AudioContext at 16 kHz, an AudioWorklet batching 100 ms). One continuous stream per
 * speaker: the server's decoder ends utterances where speech stops, so no word is cut at a chunk
 * edge (AI-ENGINES.md: separate 2 s pieces cost 3-6x the word error rate).
 */
export class MicStreamer {
  private ctx: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;
  private source: MediaStreamAudioSourceNode | null = null;
  private track: MediaStreamTrack | null = null;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly send: (frame: Int16Array) => void,
    private readonly log?: (msg: string, extra?: unknown) => void,
  ) {}

  get activeTrack(): MediaStreamTrack | null {
    return this.track;
  }

  /** Starts streaming `track` (restarting when it is another track). */
  async start(track: MediaStreamTrack): Promise<void> {
    if (this.track === track && this.ctx) return this.starting ?? undefined;
    this.stop();
    this.track = track;
    const ctx = new AudioContext({ sampleRate: AUDIO_STREAM.sampleRate });
    this.ctx = ctx;
    this.starting = (async () => {
      await ctx.audioWorklet.addModule(workletUrl);
      if (this.ctx !== ctx) return; // stopped meanwhile
      const source = ctx.createMediaStreamSource(new MediaStream([track]));
      const node = new AudioWorkletNode(ctx, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0 });
      node.port.onmessage = (ev: MessageEvent<Int16Array>) => this.send(ev.data);
      source.connect(node);
      this.source = source;
      this.node = node;
      // A context created without a user gesture may start suspended.
      if (ctx.state === 'suspended') await ctx.resume().catch(() => undefined);
    })().catch((err: unknown) => {
      this.log?.('could not start streaming the microphone', err);
      if (this.ctx === ctx) this.stop();
      throw err;
    });
    return this.starting;
  }

  stop(): void {
    this.node?.port.close();
    this.node?.disconnect();
    this.source?.disconnect();
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
    this.node = null;
    this.source = null;
    this.track = null;
    this.starting = null;
  }
}
