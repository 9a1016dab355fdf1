import { describe, expect, it } from 'vitest';
import { EnergySegmenter, type Segment } from './vad.js';

/** A 440 Hz tone at about -12 dBFS: loud enough to count as speech. */
function tone(ms: number): Buffer {
  const n = Math.round(ms * 16);
  const pcm = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2);
  return pcm;
}

/** Low noise (about -60 dBFS), as a quiet microphone gives between words. */
function hiss(ms: number): Buffer {
  const n = Math.round(ms * 16);
  const pcm = Buffer.alloc(n * 2);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    pcm.writeInt16LE(Math.round(((seed / 2 ** 31) * 2 - 1) * 60), i * 2);
  }
  return pcm;
}

function segment(audio: Buffer[], chunk = 700): Segment[] {
  const out: Segment[] = [];
  const vad = new EnergySegmenter((s) => out.push(s));
  const all = Buffer.concat(audio);
  for (let at = 0; at < all.length; at += chunk) vad.write(all.subarray(at, at + chunk));
  vad.flush();
  return out;
}

describe('EnergySegmenter', () => {
  it('ends an utterance after 600 ms of quiet, with its offsets and a little pre-roll', () => {
    const got = segment([hiss(1000), tone(1500), hiss(1000), tone(800), hiss(1000)]);
    expect(got).toHaveLength(2);
    const [a, b] = got as [Segment, Segment];
    expect(a.startMs).toBeGreaterThanOrEqual(760);
    expect(a.startMs).toBeLessThanOrEqual(1000);
    expect(a.endMs).toBe(2500);
    expect(b.startMs).toBeGreaterThanOrEqual(3260);
    expect(b.endMs).toBe(4300);
    // The audio covers the speech and at most a short tail of quiet.
    expect(a.pcm.length / 32).toBeGreaterThanOrEqual(1500);
    expect(a.pcm.length / 32).toBeLessThanOrEqual(1500 + 240 + 200);
  });

  it('keeps a short pause (under 600 ms) inside the utterance', () => {
    const got = segment([hiss(500), tone(700), hiss(400), tone(700), hiss(1000)]);
    expect(got).toHaveLength(1);
  });

  it('ignores a click shorter than the start run', () => {
    expect(segment([hiss(500), tone(40), hiss(1500)])).toHaveLength(0);
  });

  it('cuts a long monologue so captions keep coming', () => {
    const got = segment([tone(20_000)]);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got[0]!.endMs - got[0]!.startMs).toBeLessThanOrEqual(15_000);
  });

  it('delivers the speech in progress on flush', () => {
    expect(segment([hiss(300), tone(900)])).toHaveLength(1);
  });
});
