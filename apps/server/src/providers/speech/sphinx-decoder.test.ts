import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from './bandwidth.js';
import type { ConfigHandle, DecoderHandle, SphinxApi } from './sphinx-binding.js';
import { type BandwidthMode, type DecoderSink, SphinxDecoder } from './sphinx-decoder.js';

/** A stand-in for the library that records the audio it is given. */
function fakeApi() {
  const fed: Int16Array[] = [];
  const api: SphinxApi = {
    createConfig: () => ({}) as ConfigHandle,
    configInt: () => 0,
    freeConfig: () => undefined,
    createDecoder: () => ({}) as DecoderHandle,
    freeDecoder: () => undefined,
    startUtt: () => 0,
    processRaw: (_d, samples) => {
      fed.push(Int16Array.from(samples));
      return 0;
    },
    endUtt: () => 0,
    hypothesis: () => 'hello',
    inSpeech: () => false,
  };
  return { api, fed };
}

function decoder(bandwidth?: BandwidthMode) {
  const { api, fed } = fakeApi();
  const d = new SphinxDecoder(api, {
    modelDir: '/nowhere',
    extraArgs: [],
    frameMs: 20,
    maxUtteranceMs: 15_000,
    ...(bandwidth ? { bandwidth } : {}),
  });
  return { d, fed };
}

/** Tones below 4 kHz (band-limited) or with a 6 kHz part too (wideband), `ms` long. */
function audio(wide: boolean, ms: number): Int16Array {
  const out = new Int16Array((ms * SAMPLE_RATE) / 1000);
  for (let i = 0; i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    out[i] = Math.round(
      6_000 * Math.sin(2 * Math.PI * 700 * t) +
        3_000 * Math.sin(2 * Math.PI * 3_000 * t) +
        (wide ? 2_000 * Math.sin(2 * Math.PI * 6_000 * t) : 0),
    );
  }
  return out;
}

const none: DecoderSink = { utterance: () => undefined };
const same = (a: Int16Array, b: Int16Array) => a.length === b.length && a.every((v, i) => v === b[i]);
const joined = (pieces: Int16Array[]) => Int16Array.from(pieces.flatMap((p) => [...p]));

describe('SphinxDecoder and band-limited speech', () => {
  it('auto: passes wideband audio through untouched', () => {
    const { d, fed } = decoder('auto');
    const input = audio(true, 2_000);
    d.open();
    d.write(input, none);
    expect(d.band).toBe('wide');
    expect(same(joined(fed), input)).toBe(true);
  });

  it('auto: once a stream is known to be band-limited, what follows is widened', () => {
    const { d, fed } = decoder('auto');
    const input = audio(false, 2_000);
    d.open();
    d.write(input, none);
    expect(d.band).toBe('narrow');
    // The first second (before the decision) as it came, the rest changed.
    const first = fed.slice(0, 49);
    const later = fed.slice(55);
    expect(same(joined(first), input.subarray(0, 49 * 320))).toBe(true);
    expect(same(joined(later), input.subarray(55 * 320))).toBe(false);
  });

  it('a new stream starts undecided again', () => {
    const { d } = decoder('auto');
    d.open();
    d.write(audio(false, 2_000), none);
    expect(d.band).toBe('narrow');
    d.open();
    expect(d.band).toBe('unknown');
  });

  it('off (the decoder default) never changes the audio; extend always does', () => {
    const input = audio(false, 2_000);
    const off = decoder();
    off.d.open();
    off.d.write(input, none);
    expect(same(joined(off.fed), input)).toBe(true);
    const always = decoder('extend');
    always.d.open();
    always.d.write(audio(true, 100), none);
    expect(same(joined(always.fed), audio(true, 100))).toBe(false);
  });

  it('a band-limited clip is decided on as a whole and widened from its start', () => {
    const { d, fed } = decoder('auto');
    const input = audio(false, 2_000);
    expect(d.decodeClip(input)).toBe('hello');
    expect(fed).toHaveLength(1);
    expect(same(fed[0]!.subarray(0, 320), input.subarray(0, 320))).toBe(false);
    const wide = decoder('auto');
    wide.d.decodeClip(audio(true, 2_000));
    expect(same(wide.fed[0]!, audio(true, 2_000))).toBe(true);
  });
});
