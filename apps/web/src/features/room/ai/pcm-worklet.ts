/// <reference lib="webworker" />
/**
 * The AudioWorklet that turns the microphone into the server's audio frames: the AudioContext runs
 * at 16 kHz (the browser resamples the microphone into it), and this batches 100 ms of samples
 * (1,600) into signed 16-bit PCM and posts them to the page, which sends them as binary frames.
 *
 * Only speech is sent: a frame goes out while its level is above a floor, for HANGOVER_FRAMES
 * after (the decoder needs that trailing quiet to end the utterance itself), and with the
 * PREROLL_FRAMES before it (a word's quiet start). A silent participant sends nothing, so the
 * server gives its decoder back after a few seconds (each holds ~100 MiB and part of a core) and
 * the socket carries nothing for nothing.
 */

declare const sampleRate: number;
declare function registerProcessor(name: string, ctor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

const FRAME_SAMPLES = 1600;
/** RMS of a frame (of full scale) above which it may be speech: about -50 dBFS. */
const SPEECH_FLOOR = 0.003;
const HANGOVER_FRAMES = 12;
const PREROLL_FRAMES = 3;

function rms(frame: Int16Array): number {
  let sum = 0;
  for (const v of frame) sum += v * v;
  return Math.sqrt(sum / frame.length) / 0x8000;
}

class PcmCapture extends AudioWorkletProcessor {
  private buffer = new Int16Array(FRAME_SAMPLES);
  private filled = 0;
  /** Frames still to send after the last loud one. */
  private hangover = 0;
  private readonly preroll: Int16Array[] = [];

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      const v = Math.max(-1, Math.min(1, channel[i] ?? 0));
      this.buffer[this.filled++] = v < 0 ? v * 0x8000 : v * 0x7fff;
      if (this.filled === FRAME_SAMPLES) {
        this.frame(this.buffer);
        this.buffer = new Int16Array(FRAME_SAMPLES);
        this.filled = 0;
      }
    }
    return true;
  }

  private frame(frame: Int16Array): void {
    if (rms(frame) >= SPEECH_FLOOR) {
      for (const f of this.preroll.splice(0)) this.port.postMessage(f, [f.buffer]);
      this.hangover = HANGOVER_FRAMES;
    }
    if (this.hangover > 0) {
      this.hangover -= 1;
      this.port.postMessage(frame, [frame.buffer]);
      return;
    }
    this.preroll.push(frame);
    if (this.preroll.length > PREROLL_FRAMES) this.preroll.shift();
  }
}

registerProcessor('pcm-capture', PcmCapture);
// The context must run at 16 kHz; say so loudly in the console if a browser ignored it.
if (sampleRate !== 16_000) console.warn(`pcm-capture: sample rate ${sampleRate}, expected 16000`);
